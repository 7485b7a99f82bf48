import t from 'tap';
import { formatRule, ruleLookback, ruleVerdicts } from '@pingmon/sdk/wire';
import type { RuleSpec } from '@pingmon/sdk/wire';

// The examples of docs/alerts.md#rules-that-look-back, as the server, the dashboard and the CLI judge them.

const rule = (spec: Partial<RuleSpec> & Pick<RuleSpec, 'metric' | 'op' | 'value'>): RuleSpec => ({
  baseline: null,
  window: null,
  ...spec,
});
const matchedAt = (spec: RuleSpec, series: Array<number | undefined>) =>
  ruleVerdicts(spec, series).flatMap((v, i) => (v.matched ? [i + 1] : []));

t.test('a median: no verdict before minRuns, then value × the median of the runs before', async (t) => {
  const rows = rule({ metric: 'rowsProcessed', op: 'lt', value: 0.5, baseline: { runs: 5, minRuns: 5 } });
  const series = [40_000, 41_000, 200, 39_000, 100, 40_500, 19_000];
  const verdicts = ruleVerdicts(rows, series);
  t.same(
    verdicts.map((v) => v.threshold),
    [null, null, null, null, null, 19_500, 19_500],
  );
  t.same(matchedAt(rows, series), [7], '40,500 does not match, 19,000 does');
  t.equal(verdicts[6]!.baseline, 39_000);
  t.equal(ruleLookback(rows), 5);
  const early = rule({ ...rows, baseline: { runs: 5, minRuns: 2 } });
  t.same(matchedAt(early, [40_000, 41_000, 100]), [3], 'min 2: the third is judged');
  t.same(matchedAt(rows, [40_000, 41_000, 39_000, undefined, 40_000, 100]), [], 'one of the five without the metric');
  t.equal(formatRule(early), 'rowsProcessed < 0.5 × median(5, min 2)');
});

t.test('too slow and too fast', async (t) => {
  const minutes = (...ms: number[]) => ms.map((m) => m * 60_000);
  const slow = rule({ metric: 'durationMs', op: 'gt', value: 3, baseline: { runs: 20, minRuns: 3 } });
  const fast = rule({ metric: 'durationMs', op: 'lt', value: 0.1, baseline: { runs: 20, minRuns: 3 } });
  const series = [...minutes(40, 41, 39, 42, 130), 4_000];
  t.same(matchedAt(slow, series), [5]);
  t.same(matchedAt(fast, series), [6]);
});

t.test('windows: for N runs, K of the last N, the run judged among them', async (t) => {
  const row = rule({ metric: 'errors', op: 'gt', value: 0, window: { runs: 3, atLeast: 3 } });
  t.same(matchedAt(row, [1, 2, 1, 5, 0, 1]), [3, 4]);
  t.equal(ruleLookback(row), 2);
  const some = rule({ metric: 'skipped', op: 'gte', value: 10, window: { runs: 4, atLeast: 2 } });
  t.same(matchedAt(some, [12, 0, 0, 0, 11, 10]), [6]);
  t.same(matchedAt(some, [12, 11, 0]), [2], 'a good run never matches, whatever came before');
  const both = rule({
    ...{ metric: 'rows', op: 'lt', value: 0.5 },
    ...{ baseline: { runs: 4, minRuns: 4 }, window: { runs: 2, atLeast: 2 } },
  });
  t.same(matchedAt(both, [100, 110, 90, 105, 20, 100, 95, 30, 25, 102]), [9]);
  t.equal(ruleLookback(both), 5, 'the window reaches one run further back, with its own four');
});
