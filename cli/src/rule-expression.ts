import { META_KEY_MAX_CHARS, RULE_OPS, RULE_OP_SYMBOLS } from '@pingmon/sdk/wire';
import type { CreateRuleRequest, RuleOp } from '@pingmon/sdk/wire';

const SYMBOL_OPS = new Map<string, RuleOp>(RULE_OPS.map((op) => [RULE_OP_SYMBOLS[op], op]));
/** Longest first: "<=" is one operator, not "<" followed by "=". */
const alternatives = (words: readonly string[]) => [...words].sort((a, b) => b.length - a.length).join('|');
const SYMBOL_EXPRESSION = new RegExp(`^(.*?)(${alternatives([...SYMBOL_OPS.keys()])})(.*)$`, 's');
const WORD_EXPRESSION = new RegExp(`^(.*?)\\s+(${alternatives(RULE_OPS)})\\s+(\\S+)$`, 'is');

const SYMBOLS = RULE_OPS.map((op) => RULE_OP_SYMBOLS[op]).join(' ');
export const RULE_FORM = `METRIC OP NUMBER (OP: ${SYMBOLS} or ${RULE_OPS.join(' ')})`;

export type RuleParse = { ok: true; rule: CreateRuleRequest } | { ok: false; error: string };

/**
 * "rowsProcessed < 1", "rowsProcessed<1", "rowsProcessed lt 1" → {metric, op, value}. Symbols need no spaces
 * around them; words do (they could be part of a metric's name). The first symbol is the operator.
 */
export function parseRuleExpression(text: string): RuleParse {
  const expression = text.trim();
  const symbol = SYMBOL_EXPRESSION.exec(expression);
  const word = WORD_EXPRESSION.exec(expression);
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
  return { ok: true, rule: { metric, op, value } };
}

export { formatMatch, formatRule } from '@pingmon/sdk/wire';
