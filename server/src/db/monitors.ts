import type { Knex } from 'knex';
import type { Monitor } from '@pingmon/sdk/wire';
import { iso } from '../domain/runs.js';
import type { CursorKey } from './cursor.js';
import type { LatestRuns } from './runs.js';
import { ms } from './index.js';
import type { Sql } from './sql.js';

interface MonitorRow {
  id: string;
  account_id: string;
  name: string;
  created_at: number | string;
  last_opened_at: number | string | null;
}

export interface MonitorRecord extends Omit<Monitor, 'lastRun' | 'recentRuns'> {
  accountId: string;
  createdAtMs: number;
  lastOpenedAt: number | null;
}

function toMonitor(row: MonitorRow): MonitorRecord {
  const createdAtMs = ms(row.created_at);
  return {
    monitorId: row.id,
    name: row.name,
    createdAt: iso(createdAtMs),
    accountId: row.account_id,
    createdAtMs,
    lastOpenedAt: ms(row.last_opened_at),
  };
}

export function publicMonitor(monitor: MonitorRecord, runs: LatestRuns): Monitor {
  return { monitorId: monitor.monitorId, name: monitor.name, createdAt: monitor.createdAt, lastRun: runs.lastRun, recentRuns: runs.recentRuns };
}

export async function insertMonitor(
  knex: Knex,
  monitor: { monitorId: string; accountId: string; name: string; now: number },
): Promise<MonitorRecord> {
  const row = { id: monitor.monitorId, account_id: monitor.accountId, name: monitor.name, created_at: monitor.now, last_opened_at: null };
  await knex('monitors').insert(row);
  return toMonitor(row);
}

export async function findMonitor(sql: Sql, accountId: string, monitorId: string): Promise<MonitorRecord | undefined> {
  const [row] = await sql.rows<MonitorRow>(
    'select id, account_id, name, created_at, last_opened_at from monitors where id = ? and account_id = ?',
    [monitorId, accountId],
  );
  return row && toMonitor(row);
}

export async function renameMonitor(knex: Knex, accountId: string, monitorId: string, name: string): Promise<boolean> {
  const updated = await knex('monitors').where({ id: monitorId, account_id: accountId }).update({ name });
  return updated === 1;
}

/** Deletes a monitor with all its runs and their logs, in one transaction; false when there was none. */
export async function deleteMonitor(knex: Knex, accountId: string, monitorId: string): Promise<boolean> {
  return knex.transaction(async (trx) => {
    // The monitor row goes first: a ping holding it finishes before, and any ping after finds no monitor.
    const deleted = await trx('monitors').where({ id: monitorId, account_id: accountId }).delete();
    if (deleted === 0) return false;
    await trx('run_logs').where({ monitor_id: monitorId }).delete();
    await trx('runs').where({ monitor_id: monitorId, account_id: accountId }).delete();
    return true;
  });
}

/** A page of the account's monitors, newest first, starting after `after`. */
export async function listMonitors(
  knex: Knex,
  accountId: string,
  page: { limit: number; after?: CursorKey },
): Promise<MonitorRecord[]> {
  const query = knex<MonitorRow>('monitors').where({ account_id: accountId });
  if (page.after) {
    const { at, id } = page.after;
    query.andWhere((q) => q.where('created_at', '<', at).orWhere((q2) => q2.where('created_at', '=', at).andWhere('id', '<', id)));
  }
  const rows = await query.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(page.limit);
  return rows.map(toMonitor);
}

/**
 * The monitor's number of alert rules, or undefined when the account has no such monitor: all a ping
 * needs to know. On PostgreSQL the monitor's row stays locked until the ping commits, so a monitor deleted
 * meanwhile is simply not found and rules change only between two pings (both update the row).
 * A ping that may claim a run opening takes the row for update: the pings of one monitor are then decided
 * one at a time on every server (as SQLite's single writer does anyway). Without a rate limit nothing in a
 * ping updates the row, so it is only shared: the pings of one monitor run side by side, and run pairing
 * rests on the runs themselves (open runs locked with skip locked, conditional finishes, inserts that do
 * nothing on a known runId). Two pings sharing the row must never update it: each would wait for the other.
 */
export async function lockMonitor(sql: Sql, accountId: string, monitorId: string, mode: 'update' | 'share'): Promise<number | undefined> {
  const query = sql.dialect === 'postgres' ? `${MONITOR_LOCK} for ${mode}` : MONITOR_LOCK;
  const [row] = await sql.rows<{ rule_count: number | string }>(query, [monitorId, accountId]);
  return row === undefined ? undefined : Number(row.rule_count);
}

const MONITOR_LOCK = 'select rule_count from monitors where id = ? and account_id = ?';

/**
 * Records that the monitor opens a run at `now`, unless it opened one less than `intervalMs` ago.
 * One conditional update, so concurrent pings on any number of servers let exactly one through.
 */
export async function claimRunOpening(sql: Sql, monitorId: string, now: number, intervalMs: number): Promise<boolean> {
  const updated = await sql.changes(
    'update monitors set last_opened_at = ? where id = ? and (last_opened_at is null or last_opened_at <= ?)',
    [now, monitorId, now - intervalMs],
  );
  return updated === 1;
}
