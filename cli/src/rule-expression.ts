import { BASELINE_MAX_RUNS, META_KEY_MAX_CHARS, RULE_OPS, RULE_OP_SYMBOLS, WINDOW_MAX_RUNS } from '@pingmon/sdk/wire';
import type { RuleBaseline, RuleOp, RuleSpec, RuleWindow } from '@pingmon/sdk/wire';

const SYMBOL_OPS = new Map<string, RuleOp>(RULE_OPS.map((op) => [RULE_OP_SYMBOLS[op], op]));
/** Longest first: "<=" is one operator, not "<" followed by "=". */
const alternatives = (words: readonly string[]) => [...words].sort((a, b) => b.length - a.length).join('|');
const SYMBOL_EXPRESSION = new RegExp(`^(.*?)(${alternatives([...SYMBOL_OPS.keys()])})(.*)$`, 's');
const WORD_EXPRESSION = new RegExp(`^(.*?)\\s+(${alternatives(RULE_OPS)})\\s+(\\S+)$`, 'is');

const SYMBOLS = RULE_OPS.map((op) => RULE_OP_SYMBOLS[op]).join(' ');
export const RULE_FORM =
  'METRIC OP NUMBER [× median(RUNS)] [for RUNS runs | in K of the last RUNS] ' +
  `(OP: ${SYMBOLS} or ${RULE_OPS.join(' ')})`;
/** "for 3 runs", "in 3 of the last 5", at the end. */
const WINDOW = /\s+(?:for\s+(\d+)\s+runs?|in\s+(\d+)\s+of\s+(?:the\s+)?last\s+(\d+)(?:\s+runs?)?)$/i;
/** "× median(20)", "x median(20, min 5)", "* median(20)", at the end (once a window is taken off). */
const BASELINE = /\s*[×x*]\s*median\(\s*(\d+)\s*(?:,\s*min\s+(\d+)\s*)?\)$/i;

export type RuleParse = { ok: true; rule: RuleSpec } | { ok: false; error: string };

/**
 * "rowsProcessed < 1", "rowsProcessed<1", "rowsProcessed lt 1" → {metric, op, value}. Symbols need no spaces
 * around them; words do (they could be part of a metric's name). The first symbol is the operator. Then a baseline
 * ("durationMs > 3 × median(20)": 3 times the median of the 20 successes before) and a window ("… for 3 runs",
 * "… in 3 of the last 5"), in that order (docs/alerts.md).
 */
export function parseRuleExpression(text: string): RuleParse {
  const expression = text.trim();
  let rest = expression;
  let window: RuleWindow | null = null;
  const windowMatch = WINDOW.exec(rest);
  if (windowMatch) {
    const [, row, atLeast = row, runs = row] = windowMatch;
    window = { runs: Number(runs), atLeast: Number(atLeast) };
    if (window.runs < 1 || window.runs > WINDOW_MAX_RUNS)
      return { ok: false, error: `a window is 1 to ${WINDOW_MAX_RUNS} runs, not ${window.runs}, in "${expression}"` };
    if (window.atLeast < 1 || window.atLeast > window.runs)
      return { ok: false, error: `"in ${window.atLeast} of the last ${window.runs}" cannot hold: K is 1 to RUNS` };
    rest = rest.slice(0, windowMatch.index);
  }
  let baseline: RuleBaseline | null = null;
  const baselineMatch = BASELINE.exec(rest);
  if (baselineMatch) {
    const [, runs, minRuns = runs] = baselineMatch;
    baseline = { runs: Number(runs), minRuns: Number(minRuns) };
    if (baseline.runs < 1 || baseline.runs > BASELINE_MAX_RUNS)
      return { ok: false, error: `a median is over 1 to ${BASELINE_MAX_RUNS} runs, not ${baseline.runs}` };
    if (baseline.minRuns < 1 || baseline.minRuns > baseline.runs)
      return {
        ok: false,
        error:
          `median(${baseline.runs}, min ${baseline.minRuns}): min is how many of the ${baseline.runs} must report ` +
          `the metric, 1 to ${baseline.runs}`,
      };
    rest = rest.slice(0, baselineMatch.index);
  }
  const parsed = parseComparison(rest.trim(), expression);
  if (!parsed.ok) return parsed;
  if (baseline && parsed.rule.value <= 0)
    return {
      ok: false,
      error: `the ${parsed.rule.value} in "${expression}" multiplies a median: give a number above 0`,
    };
  return { ok: true, rule: { ...parsed.rule, baseline, window } };
}

/** "rowsProcessed < 1" alone. */
function parseComparison(comparison: string, expression: string): RuleParse {
  const symbol = SYMBOL_EXPRESSION.exec(comparison);
  const word = WORD_EXPRESSION.exec(comparison);
  const parts = symbol
    ? [symbol[1]!, SYMBOL_OPS.get(symbol[2]!)!, symbol[3]!]
    : word
      ? [word[1]!, word[2]!.toLowerCase(), word[3]!]
      : undefined;
  if (!parts) return { ok: false, error: `"${expression}" is not a rule: expected ${RULE_FORM}` };
  const [metric, op, valueText] = [parts[0]!.trim(), parts[1] as RuleOp, parts[2]!.trim()];
  // "rows => 1" or "rows = 1" is a typo, not a metric named "rows =".
  if (metric === '' || /[<>=!]/.test(metric))
    return { ok: false, error: `"${expression}" is not a rule: expected ${RULE_FORM}` };
  if (metric.length > META_KEY_MAX_CHARS)
    return { ok: false, error: `the metric "${metric.slice(0, 20)}…" is longer than ${META_KEY_MAX_CHARS} characters` };
  const value = Number(valueText);
  if (valueText === '' || !Number.isFinite(value))
    return { ok: false, error: `"${valueText}" in "${expression}" is not a number: expected ${RULE_FORM}` };
  return { ok: true, rule: { metric, op, value, baseline: null, window: null } };
}

/** An example of the kind of rule the user was writing, for an error's "e.g.". */
export function ruleExample(text: string): string {
  if (/median/i.test(text)) return 'rowsProcessed < 0.5 × median(20, min 5)';
  if (/\s(?:for|last)\s/i.test(text)) return 'errors > 0 in 3 of the last 5';
  return 'rowsProcessed < 1';
}

export { formatMatch, formatRule } from '@pingmon/sdk/wire';
