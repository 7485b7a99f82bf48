import type { WindowTimes } from '../domain/quiet.js';
import { ms } from './index.js';
import type { Sql } from './sql.js';
import { marks } from './sql.js';

interface WindowRow {
  id: string;
  account_id: string;
  cron: string;
  timezone: string;
  duration_ms: number | string;
  monitor_ids: string | null;
  created_at: number | string;
}

/** A maintenance window as the server holds it; times in epoch milliseconds. */
export interface MaintenanceWindowRecord extends WindowTimes {
  windowId: string;
  accountId: string;
  createdAt: number;
}

const COLUMNS = 'id, account_id, cron, timezone, duration_ms, monitor_ids, created_at';

function toRecord(row: WindowRow): MaintenanceWindowRecord {
  return {
    windowId: row.id,
    accountId: row.account_id,
    cron: row.cron,
    timezone: row.timezone,
    durationMs: Number(row.duration_ms),
    monitorIds: row.monitor_ids === null ? null : (JSON.parse(row.monitor_ids) as string[]),
    createdAt: ms(row.created_at),
  };
}

export async function insertMaintenanceWindow(sql: Sql, window: MaintenanceWindowRecord): Promise<void> {
  await sql.changes(`insert into maintenance_windows (${COLUMNS}) values (${marks(COLUMNS.split(', '))})`, [
    window.windowId,
    window.accountId,
    window.cron,
    window.timezone,
    window.durationMs,
    window.monitorIds === null ? null : JSON.stringify(window.monitorIds),
    window.createdAt,
  ]);
}

/** The account's windows, in the order they were made. */
export function listMaintenanceWindows(sql: Sql, accountId: string): Promise<MaintenanceWindowRecord[]> {
  return listOfAccounts(sql, [accountId]);
}

/** The windows of these accounts (the sweeper's batch, a ping's monitor), in the order they were made. */
export async function listOfAccounts(sql: Sql, accountIds: readonly string[]): Promise<MaintenanceWindowRecord[]> {
  if (accountIds.length === 0) return [];
  const rows = await sql.rows<WindowRow>(
    `select ${COLUMNS} from maintenance_windows where account_id in (${marks(accountIds)}) order by created_at, id`,
    accountIds,
  );
  return rows.map(toRecord);
}

export async function countMaintenanceWindows(sql: Sql, accountId: string): Promise<number> {
  const [row] = await sql.rows<{ n: number | string }>(
    'select count(*) as n from maintenance_windows where account_id = ?',
    [accountId],
  );
  return Number(row?.n ?? 0);
}

/** False when the account has no such window. */
export async function deleteMaintenanceWindow(sql: Sql, accountId: string, windowId: string): Promise<boolean> {
  const deleted = await sql.changes('delete from maintenance_windows where id = ? and account_id = ?', [
    windowId,
    accountId,
  ]);
  return deleted === 1;
}
