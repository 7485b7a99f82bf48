// pingmon/internal: the modules the tests reach into, one line per module, so that a module moved or renamed is
// fixed here once. Not a public API (docs/testing.md): nothing outside this repository may import it.
export { exportData, exportText } from './as-code/export.js';
export { readMonitorsFile } from './as-code/file.js';
export { planApply, planChanges, type Current, type Desired } from './as-code/plan.js';
export { NotLoggedInError } from './client.js';
export { printTable } from './output.js';
export { formatRule, parseRuleExpression } from './rule-expression.js';
export { OutputCapture } from './run/capture.js';
export { LastLine, withLastLine } from './run/cause.js';
export { RUN_OPTIONS } from './run/flags.js';
export { outcomeOf } from './run/outcome.js';
export { parseMetaLines } from './run/meta.js';
export { App } from './tui/app.js';
export { ago, exactDuration, exactWhen, matchedRules, statusText } from './tui/format.js';
export { readKeys, type KeyPress } from './tui/key-reader.js';
export { COLLAPSE_OVER, detailFields, listRows, logView, runDetailView, windowStart } from './tui/layout.js';
export { problemOf } from './tui/problem.js';
export { createSource, type BrowseSource, type MonitorRow } from './tui/source.js';
export { initialState, nextSnooze, reduce, type Action, type State } from './tui/state.js';
export { capRows, clean, firstLine, wrap } from './tui/text.js';
export { fit, textWidth } from './width.js';
export { cutAtPercent, hostZone, isSystemCrontab, jobsOf, readCrontab } from './discover/crontab.js';
export { candidates, diffText, planOf, type Candidate } from './discover/plan.js';
export { propose, slugOf } from './discover/propose.js';
export { initialReview, reduceReview } from './discover/review-state.js';
export { shellTokens } from './discover/shell-words.js';
export { readWrapped, resyncLine, wrapLine } from './discover/wrap.js';
export { Review } from './discover/review.js';
