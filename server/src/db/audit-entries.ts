import type { CursorKey } from './cursor.js';
import { startAfter } from './cursor.js';
import { ms } from './index.js';
import type { Sql, SqlParam } from './sql.js';

/** Who made a change: a signed-in user (named by e-mail) or an API key (named by its prefix). */
export interface AuditActor {
  type: 'user' | 'api_key';
  id: string;
  name: string;
}

/** What a change was made to; `name` as it was then (a monitor's name and slug, a channel's name, a key's name). */
export interface AuditTarget {
  type: string;
  id: string;
  name: string | null;
}

/** A field an edit changed, as shown: secrets masked. */
export interface AuditChange {
  field: string;
  from: unknown;
  to: unknown;
}

/** An entry of an account's audit trail; `at` in epoch milliseconds. */
export interface AuditEntryRecord {
  entryId: string;
  accountId: string;
  at: number;
  actor: AuditActor;
  address: string;
  action: string;
  target: AuditTarget | null;
  monitorId: string | null;
  changes: AuditChange[] | null;
}

interface AuditEntryRow {
  id: string;
  account_id: string;
  at: number | string;
  actor_type: AuditActor['type'];
  actor_id: string;
  actor_name: string;
  address: string;
  action: string;
  target_type: string | null;
  target_id: string | null;
  target_name: string | null;
  monitor_id: string | null;
  changes: string | null;
}

const COLUMNS =
  'id, account_id, at, actor_type, actor_id, actor_name, address, action, target_type, target_id, target_name, ' +
  'monitor_id, changes';

function toRecord(row: AuditEntryRow): AuditEntryRecord {
  return {
    entryId: row.id,
    accountId: row.account_id,
    at: ms(row.at),
    actor: { type: row.actor_type, id: row.actor_id, name: row.actor_name },
    address: row.address,
    action: row.action,
    target:
      row.target_type === null || row.target_id === null
        ? null
        : { type: row.target_type, id: row.target_id, name: row.target_name },
    monitorId: row.monitor_id,
    changes: row.changes === null ? null : (JSON.parse(row.changes) as AuditChange[]),
  };
}

export async function insertAuditEntry(sql: Sql, entry: AuditEntryRecord): Promise<void> {
  const { actor, target } = entry;
  await sql.changes(`insert into audit_entries (${COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
    entry.entryId,
    entry.accountId,
    entry.at,
    actor.type,
    actor.id,
    actor.name.slice(0, 254),
    entry.address.slice(0, 64),
    entry.action,
    target?.type ?? null,
    target?.id ?? null,
    target?.name?.slice(0, 254) ?? null,
    entry.monitorId,
    entry.changes === null ? null : JSON.stringify(entry.changes),
  ]);
}

export interface AuditFilter {
  /** A user id or e-mail, or an API key id or prefix. */
  actor?: string;
  /** An action (`monitor.paused`), or the part before its dot (`monitor`) for all of them. */
  action?: string;
  monitorId?: string;
  since?: number;
}

/** A page of the account's entries, newest first (ties: the greater id first), after `after`. */
export async function listAuditEntries(
  sql: Sql,
  accountId: string,
  filter: AuditFilter,
  page: { limit: number; after?: CursorKey },
): Promise<AuditEntryRecord[]> {
  const where = ['account_id = ?'];
  const params: SqlParam[] = [accountId];
  if (filter.actor !== undefined) {
    where.push('(actor_id = ? or actor_name = ?)');
    params.push(filter.actor, filter.actor);
  }
  if (filter.action !== undefined) {
    where.push("(action = ? or action like ? escape '\\')");
    params.push(filter.action, `${filter.action.replace(/[\\%_]/g, (c) => `\\${c}`)}.%`);
  }
  if (filter.monitorId !== undefined) {
    where.push('monitor_id = ?');
    params.push(filter.monitorId);
  }
  if (filter.since !== undefined) {
    where.push('at >= ?');
    params.push(filter.since);
  }
  if (page.after) {
    const start = startAfter(page.after, 'at', 'id');
    where.push(start.sql);
    params.push(...start.params);
  }
  const rows = await sql.rows<AuditEntryRow>(
    `select ${COLUMNS} from audit_entries where ${where.join(' and ')} order by at desc, id desc limit ?`,
    [...params, page.limit],
  );
  return rows.map(toRecord);
}

/** Retention (pruner.ts): deletes at most `limit` of the oldest entries of any account from before `before`. */
export async function deleteAuditEntriesBefore(sql: Sql, before: number, limit: number): Promise<number> {
  return sql.changes(
    'delete from audit_entries where id in (select id from audit_entries where at < ? order by at limit ?)',
    [before, limit],
  );
}
