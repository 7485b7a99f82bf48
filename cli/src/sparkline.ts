import { duration, metricSeries, ruleLookback, ruleVerdicts } from '@pingmon/sdk/wire';
import type { Meta, RuleSpec } from '@pingmon/sdk/wire';
import { fit } from './width.js';

// A metric's last values in one line of text, the same in `pingmon monitors show` and in `pingmon browse`.

const BLOCKS = '▁▂▃▄▅▆▇█';
/** Where a run did not report the metric: a gap, not a zero. */
const GAP = ' ';
/** Successes a trend shows at most: enough to see a drift, few enough for a narrow terminal. */
export const TREND_RUNS = 30;

type Measured = { meta: Meta; durationMs: number | null };

/**
 * One block per value, oldest on the left, scaled from the lowest value to the highest; a series of one value
 * throughout is drawn at half height (it says steady, neither low nor high).
 */
export function sparkline(series: ReadonlyArray<number | undefined>): string {
  const values = series.filter((v) => v !== undefined);
  const low = Math.min(...values);
  const high = Math.max(...values);
  return series
    .map((v) => {
      if (v === undefined) return GAP;
      if (high === low) return BLOCKS[3];
      return BLOCKS[Math.round(((v - low) / (high - low)) * (BLOCKS.length - 1))];
    })
    .join('');
}

/** A metric's value as a person reads it: durations as durations, meta as the number it is. */
export function metricValue(metric: string, value: number): string {
  return metric === 'durationMs' ? duration(value) : String(value);
}

/** How many successes to fetch for a trend of `shown` runs: a median rule also reads the runs before them. */
export function trendFetch(rules: readonly RuleSpec[], shown = TREND_RUNS): number {
  return Math.min(200, shown + Math.max(0, ...rules.map(ruleLookback)));
}

/**
 * The trend of `metric` over the last `shown` of `runs` (successes, oldest first), in words: "▁▃█▅ 1s to 5s, 1
 * matched". The rules on that metric judge every run given, so the runs before the shown ones make their medians.
 */
export function trendText(
  metric: string,
  runs: readonly Measured[],
  rules: readonly RuleSpec[],
  shown: number,
): string {
  const series = metricSeries(runs, metric);
  const verdicts = rules.filter((r) => r.metric === metric).map((r) => ruleVerdicts(r, series));
  const from = Math.max(0, series.length - shown);
  const last = series.slice(from);
  const values = last.filter((v) => v !== undefined);
  if (values.length === 0) return 'not reported';
  const matched = last.filter((_, i) => verdicts.some((v) => v[from + i]!.matched)).length;
  const range = `${metricValue(metric, Math.min(...values))} to ${metricValue(metric, Math.max(...values))}`;
  return `${sparkline(last)}  ${range}${matched > 0 ? `, ${matched} matched a rule` : ''}`;
}

/** Columns kept for a trend's words after its line ("12m 30s to 1h 2m, 12 matched a rule"). */
const WORDS = 36;

/**
 * One line per metric, each `label + metric + trend` at most `width` columns: the line shows as many of the
 * latest successes as fit (at most TREND_RUNS), and the words are cut last.
 */
export function trendLines(
  metrics: readonly string[],
  runs: readonly Measured[],
  rules: readonly RuleSpec[],
  width: number,
  indent: number,
): string[] {
  const name = Math.max(...metrics.map((m) => m.length));
  const shown = Math.max(5, Math.min(TREND_RUNS, width - indent - name - 1 - WORDS));
  return metrics.map((metric) =>
    fit(`${metric.padEnd(name)} ${trendText(metric, runs, rules, shown)}`, width - indent),
  );
}
