import { formatMatch, metricSeries, ruleLookback, ruleVerdicts } from '@pingmon/sdk/wire';
import type { MatchedRule, Meta, RuleSpec } from '@pingmon/sdk/wire';

export const MAX_RULES_PER_MONITOR = 20;

/** What matching needs of a rule. */
export interface RuleCondition extends RuleSpec {
  ruleId: string;
}

/** A success as rules see it: its input (see ruleInput in @pingmon/sdk/wire). */
export type RuleInput = Meta;

/** How many earlier successes the rules read, newest first: 0 when none looks back (no read). */
export function lookbackOf(rules: readonly RuleCondition[]): number {
  return Math.max(0, ...rules.map(ruleLookback));
}

/**
 * The rules that `input` matches, in the order given, or null when none does. `earlier` are the monitor's
 * successes before it, newest first, at least `lookbackOf(rules)` of them when there are that many. A rule
 * whose metric the input does not report never matches: a missing number is not a zero.
 */
export function matchRules(
  rules: readonly RuleCondition[],
  input: RuleInput,
  earlier: readonly RuleInput[] = [],
): MatchedRule[] | null {
  let matched: MatchedRule[] | null = null;
  for (const rule of rules) {
    if (!Object.hasOwn(input, rule.metric)) continue;
    const series = [...earlier.slice(0, ruleLookback(rule))].reverse().map((e) => e[rule.metric]);
    const verdict = ruleVerdicts(rule, [...series, input[rule.metric]]).at(-1)!;
    if (!verdict.matched) continue;
    const { ruleId, metric, op, value, baseline, window } = rule;
    (matched ??= []).push({
      ruleId,
      metric,
      op,
      value,
      baseline,
      window,
      actual: verdict.actual!,
      median: verdict.baseline,
    });
  }
  return matched;
}

/** "rowsProcessed < 1 (was 0)". */
export function describeMatch(rule: MatchedRule): string {
  return formatMatch(rule);
}

/** A matched rule as stored before rules looked back (no baseline, window or median): as it is read now. */
export function storedMatch(
  rule: Partial<MatchedRule> & Omit<MatchedRule, 'baseline' | 'window' | 'median'>,
): MatchedRule {
  return { ...rule, baseline: rule.baseline ?? null, window: rule.window ?? null, median: rule.median ?? null };
}

/** What a rule would have done to some stored successes (POST /monitors/:monitorId/rules/preview). */
export interface RuleReplay<R> {
  checked: number;
  /** Runs whose input lacks the metric: a misspelt metric shows here, not as "matched none". */
  withoutMetric: number;
  matches: Array<{ run: R; actual: number; median: number | null }>;
}

/**
 * Replays `rule` over the latest `checked` of `runs` (newest first) as success pings would have matched it then;
 * the runs past those are what a look-back rule saw before the oldest checked one.
 */
export function replayRule<R extends { meta: Meta; durationMs: number | null }>(
  rule: RuleSpec,
  runs: readonly R[],
  checked: number,
): RuleReplay<R> {
  const oldestFirst = [...runs].reverse();
  const verdicts = ruleVerdicts(rule, metricSeries(oldestFirst, rule.metric));
  const replay: RuleReplay<R> = { checked: Math.min(checked, runs.length), withoutMetric: 0, matches: [] };
  for (let i = oldestFirst.length - 1; i >= oldestFirst.length - replay.checked; i--) {
    const verdict = verdicts[i]!;
    if (verdict.actual === undefined) replay.withoutMetric++;
    if (verdict.matched)
      replay.matches.push({ run: oldestFirst[i]!, actual: verdict.actual!, median: verdict.baseline });
  }
  return replay;
}
