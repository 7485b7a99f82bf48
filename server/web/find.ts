import type { Monitor, MonitorStatus } from '@pingmon/sdk/wire';
import { MONITOR_STATUSES } from '@pingmon/sdk/wire';
import { nameText } from './format.js';

/** How the monitors page orders its rows; the first is the default. */
export const SORTS = [
  ['attention', 'Attention first'],
  ['name', 'Name'],
  ['last-run', 'Last run'],
  ['next', 'Next expected'],
] as const;
export type Sort = (typeof SORTS)[number][0];

/** What the monitors page shows: its query string (`?q=backup&status=down&sort=name`), so a link keeps it. */
export interface Find {
  q: string;
  status: MonitorStatus | undefined;
  sort: Sort;
}

/** The query string read leniently: an unknown status or sort is left out, as if it were not there. */
export function findOf(search: string): Find {
  const params = new URLSearchParams(search);
  const status = MONITOR_STATUSES.find((s) => s === params.get('status'));
  const sort = SORTS.find(([s]) => s === params.get('sort'))?.[0] ?? 'attention';
  return { q: params.get('q') ?? '', status, sort };
}

/** The monitors page's address for `find`, with only what differs from the defaults. */
export function findPath(find: Find): string {
  const params = new URLSearchParams();
  if (find.q) params.set('q', find.q);
  if (find.status) params.set('status', find.status);
  if (find.sort !== 'attention') params.set('sort', find.sort);
  const text = params.toString();
  return text ? `/?${text}` : '/';
}

/** Each status present with its count, in the order of attention ("2 down · 1 late · 38 up"). */
export function statusCounts(monitors: readonly Monitor[]): Array<[MonitorStatus, number]> {
  const counts = new Map<MonitorStatus, number>();
  for (const m of monitors) counts.set(m.status, (counts.get(m.status) ?? 0) + 1);
  return MONITOR_STATUSES.filter((s) => counts.has(s)).map((s) => [s, counts.get(s)!]);
}

const time = (iso: string | null | undefined) => (iso ? Date.parse(iso) : undefined);

/** Newest (or soonest) first, never-run (or unscheduled) last. */
function byTime(a: number | undefined, b: number | undefined, newestFirst: boolean): number {
  if (a === b) return 0;
  if (a === undefined) return 1;
  if (b === undefined) return -1;
  return newestFirst ? b - a : a - b;
}

const ORDER: Readonly<Record<Sort, (a: Monitor, b: Monitor) => number>> = {
  attention: (a, b) => MONITOR_STATUSES.indexOf(a.status) - MONITOR_STATUSES.indexOf(b.status),
  name: () => 0,
  'last-run': (a, b) => byTime(time(a.lastRun?.startedAt), time(b.lastRun?.startedAt), true),
  next: (a, b) => byTime(time(a.nextExpectedAt), time(b.nextExpectedAt), false),
};

/** Whether `m` has the status asked for (if any) and its name or slug holds `q` (any case). */
export function matches(m: Monitor, find: Find): boolean {
  const q = find.q.trim().toLowerCase();
  if (find.status !== undefined && m.status !== find.status) return false;
  return q === '' || m.slug.toLowerCase().includes(q) || nameText(m.name).toLowerCase().includes(q);
}

/** The monitors in the order asked for, then by name. */
export function sortMonitors(monitors: readonly Monitor[], sort: Sort): Monitor[] {
  const order = ORDER[sort];
  return [...monitors].sort((a, b) => order(a, b) || a.name.localeCompare(b.name));
}

/** How many monitors are down: the tab's title and icon say it. */
export function downCount(monitors: readonly Monitor[]): number {
  return monitors.filter((m) => m.status === 'down').length;
}
