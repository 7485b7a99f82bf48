import { Fragment, useRef } from 'react';
import type { Monitor } from '@pingmon/sdk/wire';
import { MONITOR_STATUSES } from '@pingmon/sdk/wire';
import type { Find, Sort } from '../find.js';
import { findPath, SORTS, statusCounts } from '../find.js';
import { Link, navigate } from '../router.js';
import '../styles/find.css';

/**
 * Above the monitors: how many there are of each status (each a link to them), and search, status filter and sort,
 * all in the address. Typing replaces the address (no history entry per key); choosing a filter or a sort adds one.
 */
export function FindBar({ find, monitors, shown }: { find: Find; monitors: readonly Monitor[]; shown: number }) {
  const go = (change: Partial<Find>, replace = false) => navigate(findPath({ ...find, ...change }), replace);
  const filtered = find.q !== '' || find.status !== undefined;
  const search = useRef<HTMLInputElement>(null);
  return (
    <div className="find">
      <p className="summary">
        <span className="sr-only">{monitors.length} monitors: </span>
        {statusCounts(monitors).map(([status, count], i) => (
          <Fragment key={status}>
            {i > 0 && <span aria-hidden="true"> · </span>}
            <Link
              to={findPath({ ...find, status })}
              className={`count count-${status}`}
              current={find.status === status}
            >
              {count} {status}
            </Link>
          </Fragment>
        ))}
      </p>
      <form role="search" className="find-form" onSubmit={(e) => e.preventDefault()}>
        <label>
          Search
          <input
            ref={search}
            type="search"
            value={find.q}
            placeholder="name or slug"
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => go({ q: e.currentTarget.value }, true)}
          />
        </label>
        <label>
          Status
          <select
            value={find.status ?? ''}
            onChange={(e) => go({ status: MONITOR_STATUSES.find((s) => s === e.currentTarget.value) })}
          >
            <option value="">all</option>
            {MONITOR_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          Sort by
          <select value={find.sort} onChange={(e) => go({ sort: e.currentTarget.value as Sort })}>
            {SORTS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        {filtered && (
          <button
            type="button"
            onClick={() => {
              go({ q: '', status: undefined });
              search.current?.focus(); // the button goes away with the filter
            }}
          >
            Show all
          </button>
        )}
      </form>
      <p className="muted found" role="status">
        {filtered && (shown === 0 ? 'No monitor matches.' : `Showing ${shown} of ${monitors.length} monitors.`)}
      </p>
    </div>
  );
}
