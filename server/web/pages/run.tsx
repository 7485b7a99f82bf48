import { useEffect, useState } from 'react';
import type { LogResult, Monitor, Run } from '@pingmon/sdk/wire';
import { clean, exactDuration, formatMatch } from '@pingmon/sdk/wire';
import { api, id } from '../api.js';
import { LogBlock } from '../components/log-block.js';
import { Problem } from '../components/problem.js';
import { RunStatusText } from '../components/status.js';
import { nameText, when } from '../format.js';
import { Link, monitorPath } from '../router.js';
import { usePoll } from '../use-poll.js';

/** The run detail panel (SPEC §6): status, times, meta, matched rules, the error message and below it the log. */
export function RunPage({ monitorId, runId }: { monitorId: string; runId: string }) {
  const runPath = `monitors/${id(monitorId)}/runs/${id(runId)}`;
  const { data: run, error } = usePoll(runPath, () => api<Run>('GET', runPath));
  const monitor = usePoll(`monitor ${monitorId}`, () => api<Monitor>('GET', `monitors/${id(monitorId)}`));
  return (
    <>
      <p className="crumbs">
        <Link to="/">Monitors</Link> /{' '}
        <Link to={monitorPath(monitorId)}>{monitor.data ? nameText(monitor.data.name) : monitorId}</Link> /
      </p>
      <h1>Run {runId}</h1>
      <Problem error={error} stale={run !== undefined} />
      {run && <Detail run={run} />}
    </>
  );
}

function Detail({ run }: { run: Run }) {
  const meta = Object.entries(run.meta ?? {});
  return (
    <article className="run-detail" aria-label="Run detail">
      <dl className="fields">
        <dt>Status</dt>
        <dd>
          <RunStatusText status={run.status} silent={run.silentFailure} />
        </dd>
        <dt>Started</dt>
        <dd>{when(run.startedAt, true)}</dd>
        <dt>Finished</dt>
        <dd>{when(run.finishedAt, true)}</dd>
        <dt>Duration</dt>
        <dd>{exactDuration(run.durationMs)}</dd>
        <dt>Host</dt>
        <dd>{run.host ? clean(run.host) : <span className="muted">not sent</span>}</dd>
        <dt>Meta</dt>
        <dd>
          {meta.length === 0 ? (
            <span className="muted">none</span>
          ) : (
            <ul className="meta">
              {meta.map(([key, value]) => (
                <li key={key}>
                  <code>
                    {clean(key)}={String(value)}
                  </code>
                </li>
              ))}
            </ul>
          )}
        </dd>
        {run.matchedRules.length > 0 && (
          <>
            <dt>Matched rules</dt>
            <dd>
              <ul className="meta">
                {run.matchedRules.map((rule) => (
                  <li key={rule.ruleId}>{clean(formatMatch(rule))}</li>
                ))}
              </ul>
            </dd>
          </>
        )}
      </dl>
      {run.errorMessage !== null && (
        <section className="error-message" aria-label="Error message">
          <h3>Error message</h3>
          <pre>{clean(run.errorMessage)}</pre>
        </section>
      )}
      {run.hasLog && <RunLog run={run} />}
    </article>
  );
}

/** Read once per run, and again only when the run changes (a running run that ends). */
function RunLog({ run }: { run: Run }) {
  const [log, setLog] = useState<LogResult | { failed: string }>();
  const path = `monitors/${id(run.monitorId)}/runs/${id(run.runId)}/log`;
  useEffect(() => {
    let live = true;
    api<LogResult>('GET', path).then(
      (result) => live && setLog(result),
      (err: Error) => live && setLog({ failed: err.message }),
    );
    return () => {
      live = false;
    };
  }, [path, run.finishedAt]);
  if (log === undefined) return <p className="muted">Loading the log…</p>;
  if ('failed' in log) return <p className="error">The log could not be read: {log.failed}</p>;
  return log.content === null ? null : <LogBlock content={log.content} />;
}
