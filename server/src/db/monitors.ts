import type { Knex } from 'knex';
import type { Monitor } from '@pingmon/sdk';
import { iso } from '../domain/runs.js';
import type { CursorKey } from './cursor.js';
import { ms } from './index.js';

interface MonitorRow {
  id: string;
  account_id: string;
  name: string;
  created_at: number | string;
  last_opened_at: number | string | null;
}

export interface MonitorRecord extends Monitor {
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

export function publicMonitor(monitor: MonitorRecord): Monitor {
  return { monitorId: monitor.monitorId, name: monitor.name, createdAt: monitor.createdAt };
}

export async function insertMonitor(
  knex: Knex,
  monitor: { monitorId: string; accountId: string; name: string; now: number },
): Promise<MonitorRecord> {
  const row = { id: monitor.monitorId, account_id: monitor.accountId, name: monitor.name, created_at: monitor.now, last_opened_at: null };
  await knex('monitors').insert(row);
  return toMonitor(row);
}

export async function findMonitor(knex: Knex, accountId: string, monitorId: string): Promise<MonitorRecord | undefined> {
  const row = await knex<MonitorRow>('monitors').where({ id: monitorId, account_id: accountId }).first();
  return row && toMonitor(row);
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
 * Records that the monitor opens a run at `now`, unless it opened one less than `intervalMs` ago.
 * One conditional update, so concurrent pings on any number of servers let exactly one through.
 */
export async function claimRunOpening(knex: Knex, monitorId: string, now: number, intervalMs: number): Promise<boolean> {
  const updated = await knex('monitors')
    .where({ id: monitorId })
    .andWhere((q) => q.whereNull('last_opened_at').orWhere('last_opened_at', '<=', now - intervalMs))
    .update({ last_opened_at: now });
  return updated === 1;
}
