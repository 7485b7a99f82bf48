import type { CursorKey } from './cursor.js';
import { startAfter } from './cursor.js';
import { ms } from './index.js';
import type { Sql, SqlParam, TransactionSql } from './sql.js';

interface MonitorRow {
  id: string;
  account_id: string;
  name: string;
  created_at: number | string;
  last_opened_at: number | string | null;
}

/** A monitor as the server holds it; times are epoch milliseconds. */
export interface MonitorRecord {
  monitorId: string;
  accountId: string;
  name: string;
  createdAt: number;
  lastOpenedAt: number | null;
}

const COLUMNS = 'id, account_id, name, created_at, last_opened_at';

function toRecord(row: MonitorRow): MonitorRecord {
  return {
    monitorId: row.id,
    accountId: row.account_id,
    name: row.name,
    createdAt: ms(row.created_at),
    lastOpenedAt: ms(row.last_opened_at),
  };
}

export async function insertMonitor(sql: Sql, monitor: Omit<MonitorRecord, 'lastOpenedAt'>): Promise<MonitorRecord> {
  await sql.changes('insert into monitors (id, account_id, name, created_at, last_opened_at) values (?, ?, ?, ?, ?)', [
    monitor.monitorId,
    monitor.accountId,
    monitor.name,
    monitor.createdAt,
    null,
  ]);
  return { ...monitor, lastOpenedAt: null };
}

export async function findMonitor(sql: Sql, accountId: string, monitorId: string): Promise<MonitorRecord | undefined> {
  const [row] = await sql.rows<MonitorRow>(`select ${COLUMNS} from monitors where id = ? and account_id = ?`, [
    monitorId,
    accountId,
  ]);
  return row && toRecord(row);
}

export async function renameMonitor(sql: Sql, accountId: string, monitorId: string, name: string): Promise<boolean> {
  const updated = await sql.changes('update monitors set name = ? where id = ? and account_id = ?', [
    name,
    monitorId,
    accountId,
  ]);
  return updated === 1;
}

/**
 * Deletes a monitor; ON DELETE CASCADE takes its runs, logs, rules, alerts and channel links with it, in
 * the same statement. False when there was none. A ping holding the monitor's row finishes first, and any
 * ping after finds no monitor.
 */
export async function deleteMonitor(sql: Sql, accountId: string, monitorId: string): Promise<boolean> {
  return (await sql.changes('delete from monitors where id = ? and account_id = ?', [monitorId, accountId])) === 1;
}

/** A page of the account's monitors, newest first, starting after `after`. */
export async function listMonitors(
  sql: Sql,
  accountId: string,
  page: { limit: number; after?: CursorKey },
): Promise<MonitorRecord[]> {
  const where = ['account_id = ?'];
  const params: SqlParam[] = [accountId];
  if (page.after) {
    const start = startAfter(page.after, 'created_at', 'id');
    where.push(start.sql);
    params.push(...start.params);
  }
  const rows = await sql.rows<MonitorRow>(
    `select ${COLUMNS} from monitors where ${where.join(' and ')} order by created_at desc, id desc limit ?`,
    [...params, page.limit],
  );
  return rows.map(toRecord);
}

/** What a ping needs of its monitor. */
export interface MonitorLock {
  /** The monitor's number of alert rules: a success of a monitor without rules reads none. */
  ruleCount: number;
  lastOpenedAt: number | null;
}

/**
 * What a ping needs of the monitor, or undefined when the account has no such monitor. On PostgreSQL the
 * monitor's row stays locked until the ping commits, so a monitor deleted meanwhile is simply not found and
 * rules change only between two pings (both update the row).
 * A ping that may claim a run opening takes the row for update: the pings of one monitor are then decided
 * one at a time on every server (as SQLite's single writer does anyway), and `lastOpenedAt` stays as read
 * until the ping commits. Without a rate limit nothing in a ping updates the row, so it is only shared: the
 * pings of one monitor run side by side, and run pairing rests on the runs themselves (open runs locked with
 * skip locked, conditional finishes, inserts that do nothing on a known runId). Two pings sharing the row
 * must never update it: each would wait for the other.
 */
export async function lockMonitor(
  sql: TransactionSql,
  accountId: string,
  monitorId: string,
  mode: 'update' | 'share',
): Promise<MonitorLock | undefined> {
  const query = sql.dialect === 'postgres' ? `${MONITOR_LOCK} for ${mode}` : MONITOR_LOCK;
  const [row] = await sql.rows<MonitorLockRow>(query, [monitorId, accountId]);
  return row === undefined ? undefined : { ruleCount: Number(row.rule_count), lastOpenedAt: ms(row.last_opened_at) };
}

interface MonitorLockRow {
  rule_count: number | string;
  last_opened_at: number | string | null;
}

const MONITOR_LOCK = 'select rule_count, last_opened_at from monitors where id = ? and account_id = ?';

/**
 * Records that the monitor opens a run at `now`, unless it opened one less than `intervalMs` ago.
 * One conditional update, so concurrent pings on any number of servers let exactly one through.
 */
export async function claimRunOpening(
  sql: TransactionSql,
  monitorId: string,
  now: number,
  intervalMs: number,
): Promise<boolean> {
  const updated = await sql.changes(
    'update monitors set last_opened_at = ? where id = ? and (last_opened_at is null or last_opened_at <= ?)',
    [now, monitorId, now - intervalMs],
  );
  return updated === 1;
}
