import { useState } from 'react';
import type { Monitor, RunList } from '@pingmon/sdk/wire';
import { clean, duration, formatDuration } from '@pingmon/sdk/wire';
import { api, id, query } from '../api.js';
import { Crumbs } from '../components/crumbs.js';
import { Durations } from '../components/durations.js';
import { MonitorActions } from '../components/monitor-actions.js';
import { Pager, usePages } from '../components/pager.js';
import { Problem } from '../components/problem.js';
import { Snooze } from '../components/snooze.js';
import { MonitorBadge, RunStatusText } from '../components/status.js';
import { Timeline } from '../components/timeline.js';
import { Trends } from '../components/trends.js';
import { nameText, scheduleText, when } from '../format.js';
import { Link, navigate, runPath, withParam } from '../router.js';
import { useTitle } from '../title.js';
import { usePoll } from '../use-poll.js';
import { Rules } from './rules.js';
import { FailureFilter, SameFailureLink } from '../components/same-failure.js';

const PAGE = 25;

interface Props {
  monitorId: string;
  failedOnly: boolean;
  /** Only the runs that failed with this fingerprint (`?fingerprint=`). */
  fingerprint: string | null;
}

/** A monitor: what it expects, its runs newest first (all, failed or one failure, page by page), its alert rules. */
export function MonitorPage({ monitorId, failedOnly, fingerprint }: Props) {
  const monitor = usePoll(`monitor ${monitorId}`, () => api<Monitor>('GET', `monitors/${id(monitorId)}`));
  const m = monitor.data;
  useTitle(m ? nameText(m.name) : monitorId);
  return (
    <>
      <Crumbs trail={[{ to: '/', label: 'Monitors' }]} />
      <h1>{m ? nameText(m.name) : monitorId}</h1>
      {m && <MonitorActions monitor={m} />}
      <Problem error={monitor.error} stale={m !== undefined} />
      {m && <Summary monitor={m} reload={monitor.reload} />}
      <Durations monitorId={monitorId} />
      <Trends monitorId={monitorId} />
      <section aria-labelledby="runs-title">
        <div className="section-head">
          <h2 id="runs-title">Runs</h2>
          {/* Outside the list, which starts over when it changes: the box keeps the focus. */}
          <label className="check">
            <input
              type="checkbox"
              checked={failedOnly}
              onChange={(e) => navigate(withParam('status', e.currentTarget.checked ? 'failed' : null))}
            />
            Failed only
          </label>
        </div>
        {fingerprint && <FailureFilter fingerprint={fingerprint} />}
        <Runs
          key={`${failedOnly} ${fingerprint}`}
          monitorId={monitorId}
          failedOnly={failedOnly}
          fingerprint={fingerprint}
        />
      </section>
      <Timeline monitorId={monitorId} />
      <Rules monitorId={monitorId} />
    </>
  );
}

function Summary({ monitor: m, reload }: { monitor: Monitor; reload: () => void }) {
  const [error, setError] = useState<string>();
  const toggle = async () => {
    try {
      await api('PATCH', `monitors/${id(m.monitorId)}`, { paused: !m.paused });
      setError(undefined);
      reload();
    } catch (err) {
      setError(String((err as Error).message));
    }
  };
  return (
    <dl className="fields">
      <dt>Slug</dt>
      <dd>
        <code>{m.slug}</code>{' '}
        <span className="muted">
          (pings: /api/v1/ping/{m.slug}/start; id {m.monitorId})
        </span>
      </dd>
      <dt>Status</dt>
      <dd>
        <MonitorBadge status={m.status} />{' '}
        <button type="button" onClick={() => void toggle()}>
          {m.paused ? 'Resume' : 'Pause'}
        </button>
        {error && <span className="error"> {error}</span>}
      </dd>
      <Snooze monitor={m} reload={reload} />
      {m.incident && (
        <>
          <dt>Incident</dt>
          <dd>
            {m.incident.cause} since {when(m.incident.openedAt)}
            {m.incident.failedRuns > 0 && `, ${m.incident.failedRuns} failed run(s)`}
            {m.incident.missedRuns > 0 && `, ${m.incident.missedRuns} missed run(s)`}
          </dd>
        </>
      )}
      <dt>Schedule</dt>
      <dd>
        {scheduleText(m.schedule)}
        {m.schedule && `, start grace ${formatDuration(m.startGrace)}`}
        {m.maxRuntime !== null && `, max runtime ${formatDuration(m.maxRuntime)}`}
      </dd>
      {m.scheduleHint && (
        <>
          <dt>Schedule hint</dt>
          <dd className="notice" role="note">
            {m.scheduleHint.message}
          </dd>
        </>
      )}
      <dt>Fail alerts</dt>
      <dd>{m.failAlerts === 'first' ? 'first failed run of an incident only' : 'every failed run'}</dd>
      <dt>Next expected</dt>
      <dd>{when(m.nextExpectedAt)}</dd>
      <dt>Monitor id</dt>
      <dd>
        <code>{m.monitorId}</code>
      </dd>
    </dl>
  );
}

function Runs({ monitorId, failedOnly, fingerprint }: Props) {
  const pages = usePages();
  const { cursor } = pages;
  const status = failedOnly ? 'failed' : undefined;
  const search = query({ limit: PAGE, cursor, status, fingerprint: fingerprint ?? undefined });
  const path = `monitors/${id(monitorId)}/runs${search}`;
  const { data, error, loading } = usePoll(path, () => api<RunList>('GET', path));
  const none = fingerprint ? 'No runs with this failure.' : failedOnly ? 'No failed runs.' : 'No runs yet.';
  return (
    <>
      <Problem error={error} stale={data !== undefined} />
      {data?.runs.length === 0 && <p className="empty">{none}</p>}
      {data && data.runs.length > 0 && (
        <table className="runs">
          <thead>
            <tr>
              <th scope="col">Status</th>
              <th scope="col">Started</th>
              <th scope="col">Duration</th>
              <th scope="col">Error</th>
              <th scope="col">Failure</th>
            </tr>
          </thead>
          <tbody>
            {data.runs.map((run) => (
              <tr key={run.runId}>
                <td data-label="Status">
                  <Link to={runPath(monitorId, run.runId)} label={`Run ${run.runId}`}>
                    <RunStatusText status={run.status} silent={run.silentFailure} />
                  </Link>
                </td>
                <td data-label="Started">{when(run.startedAt)}</td>
                <td data-label="Duration">{duration(run.durationMs)}</td>
                <td data-label="Error" className="error-cell">
                  {clean(run.errorMessage ?? '').split('\n')[0]}
                </td>
                <td data-label="Failure">
                  {run.fingerprint && run.fingerprint !== fingerprint && (
                    <SameFailureLink
                      monitorId={monitorId}
                      fingerprint={run.fingerprint}
                      label={`same failure as ${run.runId}`}
                    >
                      same failure
                    </SameFailureLink>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager pages={pages} nextCursor={data?.nextCursor} loading={loading} what="runs" />
    </>
  );
}
