import { RULE_OP_SYMBOLS } from '@pingmon/sdk/wire';
import type { MatchedRule, Meta, RuleOp } from '@pingmon/sdk/wire';

export const MAX_RULES_PER_MONITOR = 20;

/** What matching needs of a rule. */
export interface RuleCondition {
  ruleId: string;
  metric: string;
  op: RuleOp;
  value: number;
}

function holds(actual: number, op: RuleOp, value: number): boolean {
  switch (op) {
    case 'lt':
      return actual < value;
    case 'lte':
      return actual <= value;
    case 'gt':
      return actual > value;
    case 'gte':
      return actual >= value;
    case 'eq':
      return actual === value;
    case 'neq':
      return actual !== value;
  }
}

/**
 * The rules that `meta` matches, in the order given, or null when none does. A rule whose metric
 * the meta does not report never matches: a missing number is not a zero.
 */
export function matchRules(rules: readonly RuleCondition[], meta: Meta): MatchedRule[] | null {
  let matched: MatchedRule[] | null = null;
  for (const rule of rules) {
    if (!Object.hasOwn(meta, rule.metric)) continue;
    const actual = meta[rule.metric]!;
    if (!holds(actual, rule.op, rule.value)) continue;
    (matched ??= []).push({ ruleId: rule.ruleId, metric: rule.metric, op: rule.op, value: rule.value, actual });
  }
  return matched;
}

/** "rowsProcessed < 1 (was 0)". */
export function describeMatch(rule: MatchedRule): string {
  return `${rule.metric} ${RULE_OP_SYMBOLS[rule.op]} ${rule.value} (was ${rule.actual})`;
}

/**
 * What rules are matched against: the run's meta, and its measured `durationMs` when it has one (a run opened
 * by its start ping), which wins over a meta key of that name. A slow-run rule is `durationMs > 3600000`.
 */
export function ruleInput(meta: Meta, durationMs: number | null): Meta {
  return durationMs === null ? meta : { ...meta, durationMs };
}

/** What a rule would have done to some stored successes (POST /monitors/:monitorId/rules/preview). */
export interface RuleReplay<R> {
  checked: number;
  /** Runs whose input lacks the metric: a misspelt metric shows here, not as "matched none". */
  withoutMetric: number;
  matches: Array<{ run: R; actual: number }>;
}

/** Replays `rule` over `runs` as a success ping would have matched it then, in the order given. */
export function replayRule<R extends { meta: Meta; durationMs: number | null }>(
  rule: Omit<RuleCondition, 'ruleId'>,
  runs: readonly R[],
): RuleReplay<R> {
  const replay: RuleReplay<R> = { checked: runs.length, withoutMetric: 0, matches: [] };
  for (const run of runs) {
    const input = ruleInput(run.meta, run.durationMs);
    if (!Object.hasOwn(input, rule.metric)) replay.withoutMetric++;
    const matched = matchRules([{ ruleId: '', ...rule }], input);
    if (matched) replay.matches.push({ run, actual: matched[0]!.actual });
  }
  return replay;
}
