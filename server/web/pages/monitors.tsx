import type { Monitor, MonitorList } from '@pingmon/sdk/wire';
import { ago, MONITOR_STATUSES, until } from '@pingmon/sdk/wire';
import { api, query } from '../api.js';
import { nameText } from '../format.js';
import { RunChart } from '../components/chart.js';
import { NewMonitorLink } from '../components/monitor-actions.js';
import { Problem } from '../components/problem.js';
import { MonitorBadge, RunStatusText } from '../components/status.js';
import { Link, monitorPath, runPath } from '../router.js';
import { usePoll } from '../use-poll.js';

/** Runs per monitor in the chart; pages of monitors read at most (200 each). */
const HISTORY = 20;
const MAX_PAGES = 5;

async function loadMonitors(): Promise<{ monitors: Monitor[]; more: boolean; at: number }> {
  const monitors: Monitor[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const list = await api<MonitorList>('GET', `monitors${query({ limit: 200, history: HISTORY, cursor })}`);
    monitors.push(...list.monitors);
    if (list.nextCursor === null) return { monitors: attentionFirst(monitors), more: false, at: Date.now() };
    cursor = list.nextCursor;
  }
  return { monitors: attentionFirst(monitors), more: true, at: Date.now() };
}

/** Down, late and running first, as the TUI sorts them; then by name. */
function attentionFirst(monitors: Monitor[]): Monitor[] {
  const rank = (m: Monitor) => MONITOR_STATUSES.indexOf(m.status);
  return [...monitors].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}

export function MonitorsPage() {
  const { data, error } = usePoll('monitors', loadMonitors);
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
      {data && data.monitors.length > 0 && (
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
            {data.monitors.map((m) => (
              <MonitorRow key={m.monitorId} monitor={m} now={data.at} />
            ))}
          </tbody>
        </table>
      )}
      {data?.more && <p className="muted">Showing the first {200 * MAX_PAGES} monitors.</p>}
    </>
  );
}

function MonitorRow({ monitor: m, now }: { monitor: Monitor; now: number }) {
  const { runs, failed, silentFailures } = m.recentRuns;
  return (
    <tr>
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
}
