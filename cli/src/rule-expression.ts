import { META_KEY_MAX_CHARS } from '@pingmon/sdk/wire';
import type { CreateRuleRequest, RuleOp } from '@pingmon/sdk/wire';

const SYMBOL_OPS: Record<string, RuleOp> = { '<': 'lt', '<=': 'lte', '>': 'gt', '>=': 'gte', '==': 'eq', '!=': 'neq' };
const SYMBOLS: Record<RuleOp, string> = { lt: '<', lte: '<=', gt: '>', gte: '>=', eq: '==', neq: '!=' };

export const RULE_FORM = 'METRIC OP NUMBER (OP: < <= > >= == != or lt lte gt gte eq neq)';

export type RuleParse = { ok: true; rule: CreateRuleRequest } | { ok: false; error: string };

/**
 * "rowsProcessed < 1", "rowsProcessed<1", "rowsProcessed lt 1" → {metric, op, value}. Symbols need no spaces
 * around them; words do (they could be part of a metric's name). The first symbol is the operator.
 */
export function parseRuleExpression(text: string): RuleParse {
  const expression = text.trim();
  const symbol = /^(.*?)(<=|>=|==|!=|<|>)(.*)$/s.exec(expression);
  const word = /^(.*?)\s+(lte|lt|gte|gt|eq|neq)\s+(\S+)$/is.exec(expression);
  const parts = symbol ? [symbol[1]!, SYMBOL_OPS[symbol[2]!]!, symbol[3]!] : word ? [word[1]!, word[2]!.toLowerCase(), word[3]!] : undefined;
  if (!parts) return { ok: false, error: `"${expression}" is not a rule: expected ${RULE_FORM}` };
  const [metric, op, valueText] = [parts[0]!.trim(), parts[1] as RuleOp, parts[2]!.trim()];
  // "rows => 1" or "rows = 1" is a typo, not a metric named "rows =".
  if (metric === '' || /[<>=!]/.test(metric)) return { ok: false, error: `"${expression}" is not a rule: expected ${RULE_FORM}` };
  if (metric.length > META_KEY_MAX_CHARS) return { ok: false, error: `the metric "${metric.slice(0, 20)}…" is longer than ${META_KEY_MAX_CHARS} characters` };
  const value = Number(valueText);
  if (valueText === '' || !Number.isFinite(value)) return { ok: false, error: `"${valueText}" in "${expression}" is not a number: expected ${RULE_FORM}` };
  return { ok: true, rule: { metric, op, value } };
}

/** "rowsProcessed < 1" */
export function formatRule(rule: { metric: string; op: RuleOp; value: number }): string {
  return `${rule.metric} ${SYMBOLS[rule.op]} ${rule.value}`;
}
