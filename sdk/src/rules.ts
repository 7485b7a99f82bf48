import type { Meta, RuleBaseline, RuleOp, RuleWindow } from './types.js';

// How a rule judges a monitor's successful runs, shared by the server (pings, previews), the dashboard (a chart's
// threshold line) and the CLI. A rule compares a metric with a fixed value, or with `value × the median` of the
// same metric over the runs before (a baseline); and it matches on one run, or when it held in `atLeast` of the
// last `runs` successes (a window), the run itself among them.

export interface RuleSpec {
  metric: string;
  op: RuleOp;
  value: number;
  baseline: RuleBaseline | null;
  window: RuleWindow | null;
}

export const BASELINE_MAX_RUNS = 100;
export const WINDOW_MAX_RUNS = 20;

/** How many successful runs before the one judged a rule looks at: the bound of the read on each success ping. */
export function ruleLookback(rule: Pick<RuleSpec, 'baseline' | 'window'>): number {
  const window = rule.window ? rule.window.runs - 1 : 0;
  return window + (rule.baseline?.runs ?? 0);
}

export function ruleHolds(actual: number, op: RuleOp, value: number): boolean {
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

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** One run as a rule judged it. */
export interface RuleVerdict {
  /** The metric as the run reported it; undefined: not reported, and the rule does not hold. */
  actual: number | undefined;
  /** The median it was compared against (baseline rules), null without one or while too few runs exist. */
  baseline: number | null;
  /** What `actual` was compared with: the value, or value × baseline; null: no verdict yet. */
  threshold: number | null;
  held: boolean;
  /** Held, and (with a window) in enough of the last runs: a success that matches is a silent failure. */
  matched: boolean;
}

/**
 * The verdict on each run of `series`: the metric's value on a monitor's successful runs, oldest first (undefined
 * where a run did not report it). The last verdict is the newest run's; a ping reads `ruleLookback` runs before it.
 */
export function ruleVerdicts(rule: RuleSpec, series: ReadonlyArray<number | undefined>): RuleVerdict[] {
  const verdicts: RuleVerdict[] = [];
  series.forEach((actual, i) => {
    let baseline: number | null = null;
    let threshold: number | null = rule.value;
    if (rule.baseline) {
      const { runs, minRuns } = rule.baseline;
      const before = series.slice(Math.max(0, i - runs), i).filter((value) => value !== undefined);
      baseline = before.length >= minRuns ? median(before) : null;
      threshold = baseline === null ? null : rule.value * baseline;
    }
    const held = actual !== undefined && threshold !== null && ruleHolds(actual, rule.op, threshold);
    verdicts.push({ actual, baseline, threshold, held, matched: held });
  });
  if (rule.window) {
    const { runs, atLeast } = rule.window;
    verdicts.forEach((verdict, i) => {
      const last = verdicts.slice(Math.max(0, i - runs + 1), i + 1);
      verdict.matched = verdict.held && last.filter((v) => v.held).length >= atLeast;
    });
  }
  return verdicts;
}

/**
 * What rules are matched against: the run's meta, and its measured `durationMs` when it has one (a run opened
 * by its start ping), which wins over a meta key of that name. A slow-run rule is `durationMs > 3600000`.
 */
export function ruleInput(meta: Meta, durationMs: number | null): Meta {
  return durationMs === null ? meta : { ...meta, durationMs };
}

/** A run's metrics, as a trend draws them: what its rules would be matched against. */
type Measured = { meta: Meta; durationMs: number | null };

/** `metric` on each of `runs` (give them oldest first, as ruleVerdicts wants): undefined where not reported. */
export function metricSeries(runs: readonly Measured[], metric: string): Array<number | undefined> {
  return runs.map((run) => ruleInput(run.meta, run.durationMs)[metric]);
}

/** The metrics a trend can draw of `runs`: durationMs first, then every meta key one of them reports, sorted. */
export function trendMetrics(runs: readonly Measured[]): string[] {
  const keys = new Set(runs.flatMap((run) => Object.keys(run.meta)));
  keys.delete('durationMs');
  return ['durationMs', ...[...keys].sort()];
}
