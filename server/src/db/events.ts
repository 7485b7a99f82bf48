import type { StoredEvent, StoredKind } from '../domain/events.js';
import type { CursorKey } from './cursor.js';
import { startAfter } from './cursor.js';
import { ms } from './index.js';
import type { Sql, SqlParam, TransactionSql } from './sql.js';
import { marks } from './sql.js';

/** An event as stored: a monitor's, at a time (epoch ms). */
export type EventRecord = StoredEvent & { eventId: string; accountId: string; monitorId: string; at: number };

interface EventRow {
  id: string;
  account_id: string;
  monitor_id: string;
  kind: StoredKind;
  at: number | string;
  data: string;
}

function toRecord(row: EventRow): EventRecord {
  const fields = JSON.parse(row.data) as Omit<StoredEvent, 'kind'>;
  return {
    ...fields,
    kind: row.kind,
    eventId: row.id,
    accountId: row.account_id,
    monitorId: row.monitor_id,
    at: ms(row.at),
  } as EventRecord;
}

function rowParams(event: EventRecord): SqlParam[] {
  const { eventId, accountId, monitorId, kind, at, ...fields } = event;
  return [eventId, accountId, monitorId, kind, at, JSON.stringify(fields)];
}

/** Appends events, in the transaction of the change they record; one statement whatever their number. */
export async function insertEvents(sql: TransactionSql, events: readonly EventRecord[]): Promise<void> {
  if (events.length === 0) return;
  const row = `(${marks(Array.from({ length: 6 }))})`;
  await sql.changes(
    `insert into events (id, account_id, monitor_id, kind, at, data) values ${events.map(() => row).join(', ')}`,
    events.flatMap(rowParams),
  );
}

/** A page of the monitor's events of `kinds`, newest first (ties: the greater id first), after `after`. */
export async function listEvents(
  sql: Sql,
  accountId: string,
  monitorId: string,
  page: { kinds: readonly StoredKind[]; limit: number; after?: CursorKey },
): Promise<EventRecord[]> {
  if (page.kinds.length === 0) return [];
  const where = ['account_id = ?', 'monitor_id = ?', `kind in (${marks(page.kinds)})`];
  const params: SqlParam[] = [accountId, monitorId, ...page.kinds];
  if (page.after) {
    const start = startAfter(page.after, 'at', 'id');
    where.push(start.sql);
    params.push(...start.params);
  }
  const rows = await sql.rows<EventRow>(
    `select id, account_id, monitor_id, kind, at, data from events where ${where.join(' and ')} ` +
      'order by at desc, id desc limit ?',
    [...params, page.limit],
  );
  return rows.map(toRecord);
}

// Retention (pruner.ts): events go by age as runs do, and past the newest `PINGMON_RETENTION_RUNS` of a monitor.

/** Deletes at most `limit` of the oldest events of any monitor from before `before`; answers how many. */
export async function deleteEventsBefore(sql: Sql, before: number, limit: number): Promise<number> {
  return sql.changes('delete from events where id in (select id from events where at < ? order by at limit ?)', [
    before,
    limit,
  ]);
}

/** The position of the monitor's `n`-th newest event, when it has that many. */
export async function findNthEvent(sql: Sql, monitorId: string, n: number): Promise<CursorKey | undefined> {
  const [row] = await sql.rows<{ at: number | string; id: string }>(
    'select at, id from events where monitor_id = ? order by at desc, id desc limit 1 offset ?',
    [monitorId, n - 1],
  );
  return row && { at: ms(row.at), id: row.id };
}

/** Deletes at most `limit` of the monitor's oldest events listed after `after`; answers how many. */
export async function deleteEventsAfter(sql: Sql, monitorId: string, after: CursorKey, limit: number): Promise<number> {
  const start = startAfter(after, 'at', 'id');
  return sql.changes(
    'delete from events where id in (select id from events ' +
      `where monitor_id = ? and ${start.sql} order by at limit ?)`,
    [monitorId, ...start.params, limit],
  );
}

/** How many missed openings and timeouts a monitor had on one day: `day` counts days from the range's start. */
export interface ProblemDay {
  monitorId: string;
  day: number;
  missed: number;
  timedOut: number;
}

/**
 * The account's `missed` and `timed_out` events of these monitors from `from` to before `to`, counted by monitor
 * and by day of `dayMs` from `from`, in one statement (few: only problems are read). A missed event counts the
 * openings it found but those expected while snoozed or in a maintenance window, which count towards no incident.
 */
export async function countProblemDays(
  sql: Sql,
  accountId: string,
  monitorIds: readonly string[],
  range: { from: number; to: number; dayMs: number },
): Promise<ProblemDay[]> {
  if (monitorIds.length === 0) return [];
  const rows = await sql.rows<{ monitor_id: string; day_index: number | string; kind: StoredKind; data: string }>(
    'select monitor_id, cast((at - ?) / ? as integer) as day_index, kind, data from events ' +
      `where account_id = ? and monitor_id in (${marks(monitorIds)}) and kind in ('missed', 'timed_out') ` +
      'and at >= ? and at < ?',
    [range.from, range.dayMs, accountId, ...monitorIds, range.from, range.to],
  );
  const days = new Map<string, ProblemDay>();
  for (const row of rows) {
    const day = Number(row.day_index);
    const key = `${row.monitor_id} ${day}`;
    const counted = days.get(key) ?? { monitorId: row.monitor_id, day, missed: 0, timedOut: 0 };
    if (row.kind === 'missed') {
      const { count = 1, quietCount = 0 } = JSON.parse(row.data) as { count?: number; quietCount?: number };
      counted.missed += count - quietCount;
    } else counted.timedOut += 1;
    days.set(key, counted);
  }
  return [...days.values()];
}
