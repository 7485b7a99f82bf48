import type { FormEvent } from 'react';
import type { AuditEntry, AuditEntryList } from '@pingmon/sdk/wire';
import { api, query } from '../api.js';
import { Pager, usePages } from '../components/pager.js';
import { Problem } from '../components/problem.js';
import { nameText, when } from '../format.js';
import type { AuditFilter } from '../router.js';
import { AUDIT_FILTERS, navigate } from '../router.js';
import { usePoll } from '../use-poll.js';
import { useTitle } from '../title.js';

const PAGE = 50;

const LABELS: Record<keyof AuditFilter, { label: string; placeholder: string }> = {
  action: { label: 'Action', placeholder: 'monitor.paused, or monitor' },
  actor: { label: 'Who', placeholder: 'e-mail or key prefix' },
  monitor: { label: 'Monitor', placeholder: 'id or slug' },
  since: { label: 'Since', placeholder: '2026-12-01' },
};

/** The account's audit trail, newest first; the filters live in the address, so a filtered view can be shared. */
export function AuditPage({ filter }: { filter: AuditFilter }) {
  useTitle('Audit');
  const pages = usePages();
  const path = `audit${query({ limit: PAGE, cursor: pages.cursor, ...filter })}`;
  const { data, error, loading } = usePoll(path, () => api<AuditEntryList>('GET', path));
  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const given = AUDIT_FILTERS.map((name) => [name, String(form.get(name) ?? '').trim()] as const);
    navigate(`/audit${query(Object.fromEntries(given.filter(([, value]) => value !== '')))}`);
  };
  return (
    <>
      <h1>Audit</h1>
      <form className="inline" onSubmit={apply} aria-label="Filter the audit trail">
        {AUDIT_FILTERS.map((name) => (
          <label key={name}>
            {LABELS[name].label}
            <input name={name} defaultValue={filter[name]} placeholder={LABELS[name].placeholder} />
          </label>
        ))}
        <button type="submit">Filter</button>
      </form>
      <Problem error={error} stale={data !== undefined} />
      {data?.entries.length === 0 && <p className="empty">No audit entries match.</p>}
      {data && data.entries.length > 0 && (
        <table className="audit">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">From</th>
              <th scope="col">Action</th>
              <th scope="col">Target</th>
              <th scope="col">Changes</th>
            </tr>
          </thead>
          <tbody>
            {data.entries.map((entry) => (
              <AuditRow key={entry.entryId} entry={entry} />
            ))}
          </tbody>
        </table>
      )}
      <Pager pages={pages} nextCursor={data?.nextCursor} loading={loading} what="audit entries" />
    </>
  );
}

function AuditRow({ entry }: { entry: AuditEntry }) {
  const { target } = entry;
  return (
    <tr>
      <td>{when(entry.at)}</td>
      <td>
        {nameText(entry.actor.name)}
        {entry.actor.type === 'api_key' && <span className="muted"> (API key)</span>}
      </td>
      <td>{entry.address}</td>
      <td>
        <code>{entry.action}</code>
      </td>
      <td>{target && (target.name === null ? target.id : nameText(target.name))}</td>
      <td>{changeText(entry)}</td>
    </tr>
  );
}

/** "paused: false → true; name: a → b" */
function changeText(entry: AuditEntry): string {
  const shown = (value: unknown) => (typeof value === 'string' ? nameText(value) : JSON.stringify(value));
  return (entry.changes ?? []).map((c) => `${c.field}: ${shown(c.from)} → ${shown(c.to)}`).join('; ');
}
