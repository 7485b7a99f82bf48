import type { MonitorEventList, RunList } from '@pingmon/sdk/wire';
import { api, id, query } from '../api.js';
import { usePoll } from '../use-poll.js';
import { DurationChart } from './duration-chart.js';
import { Problem } from './problem.js';

/** Runs the chart draws: enough to see a trend, few enough for each to be told apart at 375 px. */
export const CHART_RUNS = 50;

/** The duration chart of a monitor's last runs, with the missed slots among them (from its timeline). */
export function Durations({ monitorId }: { monitorId: string }) {
  const runsPath = `monitors/${id(monitorId)}/runs${query({ limit: CHART_RUNS })}`;
  const runs = usePoll(runsPath, () => api<RunList>('GET', runsPath));
  const missedPath = `monitors/${id(monitorId)}/events${query({ kind: 'missed', limit: CHART_RUNS })}`;
  const missed = usePoll(missedPath, () => api<MonitorEventList>('GET', missedPath));
  const list = runs.data?.runs ?? [];
  // Slots older than the oldest run drawn would stretch the time axis past the runs (unless every run is drawn).
  const oldest = list.length === CHART_RUNS ? Date.parse(list.at(-1)!.startedAt) : -Infinity;
  const slots = (missed.data?.events ?? [])
    .flatMap((e) => (e.kind === 'missed' ? [Date.parse(e.expectedAt)] : []))
    .filter((at) => at >= oldest);
  return (
    <section aria-labelledby="durations-title">
      <h2 id="durations-title">Durations</h2>
      <Problem error={runs.error ?? missed.error} stale={runs.data !== undefined} />
      {runs.data && <DurationChart monitorId={monitorId} runs={list} missed={slots} />}
    </section>
  );
}
