import type { FormEvent } from 'react';
import { useState } from 'react';
import type { Monitor, MonitorList, StatusPage } from '@pingmon/sdk/wire';
import { api, query } from '../api.js';
import { useAction } from '../components/action.js';
import { Failure, Problem } from '../components/problem.js';
import { nameText } from '../format.js';
import { useTitle } from '../title.js';
import { usePoll } from '../use-poll.js';

/** Every monitor of the account, page after page: the page's owner chooses among all of them. */
async function allMonitors(): Promise<Monitor[]> {
  const monitors: Monitor[] = [];
  let cursor: string | undefined;
  do {
    const page: MonitorList = await api<MonitorList>('GET', `monitors${query({ limit: 200, cursor })}`);
    monitors.push(...page.monitors);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return monitors;
}

/** A badge for a README, linking to the page. */
function markdown(name: string, badge: string, page: string): string {
  return `[![${nameText(name).replace(/[\\[\]]/g, (c) => `\\${c}`)}](${badge})](${page})`;
}

/** The account's public status page (docs/dashboard.md#status-page): its address, title and public monitors. */
export function StatusPageSettings() {
  useTitle('Status page');
  const page = usePoll('status-page', () => api<StatusPage>('GET', 'status-page'));
  const monitors = usePoll('status-page monitors', allMonitors);
  const action = useAction();
  const [saved, setSaved] = useState<string>();
  const current = page.data;

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const chosen = new Set(form.getAll('monitor').map(String));
    // Those already public keep their order on the page; those added go last.
    const before = current?.monitors.map((m) => m.monitorId) ?? [];
    const monitorIds = [...before.filter((id) => chosen.has(id)), ...[...chosen].filter((id) => !before.includes(id))];
    const text = (name: string) => String(form.get(name) ?? '').trim() || null;
    const body = { slug: text('slug'), title: text('title'), monitorIds, showErrorMessages: form.has('showErrors') };
    setSaved(undefined);
    if (await action.run(() => api('PUT', 'status-page', body))) {
      setSaved('Saved.');
      page.reload();
    }
  };

  return (
    <>
      <h1>Status page</h1>
      <p className="muted">
        A public page of the monitors you choose, their status and last 90 days, with a badge for each. Anyone with its
        address can read it, without signing in. Other monitors, logs and (unless chosen) error messages are never shown
        on it.
      </p>
      <Problem error={page.error ?? monitors.error} stale={current !== undefined} />
      {current?.path && (
        <p>
          Public at <a href={current.path}>{window.location.origin + current.path}</a>
        </p>
      )}
      {current && monitors.data && (
        <form
          key={current.updatedAt ?? 'unset'}
          className="monitor-form"
          aria-label="Status page settings"
          onSubmit={(e) => void save(e)}
        >
          <div className="field">
            <label htmlFor="status-slug">Address: /status/…</label>
            <input id="status-slug" name="slug" defaultValue={current.slug ?? ''} maxLength={64} placeholder="acme" />
            <span className="hint muted">a-z, 0-9, - and _. Empty: no page and no badges.</span>
          </div>
          <div className="field">
            <label htmlFor="status-title">Title</label>
            <input id="status-title" name="title" defaultValue={current.title ?? ''} maxLength={200} />
          </div>
          <label className="check">
            <input type="checkbox" name="showErrors" defaultChecked={current.showErrorMessages} />
            Show a down monitor&apos;s last error message
          </label>
          <fieldset className="schedule">
            <legend>Public monitors</legend>
            {monitors.data.length === 0 && <span className="muted">No monitors yet.</span>}
            {monitors.data.map((monitor) => (
              <label key={monitor.monitorId} className="check">
                <input
                  type="checkbox"
                  name="monitor"
                  value={monitor.monitorId}
                  defaultChecked={current.monitors.some((m) => m.monitorId === monitor.monitorId)}
                />
                {nameText(monitor.name)} <code>{monitor.slug}</code>
              </label>
            ))}
          </fieldset>
          <div className="buttons">
            <button type="submit" disabled={action.busy}>
              Save
            </button>
            {saved && <span role="status">{saved}</span>}
          </div>
        </form>
      )}
      <Failure message={action.error} />
      {current?.path && current.monitors.length > 0 && (
        <>
          <h2>Badges</h2>
          <ul className="items">
            {current.monitors.map((m) => (
              <li key={m.monitorId}>
                <img src={m.svgBadgePath!} alt={`${nameText(m.name)} badge`} height={20} />
                <code>
                  {markdown(m.name, window.location.origin + m.svgBadgePath!, window.location.origin + current.path!)}
                </code>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
