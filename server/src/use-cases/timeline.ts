import type { EventKind, RunStatus } from '@pingmon/sdk/wire';
import type { AlertRecord } from '../db/alerts.js';
import { listAlerts } from '../db/alerts.js';
import type { CursorKey, EventCursorKey } from '../db/cursor.js';
import type { DeliveryRecord } from '../db/deliveries.js';
import { listDeliveries } from '../db/deliveries.js';
import type { EventRecord } from '../db/events.js';
import { listEvents } from '../db/events.js';
import { listRunEnds, listRunStarts } from '../db/runs.js';
import type { Sql } from '../db/sql.js';
import { STORED_KINDS } from '../domain/events.js';
import type { RunRecord } from '../domain/runs.js';

// A monitor's timeline (docs/api.md#events), merged from four sources: run openings and run results (the runs
// table), stored events (the events table) and alerts. Each is read from the cursor on with LIMIT, and merged here.

/** One event of the timeline, with the record it is read from. */
export type TimelineItem = { at: number; id: string } & (
  | { source: 'start' | 'end'; run: RunRecord }
  | { source: 'event'; event: EventRecord }
  | { source: 'alert'; alert: AlertRecord; deliveries: DeliveryRecord[] }
);

/**
 * Newest first; at one millisecond, results come after their run's opening, events after the result that caused
 * them, and alerts last of all (a higher rank comes first); then, within a source, the greater id first.
 */
const RANK: Record<TimelineItem['source'], number> = { start: 0, end: 1, event: 2, alert: 3 };

export interface TimelinePage {
  items: TimelineItem[];
  /** Where the next page starts; null on the last page. */
  next: EventCursorKey | null;
}

/** A page of the monitor's timeline of `kinds`, after `after`. The monitor is the account's (checked before). */
export async function readTimeline(
  sql: Sql,
  accountId: string,
  monitorId: string,
  query: { kinds: readonly EventKind[]; limit: number; after?: EventCursorKey },
): Promise<TimelinePage> {
  const { kinds, after } = query;
  const wants = (kind: EventKind) => kinds.includes(kind);
  // One more than the page from each source: whether anything follows the page.
  const limit = query.limit + 1;
  const from = (source: TimelineItem['source']) => after && startFor(after, RANK[source]);
  const statuses: RunStatus[] = [
    ...(wants('run_succeeded') ? ['success' as const] : []),
    ...(wants('run_failed') ? ['failed' as const] : []),
  ];
  const [starts, ends, events, alerts] = await Promise.all([
    wants('run_started') ? listRunStarts(sql, accountId, monitorId, { limit, after: from('start') }) : [],
    listRunEnds(sql, accountId, monitorId, { statuses, limit, after: from('end') }),
    listEvents(sql, accountId, monitorId, { kinds: STORED_KINDS.filter(wants), limit, after: from('event') }),
    wants('alert') ? listAlerts(sql, accountId, { monitorId, limit, after: from('alert') }) : [],
  ]);
  const deliveries: DeliveryRecord[] = [];
  const merged: TimelineItem[] = [
    ...starts.map((run) => ({ source: 'start' as const, at: run.startedAt, id: run.runId, run })),
    ...ends.map((run) => ({ source: 'end' as const, at: run.finishedAt!, id: run.runId, run })),
    ...events.map((event) => ({ source: 'event' as const, at: event.at, id: event.eventId, event })),
    ...alerts.map((alert) => ({ source: 'alert' as const, at: alert.createdAt, id: alert.alertId, alert, deliveries })),
  ];
  // A stable sort: within one source (same time and rank), the order its query gave.
  merged.sort((a, b) => b.at - a.at || RANK[b.source] - RANK[a.source]);
  const items = merged.slice(0, query.limit);
  const last = items.at(-1);
  const next = merged.length > query.limit && last ? { at: last.at, rank: RANK[last.source], id: last.id } : null;
  return { items: await withDeliveries(sql, items), next };
}

/**
 * Where one source's page starts after the timeline's cursor, as its own list's key: the cursor's own source goes
 * on after its id; at the cursor's time, a source of higher rank was shown before it (none left at that time), one
 * of lower rank comes after it (all of that time left). No id is below '', so `id: ''` takes none of a time.
 */
function startFor(cursor: EventCursorKey, rank: number): CursorKey {
  if (rank === cursor.rank) return { at: cursor.at, id: cursor.id };
  return rank > cursor.rank ? { at: cursor.at, id: '' } : { at: cursor.at + 1, id: '' };
}

/** The page's alerts with their deliveries: a grouped alert's are those of its group's message. */
async function withDeliveries(sql: Sql, items: TimelineItem[]): Promise<TimelineItem[]> {
  const carrier = (alert: AlertRecord) => alert.groupId ?? alert.alertId;
  const alertIds = items.flatMap((item) => (item.source === 'alert' ? [carrier(item.alert)] : []));
  if (alertIds.length === 0) return items;
  const deliveries = await listDeliveries(sql, [...new Set(alertIds)]);
  return items.map((item) =>
    item.source === 'alert' ? { ...item, deliveries: deliveries.get(carrier(item.alert)) ?? [] } : item,
  );
}
