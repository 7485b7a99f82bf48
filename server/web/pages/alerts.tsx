import type { Alert, AlertDelivery, AlertList } from '@pingmon/sdk/wire';
import { clean } from '@pingmon/sdk/wire';
import { api, query } from '../api.js';
import { Pager, usePages } from '../components/pager.js';
import { Problem } from '../components/problem.js';
import { nameText, when } from '../format.js';
import { Link, monitorPath, runPath } from '../router.js';
import { usePoll } from '../use-poll.js';
import { useTitle } from '../title.js';

const PAGE = 25;

/** Alerts raised, newest first, with what became of each channel's delivery. */
export function AlertsPage() {
  useTitle('Alerts');
  const pages = usePages();
  const path = `alerts${query({ limit: PAGE, cursor: pages.cursor })}`;
  const { data, error, loading } = usePoll(path, () => api<AlertList>('GET', path));
  return (
    <>
      <h1>Alerts</h1>
      <Problem error={error} stale={data !== undefined} />
      {data?.alerts.length === 0 && <p className="empty">No alerts yet.</p>}
      <ul className="alerts">
        {data?.alerts.map((alert) => (
          <AlertItem key={alert.alertId} alert={alert} />
        ))}
      </ul>
      <Pager pages={pages} nextCursor={data?.nextCursor} loading={loading} what="alerts" />
    </>
  );
}

function AlertItem({ alert }: { alert: Alert }) {
  return (
    <li>
      <div className="alert-head">
        <span className={`event event-${alert.event}`}>{alert.event}</span>{' '}
        <Link to={monitorPath(alert.monitorId)}>{nameText(alert.monitorName)}</Link>
        {alert.runId && (
          <>
            {' · '}
            <Link to={runPath(alert.monitorId, alert.runId)}>run</Link>
          </>
        )}
        <span className="muted"> · {when(alert.createdAt)}</span>
      </div>
      {alert.errorMessage && <p className="alert-message">{clean(alert.errorMessage).split('\n')[0]}</p>}
      {alert.deliveries.length === 0 ? (
        <p className="muted">No channel receives this monitor's alerts.</p>
      ) : (
        <ul className="deliveries">
          {alert.deliveries.map((d) => (
            <li key={d.channelId}>
              {nameText(d.channelName)} <span className="muted">({d.channelType})</span>: <DeliveryState delivery={d} />
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

function DeliveryState({ delivery: d }: { delivery: AlertDelivery }) {
  if (d.state === 'delivered') return <span className="ok">delivered {when(d.deliveredAt)}</span>;
  const attempts = `${d.attemptCount} attempt${d.attemptCount === 1 ? '' : 's'}`;
  if (d.state === 'pending')
    return (
      <span className="pending">
        pending ({attempts}
        {d.nextAttemptAt ? `, next ${when(d.nextAttemptAt)}` : ''})
      </span>
    );
  return (
    <span className="bad">
      failed after {attempts}
      {d.lastError ? `: ${clean(d.lastError)}` : ''}
    </span>
  );
}
