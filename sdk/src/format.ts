// How runs, durations and rules are written for people: the CLI's tables, the TUI and the dashboard alike.
import type { MatchedRule, RuleOp, RuleWindow, RunStatus } from './types.js';
import { RULE_OP_SYMBOLS, RULE_OP_WORDS } from './vocabulary.js';

/** "3m 20s", "850ms", "—" */
export function duration(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1_000) return `${ms}ms`;
  const s = Math.round(ms / 1_000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m ${s % 60}s` : `${Math.floor(m / 60)}h ${m % 60}m`;
}

/**
 * A duration as exact as a time to the millisecond: "8ms", "1.520s", then as `duration` from a minute on. For
 * the run detail, whose times show milliseconds: 13:30:24.998 to 13:30:25.006 reads as 8ms.
 */
export function exactDuration(ms: number | null): string {
  if (ms === null || ms < 1_000 || ms >= 60_000) return duration(ms);
  return `${(ms / 1_000).toFixed(3)}s`;
}

/** Marks a silent failure: a success whose meta matched alert rules. */
export const SILENT_MARK = '▲';

/**
 * A run's status as the tables and the dashboard both show it: a symbol and a word, readable without colour.
 * The symbols are ones that every terminal and ink agree are one column wide (✔ ✖ ⚠ are emoji to ink, two
 * columns, and would shift a row by one).
 */
export const STATUS: Record<RunStatus | 'none', { symbol: string; word: string }> = {
  failed: { symbol: '✗', word: 'failed' },
  success: { symbol: '✓', word: 'success' },
  running: { symbol: '●', word: 'running' },
  none: { symbol: '·', word: 'no runs' },
};

/** "✗ failed", "✓ success ▲" (a silent failure: it succeeded but its meta matched alert rules). */
export function statusText(status: RunStatus | 'none', silent = false): string {
  const { symbol, word } = STATUS[status];
  return `${symbol} ${word}${silent ? ` ${SILENT_MARK}` : ''}`;
}

/** "just now", "42s ago", "3m ago", "5h ago", "2d ago": relative to `now`, the time the data was fetched. */
export function ago(iso: string | null, now: number): string {
  if (!iso) return 'never';
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 5) return 'just now';
  if (seconds < 60) return `${seconds}s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h ago`;
  return `${Math.floor(seconds / 86_400)}d ago`;
}

/** "in 40s", "in 5m", "in 3h", "in 2d", "due" (the time has come), or "—" when nothing is expected. */
export function until(iso: string | null, now: number): string {
  if (!iso) return '—';
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  if (seconds <= 0) return 'due';
  if (seconds < 60) return `in ${seconds}s`;
  if (seconds < 3600) return `in ${Math.floor(seconds / 60)}m`;
  if (seconds < 86_400) return `in ${Math.floor(seconds / 3600)}h`;
  return `in ${Math.floor(seconds / 86_400)}d`;
}

/** A rule as stored, or as asked for (a baseline's minRuns defaults to its runs). */
type RuleText = {
  metric: string;
  op: RuleOp;
  value: number;
  baseline?: { runs: number; minRuns?: number } | null;
  window?: RuleWindow | null;
};

/** "rowsProcessed < 1", "durationMs > 3 × median(20)", "rowsProcessed < 0.5 × median(20, min 5) in 3 of the last 5". */
export function formatRule(rule: RuleText): string {
  const { baseline, window } = rule;
  const least = baseline?.minRuns ?? baseline?.runs;
  const minText = least === baseline?.runs ? '' : `, min ${least}`;
  const median = baseline ? ` × median(${baseline.runs}${minText})` : '';
  return `${rule.metric} ${RULE_OP_SYMBOLS[rule.op]} ${rule.value}${median}${window ? ` ${windowText(window)}` : ''}`;
}

/** "for 3 runs", "in 3 of the last 5". */
function windowText(window: RuleWindow): string {
  return window.atLeast === window.runs ? `for ${window.runs} runs` : `in ${window.atLeast} of the last ${window.runs}`;
}

/**
 * What a rule does, in words: "Alert when a success reports rowsProcessed less than 1"; "… durationMs more than 3
 * × the median of the 20 successes before it, once 20 earlier successes report it"; "…, in 3 of the last 5 successes".
 */
export function describeRule(rule: RuleText): string {
  const { baseline, window } = rule;
  let text = `Alert when a success reports ${rule.metric} ${RULE_OP_WORDS[rule.op]} ${rule.value}`;
  if (baseline) {
    const runs = baseline.runs === 1 ? 'the success' : `the ${baseline.runs} successes`;
    text += ` × the median of ${runs} before it, once ${baseline.minRuns ?? baseline.runs} earlier successes report it`;
  }
  if (window) {
    text +=
      window.atLeast === window.runs
        ? `, ${window.runs} successes in a row`
        : `, in ${window.atLeast} of the last ${window.runs} successes`;
  }
  return text;
}

/**
 * "rowsProcessed < 1 (was 0)", "rowsProcessed < 0.5 × median(20) (was 200; median 40000)": a rule as a run
 * matched it.
 */
export function formatMatch(rule: MatchedRule): string {
  const median = rule.baseline === null || rule.baseline === undefined ? '' : `; median ${rule.baseline}`;
  return `${formatRule(rule)} (was ${rule.actual}${median})`;
}

/** A failed run's failure as its monitor has seen it: "first seen 3d ago, 14 times", or "new failure". */
export function failureSeen(failure: { firstSeenAt: string; count: number } | null, now: number): string | null {
  if (failure === null) return null;
  if (failure.count <= 1) return 'new failure';
  return `first seen ${ago(failure.firstSeenAt, now)}, ${failure.count} times`;
}

/** A run's `redactions` as the run detail shows it: "3 values" (replaced with [redacted] before leaving the host). */
export function redactedText(redactions: number): string {
  return `${redactions} ${redactions === 1 ? 'value' : 'values'}`;
}
