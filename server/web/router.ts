import type { MouseEvent, ReactNode } from 'react';
import { createElement, useEffect, useState } from 'react';
import type { Find } from './find.js';
import { findOf } from './find.js';

/** The dashboard's pages; the path is the whole state of where one is, so a reload or a shared link lands there. */
export type Route =
  | { page: 'monitors'; find: Find }
  | { page: 'new-monitor' }
  | { page: 'edit-monitor'; monitorId: string }
  | { page: 'monitor'; monitorId: string; failedOnly: boolean; fingerprint: string | null }
  | { page: 'run'; monitorId: string; runId: string }
  | { page: 'alerts' }
  | { page: 'channels' }
  | { page: 'keys' }
  | { page: 'audit'; filter: AuditFilter }
  | { page: 'status-page' }
  | { page: 'account' }
  | { page: 'users' }
  | { page: 'invite' }
  | { page: 'cli-sign-in'; request: CliRequest }
  | { page: 'not-found' };

/** What `pingmon login --browser` asks, in the address it has the user open. */
export interface CliRequest {
  port: string | null;
  challenge: string | null;
  state: string | null;
  device: string | null;
}

/** The audit page's filters (GET /audit's own query parameters), as its address holds them. */
export const AUDIT_FILTERS = ['action', 'actor', 'monitor', 'since'] as const;
export type AuditFilter = Partial<Record<(typeof AUDIT_FILTERS)[number], string>>;

function auditFilterOf(search: string): AuditFilter {
  const params = new URLSearchParams(search);
  return Object.fromEntries(AUDIT_FILTERS.flatMap((name) => (params.get(name) ? [[name, params.get(name)!]] : [])));
}

export function routeOf(path: string, search: string): Route {
  let parts: string[];
  try {
    parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return { page: 'not-found' }; // a malformed escape such as %E0%A4
  }
  const [first, monitorId, runs, runId, ...rest] = parts;
  if (parts.length === 0 || (first === 'monitors' && monitorId === undefined))
    return { page: 'monitors', find: findOf(search) };
  // Only "new" as typed: a monitor whose slug is "new" is linked as /monitors/%6Eew (monitorPath).
  if (path === '/monitors/new' || path === '/monitors/new/') return { page: 'new-monitor' };
  if (first === 'monitors' && runs === 'edit' && runId === undefined)
    return { page: 'edit-monitor', monitorId: monitorId! };
  if (first === 'monitors' && runs === undefined) {
    const params = new URLSearchParams(search);
    return {
      page: 'monitor',
      monitorId: monitorId!,
      failedOnly: params.get('status') === 'failed',
      fingerprint: params.get('fingerprint') || null,
    };
  }
  if (first === 'monitors' && runs === 'runs' && runId !== undefined && rest.length === 0)
    return { page: 'run', monitorId: monitorId!, runId };
  if (parts.length === 1 && first === 'audit') return { page: 'audit', filter: auditFilterOf(search) };
  if (parts.length === 1 && first === 'cli-sign-in') {
    const params = new URLSearchParams(search);
    const [port, challenge, state, device] = ['port', 'challenge', 'state', 'device'].map((name) => params.get(name));
    return { page: 'cli-sign-in', request: { port: port!, challenge: challenge!, state: state!, device: device! } };
  }
  const simple = ['alerts', 'channels', 'keys', 'status-page', 'account', 'users', 'invite'] as const;
  if (parts.length === 1 && simple.includes(first as (typeof simple)[number]))
    return { page: first as (typeof simple)[number] };
  return { page: 'not-found' };
}

const CHANGED = 'pingmon:navigate';

/** `replace`: no new entry in the browser's history (a search typed key by key). */
export function navigate(to: string, replace = false): void {
  if (replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  window.dispatchEvent(new Event(CHANGED));
}

/** The current route; changes with links, navigate() and the browser's back and forward. */
export function useRoute(): Route {
  const read = () => routeOf(window.location.pathname, window.location.search);
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const update = () => setRoute(read());
    window.addEventListener('popstate', update);
    window.addEventListener(CHANGED, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(CHANGED, update);
    };
  }, []);
  return route;
}

export function monitorPath(monitorId: string, failedOnly = false): string {
  return `/monitors/${monitorRef(monitorId)}${failedOnly ? '?status=failed' : ''}`;
}

/** The monitor's runs that failed the same way: those with this failure fingerprint (docs/alerts.md). */
export function failurePath(monitorId: string, fingerprint: string): string {
  return `/monitors/${monitorRef(monitorId)}?fingerprint=${encodeURIComponent(fingerprint)}`;
}

/** This page's address with `name` set to `value` (or removed, when null), keeping the rest of its query. */
export function withParam(name: string, value: string | null): string {
  const url = new URL(window.location.href);
  if (value === null) url.searchParams.delete(name);
  else url.searchParams.set(name, value);
  return url.pathname + url.search.replaceAll('%2C', ',');
}

export function editPath(monitorId: string): string {
  return `/monitors/${monitorRef(monitorId)}/edit`;
}

/** The id or slug as a path segment; the slug "new" escaped, since /monitors/new is the page that creates one. */
function monitorRef(monitorId: string): string {
  return monitorId === 'new' ? '%6Eew' : encodeURIComponent(monitorId);
}

export function runPath(monitorId: string, runId: string): string {
  return `/monitors/${monitorRef(monitorId)}/runs/${encodeURIComponent(runId)}`;
}

/** A real link (it opens in a new tab, copies, shows its target), followed without reloading the page. */
export function Link(props: {
  to: string;
  className?: string;
  children: ReactNode;
  label?: string;
  current?: boolean;
}) {
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(props.to);
  };
  return createElement(
    'a',
    {
      href: props.to,
      className: props.className,
      onClick: follow,
      'aria-label': props.label,
      'aria-current': props.current ? 'true' : undefined,
    },
    props.children,
  );
}
