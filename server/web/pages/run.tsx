import { useEffect, useState } from 'react';
import type { LogResult, Monitor, RunDetail } from '@pingmon/sdk/wire';
import { ago, clean, exactDuration, failureSeen, formatMatch, redactedText } from '@pingmon/sdk/wire';
import { api, id } from '../api.js';
import { Crumbs } from '../components/crumbs.js';
import { LiveOutput } from '../components/live-output.js';
import { LogBlock } from '../components/log-block.js';
import { Problem } from '../components/problem.js';
import { SameFailureLink } from '../components/same-failure.js';
import { RunStatusText } from '../components/status.js';
import { nameText, when } from '../format.js';
import { monitorPath } from '../router.js';
import { useTitle } from '../title.js';
import { usePoll } from '../use-poll.js';

/** The run detail panel (SPEC §6): status, times, meta, matched rules, the error message and below it the log. */
export function RunPage({ monitorId, runId }: { monitorId: string; runId: string }) {
  const runPath = `monitors/${id(monitorId)}/runs/${id(runId)}`;
  const { data: run, error, reload } = usePoll(runPath, () => api<RunDetail>('GET', runPath));
  const monitor = usePoll(`monitor ${monitorId}`, () => api<Monitor>('GET', `monitors/${id(monitorId)}`));
  const name = monitor.data ? nameText(monitor.data.name) : monitorId;
  useTitle(name, run && `${kind(run).toLowerCase()} ${ago(run.startedAt, Date.now())}`);
  return (
    <>
      <Crumbs
        trail={[
          { to: '/', label: 'Monitors' },
          { to: monitorPath(monitorId), label: name },
        ]}
      />
      <h1>{run ? `${kind(run)}, ${when(run.startedAt)}` : 'Run'}</h1>
      <Problem error={error} stale={run !== undefined} />
      {run && <Detail run={run} fileName={logFileName(monitor.data?.slug ?? monitorId, runId)} ended={reload} />}
    </>
  );
}

/** "nightly-backup-<run id>.txt": the log's download, named after its monitor and run, in safe characters. */
function logFileName(slug: string, runId: string): string {
  return `${slug}-${runId}`.replace(/[^A-Za-z0-9._-]+/g, '-') + '.txt';
}

/** "Failed run", "Silent failure", "Run started" (for the heading and, with "3m ago", the tab's title). */
function kind(run: RunDetail): string {
  if (run.status === 'running') return 'Run started';
  if (run.silentFailure) return 'Silent failure';
  return run.status === 'success' ? 'Successful run' : 'Failed run';
}

/** `ended`: a running run's live output saw it end (the page reads it again, for its log). */
function Detail({ run, fileName, ended }: { run: RunDetail; fileName: string; ended: () => void }) {
  const meta = Object.entries(run.meta ?? {});
  const seen = failureSeen(run.failure, Date.now());
  return (
    <article className="run-detail" aria-label="Run detail">
      <dl className="fields">
        <dt>Status</dt>
        <dd>
          <RunStatusText status={run.status} silent={run.silentFailure} />
        </dd>
        {seen && run.fingerprint && (
          <>
            <dt>Failure</dt>
            <dd>
              {seen} ·{' '}
              <SameFailureLink monitorId={run.monitorId} fingerprint={run.fingerprint}>
                runs with this failure
              </SameFailureLink>
            </dd>
          </>
        )}
        <dt>Started</dt>
        <dd>{when(run.startedAt, true)}</dd>
        <dt>Finished</dt>
        <dd>{when(run.finishedAt, true)}</dd>
        <dt>Duration</dt>
        <dd>{exactDuration(run.durationMs)}</dd>
        <dt>Host</dt>
        <dd>{run.host ? clean(run.host) : <span className="muted">not sent</span>}</dd>
        {run.redactions > 0 && (
          <>
            <dt>Redacted</dt>
            <dd>{redactedText(run.redactions)}</dd>
          </>
        )}
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
        <dt>Run id</dt>
        <dd>
          <code>{run.runId}</code>
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
      {run.status === 'running' && <LiveOutput monitorId={run.monitorId} runId={run.runId} ended={ended} />}
      {run.hasLog && <RunLog run={run} fileName={fileName} />}
    </article>
  );
}

/** Read once per run, and again only when the run changes (a running run that ends). */
function RunLog({ run, fileName }: { run: RunDetail; fileName: string }) {
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
  return log.content === null ? null : <LogBlock content={log.content} fileName={fileName} />;
}
