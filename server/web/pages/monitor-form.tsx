import type { Monitor } from '@pingmon/sdk/wire';
import { api, id } from '../api.js';
import { MonitorForm } from '../components/monitor-form.js';
import { Problem } from '../components/problem.js';
import { nameText } from '../format.js';
import { Link, monitorPath } from '../router.js';
import { usePoll } from '../use-poll.js';

/** /monitors/new: every setting a monitor takes, the schedule checked as it is typed. */
export function NewMonitorPage() {
  return (
    <>
      <p className="crumbs">
        <Link to="/">Monitors</Link>
      </p>
      <h1>New monitor</h1>
      <MonitorForm />
    </>
  );
}

/** /monitors/:monitorId/edit: the form filled in with the monitor as it was when the page opened. */
export function EditMonitorPage({ monitorId }: { monitorId: string }) {
  const monitor = usePoll(`monitor ${monitorId}`, () => api<Monitor>('GET', `monitors/${id(monitorId)}`));
  const m = monitor.data;
  return (
    <>
      <p className="crumbs">
        <Link to="/">Monitors</Link> / {m ? <Link to={monitorPath(m.slug)}>{nameText(m.name)}</Link> : monitorId}
      </p>
      <h1>Edit {m ? nameText(m.name) : 'monitor'}</h1>
      <Problem error={monitor.error} stale={m !== undefined} />
      {/* Keyed by the monitor: a form starts from what it read first, and the refresh leaves what is typed alone. */}
      {m && <MonitorForm key={m.monitorId} saved={m} />}
    </>
  );
}
