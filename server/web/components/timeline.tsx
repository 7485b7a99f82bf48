import { useState } from 'react';
import type { EventKind, MonitorEvent, MonitorEventList } from '@pingmon/sdk/wire';
import { eventLabel } from '@pingmon/sdk/wire';
import { api, id, query } from '../api.js';
import { when } from '../format.js';
import { EventDetail } from './event-detail.js';
import { Pager, usePages } from './pager.js';
import { Problem } from './problem.js';
import { usePoll } from '../use-poll.js';
import '../styles/timeline.css';

const PAGE = 20;

/** The filter's choices: a name and the kinds it shows (the value of `?kind=` in the page's address). */
export const KIND_FILTERS: ReadonlyArray<readonly [string, readonly EventKind[]]> = [
  ['Everything', []],
  ['Runs', ['run_started', 'run_succeeded', 'run_failed']],
  ['Failed runs', ['run_failed']],
  ['Missed slots', ['missed']],
  ['Timeouts', ['timed_out']],
  ['Incidents', ['incident_opened', 'incident_closed']],
  ['Alerts and deliveries', ['alert']],
  ['Snoozes and pauses', ['snoozed', 'paused', 'resumed']],
];

/**
 * The `?kind=` of the address, kept in it as the filter changes. Replaced, not pushed: the filter is a setting of
 * the page, so Back leaves the page, and the rest of the page (its scroll, the focus on the filter) stays put.
 */
function useKindParam(): [string, (kinds: string) => void] {
  const [kinds, setKinds] = useState(() => new URLSearchParams(window.location.search).get('kind') ?? '');
  const change = (next: string) => {
    const url = new URL(window.location.href);
    if (next) url.searchParams.set('kind', next);
    else url.searchParams.delete('kind');
    window.history.replaceState(window.history.state, '', url.pathname + url.search.replaceAll('%2C', ','));
    setKinds(next);
  };
  return [kinds, change];
}

/** What happened to a monitor, newest first, page by page, with a filter by kind. */
export function Timeline({ monitorId }: { monitorId: string }) {
  const [kinds, setKinds] = useKindParam();
  const known = KIND_FILTERS.some(([, k]) => k.join(',') === kinds);
  return (
    <section aria-labelledby="timeline-title">
      <div className="section-head">
        <h2 id="timeline-title">Timeline</h2>
        <label className="check">
          Show
          <select value={kinds} onChange={(e) => setKinds(e.currentTarget.value)}>
            {KIND_FILTERS.map(([name, k]) => (
              <option key={name} value={k.join(',')}>
                {name}
              </option>
            ))}
            {!known && <option value={kinds}>Kinds {kinds}</option>}
          </select>
        </label>
      </div>
      <Events key={kinds} monitorId={monitorId} kinds={kinds} />
    </section>
  );
}

function Events({ monitorId, kinds }: { monitorId: string; kinds: string }) {
  const pages = usePages();
  const search = query({ limit: PAGE, cursor: pages.cursor, kind: kinds || undefined });
  const path = `monitors/${id(monitorId)}/events${search}`;
  const { data, error, loading } = usePoll(path, () => api<MonitorEventList>('GET', path));
  return (
    <>
      <Problem error={error} stale={data !== undefined} />
      {data?.events.length === 0 && <p className="empty">Nothing {kinds ? 'of this kind ' : ''}has happened yet.</p>}
      {data && data.events.length > 0 && (
        <ol className="timeline">
          {data.events.map((event, i) => (
            <EventItem key={`${event.at} ${event.kind} ${i}`} event={event} monitorId={monitorId} />
          ))}
        </ol>
      )}
      <Pager pages={pages} nextCursor={data?.nextCursor} loading={loading} what="events" />
    </>
  );
}

function EventItem({ event, monitorId }: { event: MonitorEvent; monitorId: string }) {
  return (
    <li className={`tl-item tl-${event.kind}`}>
      <span className="tl-dot" aria-hidden="true" />
      <div className="tl-head">
        <span className="tl-kind">{eventLabel(event.kind)}</span> <time dateTime={event.at}>{when(event.at)}</time>
      </div>
      <EventDetail event={event} monitorId={monitorId} />
    </li>
  );
}
