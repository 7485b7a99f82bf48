import type { Rule, Run } from '@pingmon/sdk/wire';
import { metricSeries, ruleVerdicts } from '@pingmon/sdk/wire';
import { nameText, when } from '../format.js';
import { readable } from './scale.js';

/** Successes a trend draws: as many as the duration chart's runs. */
export const TREND_RUNS = 50;

export interface TrendPoint {
  runId: string;
  at: number;
  value: number;
  matched: boolean;
}

/** What a trend chart draws, and says in words. */
export interface TrendData {
  /** The start times of the runs drawn, oldest first, whether they report the metric or not. */
  times: number[];
  /** The runs drawn that report the metric; a run is `null` where it does not (the line breaks there). */
  points: Array<TrendPoint | null>;
  /** Per rule, its threshold at each run drawn; null while it has too few runs before it to judge. */
  thresholds: Array<Array<number | null>>;
  label: string;
}

/** A metric's value in words: a duration as one, a meta value as the number it is. */
export const valueText = (metric: string, value: number) => (metric === 'durationMs' ? readable(value) : String(value));

/** A range in words, "3" or "1.5s to 4s". */
function rangeText(metric: string, values: number[]): string {
  const [low, high] = [Math.min(...values), Math.max(...values)];
  return low === high ? valueText(metric, low) : `${valueText(metric, low)} to ${valueText(metric, high)}`;
}

/**
 * The trend of `metric` over the last TREND_RUNS of `runs` (successes, oldest first), judged by `rules` (on that
 * metric) over all of them: the runs before the drawn ones make a median rule's threshold at the first drawn.
 */
export function trendOf(metric: string, runs: Run[], rules: Rule[]): TrendData {
  const series = metricSeries(runs, metric);
  const from = Math.max(0, runs.length - TREND_RUNS);
  const shown = runs.slice(from);
  const verdicts = rules.map((rule) => ruleVerdicts(rule, series).slice(from));
  const points = shown.map((run, i) => {
    const value = series[from + i];
    const matched = verdicts.some((v) => v[i]!.matched);
    return value === undefined ? null : { runId: run.runId, at: Date.parse(run.startedAt), value, matched };
  });
  const thresholds = verdicts.map((v) => v.map((verdict) => verdict.threshold));
  const reported = points.flatMap((p) => (p ? [p.value] : []));
  const ruleWords = rules.map((rule, r) => {
    const known = thresholds[r]!.filter((t) => t !== null);
    const threshold = known.length === 0 ? 'no threshold yet' : `threshold ${rangeText(metric, known)}`;
    return `; rule ${rule.expression}: ${threshold}, matched ${verdicts[r]!.filter((v) => v.matched).length}`;
  });
  const span = shown.length === 0 ? '' : `, ${when(shown[0]!.startedAt)} to ${when(shown.at(-1)!.startedAt)}`;
  const values =
    reported.length === 0
      ? 'none reported it'
      : `${reported.length} reported it, ${rangeText(metric, reported)}, latest ${valueText(metric, reported.at(-1)!)}`;
  return {
    times: shown.map((run) => Date.parse(run.startedAt)),
    points,
    thresholds,
    label: `${nameText(metric)} of the last ${shown.length} successful runs${span}: ${values}${ruleWords.join('')}`,
  };
}
