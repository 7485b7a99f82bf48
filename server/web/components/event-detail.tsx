import type { AlertDelivery, MonitorEvent } from '@pingmon/sdk/wire';
import { clean, duration, eventDetail, exactDuration, formatDuration, SILENT_MARK } from '@pingmon/sdk/wire';
import { nameText, when } from '../format.js';
import { Link, runPath } from '../router.js';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The run an event is about, as a link named by its id alone (the runs table's links say "Run …"). */
function RunRef({ monitorId, runId }: { monitorId: string; runId: string | null }) {
  if (runId === null) return null;
  return (
    <>
      run <Link to={runPath(monitorId, runId)}>{runId}</Link>
    </>
  );
}

/** What one event of the timeline says besides its kind and time. Texts from the job are shown as text. */
export function EventDetail({ event: e, monitorId }: { event: MonitorEvent; monitorId: string }) {
  switch (e.kind) {
    case 'run_started':
    case 'run_succeeded':
    case 'run_failed':
      return (
        <p className="tl-detail">
          <RunRef monitorId={monitorId} runId={e.runId} />
          {e.kind !== 'run_started' && e.durationMs !== null && `, took ${exactDuration(e.durationMs)}`}
          {e.kind === 'run_started' && e.status !== 'running' && <span className="muted"> (since finished)</span>}
          {e.kind !== 'run_started' && e.silentFailure && (
            <span className="run-silent"> {SILENT_MARK} silent failure: its meta matched alert rules</span>
          )}
          {e.host && <span className="muted"> on {clean(e.host)}</span>}
          {e.kind !== 'run_started' && e.errorMessage && (
            <span className="error tl-error"> {clean(e.errorMessage)}</span>
          )}
        </p>
      );
    case 'missed':
      return (
        <p className="tl-detail">
          A run was expected at {when(e.expectedAt)} and did not start
          {e.count > 1 && ` (${plural(e.count, 'expected run')} in a row)`}
          {e.quietCount > 0 && `; ${e.quietCount} of them while snoozed or in a maintenance window, not counted`}.
        </p>
      );
    case 'timed_out':
      return (
        <p className="tl-detail">
          <RunRef monitorId={monitorId} runId={e.runId} /> was still running after its max runtime of{' '}
          {formatDuration(e.maxRuntime)}, and was finished as failed.
        </p>
      );
    case 'incident_opened':
      return <p className="tl-detail">An incident opened: {eventDetail(e)}.</p>;
    case 'incident_closed':
      return (
        <p className="tl-detail">
          {e.reason === 'recovered' ? 'Recovered' : 'Closed by resuming the monitor'} after{' '}
          {duration(Date.parse(e.at) - Date.parse(e.openedAt))} (opened {when(e.openedAt)}, cause {e.cause}):{' '}
          {plural(e.failedRuns, 'failed run')}, {plural(e.missedRuns, 'missed run')}
          {e.runId && ', by '}
          <RunRef monitorId={monitorId} runId={e.runId} />.
        </p>
      );
    case 'alert':
      return (
        <div className="tl-detail">
          <span className={`event event-${e.event}`}>{e.event}</span> <RunRef monitorId={monitorId} runId={e.runId} />
          {e.errorMessage && <p className="alert-message">{clean(e.errorMessage).split('\n')[0]}</p>}
          <Deliveries deliveries={e.deliveries} />
        </div>
      );
    case 'snoozed':
      return <p className="tl-detail">{e.until ? `Until ${when(e.until)}.` : 'The snooze was ended early.'}</p>;
    case 'paused':
      return <p className="tl-detail">Nothing is expected or alerted until it is resumed.</p>;
    case 'resumed':
      return <p className="tl-detail">Runs are expected again from now on.</p>;
  }
}

function Deliveries({ deliveries }: { deliveries: AlertDelivery[] }) {
  if (deliveries.length === 0) return <p className="muted">No channel receives this monitor's alerts.</p>;
  return (
    <ul className="tl-deliveries" aria-label="Deliveries">
      {deliveries.map((d) => {
        const attempts = plural(d.attemptCount, 'attempt');
        return (
          <li key={d.channelId}>
            {nameText(d.channelName)} <span className="muted">({d.channelType})</span>:{' '}
            {d.state === 'delivered' && (
              <span className="ok">
                delivered {when(d.deliveredAt)}, {attempts}
              </span>
            )}
            {d.state === 'pending' && (
              <span className="pending">
                pending, {attempts} so far{d.nextAttemptAt && `, next ${when(d.nextAttemptAt)}`}
              </span>
            )}
            {d.state === 'failed' && (
              <span className="bad">
                failed after {attempts}
                {d.lastError && `: ${clean(d.lastError)}`}
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
