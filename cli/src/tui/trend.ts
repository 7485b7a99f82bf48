import type { Run } from '@pingmon/sdk';
import { trendMetrics } from '@pingmon/sdk/wire';
import { trendText } from '../sparkline.js';
import { fit } from '../width.js';
import { clean } from './text.js';

/** Successes a trend of the runs view draws: it shares one line with the other metrics. */
export const VIEW_TREND_RUNS = 20;

/**
 * The runs view's trend line: the duration, then each meta key, of the latest successes loaded (oldest on the left),
 * as many metrics as fit `width`; empty without a success (as in "failed only").
 */
export function runsTrend(runs: readonly Run[], width: number): string {
  const successes = runs
    .filter((run) => run.status === 'success')
    .slice(0, VIEW_TREND_RUNS)
    .reverse();
  if (successes.length === 0) return '';
  const parts = trendMetrics(successes).map(
    (metric) => `${clean(metric)} ${trendText(metric, successes, [], VIEW_TREND_RUNS)}`,
  );
  return fit(`∿ ${parts.join(' · ')}`, width);
}
