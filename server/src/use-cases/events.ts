import type { EventRecord } from '../db/events.js';
import { insertEvents } from '../db/events.js';
import type { TransactionSql } from '../db/sql.js';
import type { StoredEvent } from '../domain/events.js';
import { newId } from '../ids.js';

/** The monitor's `events`, as stored, happening at `now`: ids made now keep the order they are given in. */
export function eventRecords(
  monitor: { accountId: string; monitorId: string },
  events: readonly StoredEvent[],
  now: number,
): EventRecord[] {
  const { accountId, monitorId } = monitor;
  return events.map((event) => ({ ...event, eventId: newId('evt', now), accountId, monitorId, at: now }));
}

/** Appends the monitor's `events` at `now`, in the transaction of the change that causes them. */
export async function recordEvents(
  sql: TransactionSql,
  monitor: { accountId: string; monitorId: string },
  events: readonly StoredEvent[],
  now: number,
): Promise<void> {
  await insertEvents(sql, eventRecords(monitor, events, now));
}
