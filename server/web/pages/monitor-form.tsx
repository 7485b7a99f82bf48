import type { Monitor } from '@pingmon/sdk/wire';
import { api, id } from '../api.js';
import { Crumbs } from '../components/crumbs.js';
import { MonitorForm } from '../components/monitor-form.js';
import { Problem } from '../components/problem.js';
import { nameText } from '../format.js';
import { monitorPath } from '../router.js';
import { useTitle } from '../title.js';
import { usePoll } from '../use-poll.js';

/** /monitors/new: every setting a monitor takes, the schedule checked as it is typed. */
export function NewMonitorPage() {
  useTitle('New monitor');
  return (
    <>
      <Crumbs trail={[{ to: '/', label: 'Monitors' }]} />
      <h1>New monitor</h1>
      <MonitorForm />
    </>
  );
}

/** /monitors/:monitorId/edit: the form filled in with the monitor as it was when the page opened. */
export function EditMonitorPage({ monitorId }: { monitorId: string }) {
  const monitor = usePoll(`monitor ${monitorId}`, () => api<Monitor>('GET', `monitors/${id(monitorId)}`));
  const m = monitor.data;
  useTitle(`Edit ${m ? nameText(m.name) : monitorId}`);
  return (
    <>
      <Crumbs
        trail={[
          { to: '/', label: 'Monitors' },
          { to: monitorPath(m?.slug ?? monitorId), label: m ? nameText(m.name) : monitorId },
        ]}
      />
      <h1>Edit {m ? nameText(m.name) : 'monitor'}</h1>
      <Problem error={monitor.error} stale={m !== undefined} />
      {/* Keyed by the monitor: a form starts from what it read first, and the refresh leaves what is typed alone. */}
      {m && <MonitorForm key={m.monitorId} saved={m} />}
    </>
  );
}
