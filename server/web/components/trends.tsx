import { useState } from 'react';
import type { Rule, RuleList, RunList } from '@pingmon/sdk/wire';
import { ruleLookback, trendMetrics } from '@pingmon/sdk/wire';
import { api, id, query } from '../api.js';
import { nameText } from '../format.js';
import { usePoll } from '../use-poll.js';
import { Problem } from './problem.js';
import { TrendChart } from './trend-chart.js';
import { TREND_RUNS } from './trend-data.js';

/** A metric of a monitor's latest successes over time, against the thresholds of its rules on that metric. */
export function Trends({ monitorId }: { monitorId: string }) {
  const path = `monitors/${id(monitorId)}/rules`;
  const rules = usePoll(path, () => api<RuleList>('GET', path));
  return (
    <section aria-labelledby="trends-title">
      <Problem error={rules.error} stale={rules.data !== undefined} />
      {/* The rules first: how many runs to read depends on how far they look back. */}
      {rules.data ? <Trend monitorId={monitorId} rules={rules.data.rules} /> : <h2 id="trends-title">Trend</h2>}
    </section>
  );
}

/** The chart and its choice of metric: the duration or any meta key the runs report, the rules' metrics first. */
function Trend({ monitorId, rules }: { monitorId: string; rules: Rule[] }) {
  // The runs a median rule reads before the drawn ones make its threshold at the first of them.
  const limit = Math.min(200, TREND_RUNS + Math.max(0, ...rules.map(ruleLookback)));
  const path = `monitors/${id(monitorId)}/runs${query({ status: 'success', limit })}`;
  const runs = usePoll(path, () => api<RunList>('GET', path));
  const [chosen, setChosen] = useState<string>();
  const oldestFirst = [...(runs.data?.runs ?? [])].reverse();
  const metrics = [...new Set([...rules.map((r) => r.metric), ...trendMetrics(oldestFirst)])];
  const metric = chosen ?? metrics[0]!;
  return (
    <>
      <div className="section-head">
        <h2 id="trends-title">Trend</h2>
        <label className="check">
          Trend of{' '}
          <select value={metric} onChange={(e) => setChosen(e.currentTarget.value)}>
            {metrics.map((m) => (
              <option key={m} value={m}>
                {nameText(m)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <Problem error={runs.error} stale={runs.data !== undefined} />
      {runs.data?.runs.length === 0 && <p className="empty">No successful runs yet.</p>}
      {runs.data && runs.data.runs.length > 0 && (
        <TrendChart metric={metric} runs={oldestFirst} rules={rules.filter((r) => r.metric === metric)} />
      )}
    </>
  );
}
