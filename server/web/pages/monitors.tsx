import { memo, useEffect, useMemo } from 'react';
import type { Monitor, MonitorList } from '@pingmon/sdk/wire';
import { ago, until } from '@pingmon/sdk/wire';
import { api, query } from '../api.js';
import { nameText } from '../format.js';
import type { Find } from '../find.js';
import { downCount, matches, sortMonitors } from '../find.js';
import { RunChart } from '../components/chart.js';
import { FindBar } from '../components/find-bar.js';
import { NewMonitorLink } from '../components/monitor-actions.js';
import { Problem } from '../components/problem.js';
import { MonitorBadge, RunStatusText } from '../components/status.js';
import { Link, monitorPath, runPath } from '../router.js';
import { setDownCount, useTitle } from '../title.js';
import { usePoll } from '../use-poll.js';

/** Runs per monitor in the chart; pages of monitors read at most (200 each). */
const HISTORY = 20;
const MAX_PAGES = 5;

/** Every monitor (up to 1,000), with `history` runs each; the monitors page and the tab's down count read it. */
export async function loadMonitors(history: number): Promise<{ monitors: Monitor[]; more: boolean; at: number }> {
  const monitors: Monitor[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const list = await api<MonitorList>(
      'GET',
      `monitors${query({ limit: 200, history: history || undefined, cursor })}`,
    );
    monitors.push(...list.monitors);
    if (list.nextCursor === null) return { monitors, more: false, at: Date.now() };
    cursor = list.nextCursor;
  }
  return { monitors, more: true, at: Date.now() };
}

/** Read once per refresh; searching, filtering and sorting work on what was read, as one types. */
export function MonitorsPage({ find }: { find: Find }) {
  const { data, error } = usePoll('monitors', () => loadMonitors(HISTORY));
  const sorted = useMemo(() => data && sortMonitors(data.monitors, find.sort), [data, find.sort]);
  // Rows that do not match are hidden, not removed: clearing a search shows them again without drawing them anew.
  const shown = useMemo(() => new Set(sorted?.filter((m) => matches(m, find)).map((m) => m.monitorId)), [sorted, find]);
  useTitle('Monitors');
  useEffect(() => {
    if (data) setDownCount(downCount(data.monitors));
  }, [data]);
  return (
    <>
      <h1>Monitors</h1>
      <NewMonitorLink />
      <Problem error={error} stale={data !== undefined} />
      {data === undefined && !error && <p className="muted">Loading monitors…</p>}
      {data?.monitors.length === 0 && (
        <p className="empty">
          No monitors yet. Create one with <code>pingmon monitors create NAME</code> and wrap a job in{' '}
          <code>pingmon run</code>.
        </p>
      )}
      {data && sorted && data.monitors.length > 0 && (
        <>
          <FindBar find={find} monitors={data.monitors} shown={shown.size} />
          {shown.size > 0 && (
            <table className="monitors">
              <thead>
                <tr>
                  <th scope="col">Status</th>
                  <th scope="col">Monitor</th>
                  <th scope="col">Last run</th>
                  <th scope="col">Recent failures</th>
                  <th scope="col">Last {HISTORY} runs</th>
                  <th scope="col">Next expected</th>
                </tr>
              </thead>
              <tbody>
                {sorted.map((m) => (
                  <MonitorRow key={m.monitorId} monitor={m} now={data.at} hidden={!shown.has(m.monitorId)} />
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
      {data?.more && <p className="muted">Showing the first {200 * MAX_PAGES} monitors.</p>}
    </>
  );
}

/** Memoized: a keystroke in the search redraws only the rows that are hidden or shown. */
const MonitorRow = memo(function MonitorRow({
  monitor: m,
  now,
  hidden,
}: {
  monitor: Monitor;
  now: number;
  hidden: boolean;
}) {
  const { runs, failed, silentFailures } = m.recentRuns;
  return (
    <tr hidden={hidden}>
      <td data-label="Status">
        <MonitorBadge status={m.status} />
      </td>
      <td data-label="Monitor" className="name">
        <Link to={monitorPath(m.slug)}>{nameText(m.name)}</Link> <span className="muted slug">{m.slug}</span>
      </td>
      <td data-label="Last run">
        {m.lastRun ? (
          <Link to={runPath(m.slug, m.lastRun.runId)}>
            <RunStatusText status={m.lastRun.status} silent={m.lastRun.silentFailure} />{' '}
            <span className="muted">{ago(m.lastRun.startedAt, now)}</span>
          </Link>
        ) : (
          <span className="muted">never</span>
        )}
      </td>
      <td data-label="Recent failures">
        {failed > 0 ? (
          <Link to={monitorPath(m.slug, true)} className="failures">
            {failed} of {runs} failed
          </Link>
        ) : (
          <span className="muted">{runs === 0 ? '—' : `none of ${runs}`}</span>
        )}
        {silentFailures > 0 && <span className="silent-count"> · {silentFailures} silent</span>}
      </td>
      <td data-label={`Last ${HISTORY} runs`}>
        <RunChart history={m.history ?? []} />
      </td>
      <td data-label="Next expected">{until(m.nextExpectedAt, now)}</td>
    </tr>
  );
});
