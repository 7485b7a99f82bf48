import type { KeyScope, Plan } from '@pingmon/sdk/wire';
import { ms } from './index.js';
import type { CursorKey } from './cursor.js';
import { startAfter } from './cursor.js';
import type { Sql, SqlParam } from './sql.js';

/**
 * What an API key grants: its account, that account's plan, its scope, whether its pings may make or change
 * monitors, and the monitors it is limited to (null: every monitor of the account).
 */
export interface ApiKeyGrant {
  keyId: string;
  accountId: string;
  plan: Plan;
  scope: KeyScope;
  provision: boolean;
  monitorIds: readonly string[] | null;
}

/** An API key as listed: never its hash. Times are epoch milliseconds. */
export interface ApiKeyRecord {
  keyId: string;
  name: string;
  prefix: string;
  scope: KeyScope;
  provision: boolean;
  monitorIds: readonly string[] | null;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

export async function insertApiKey(
  sql: Sql,
  key: {
    keyId: string;
    accountId: string;
    name: string;
    prefix: string;
    keyHash: string;
    scope: KeyScope;
    provision: boolean;
    monitorIds: readonly string[] | null;
    now: number;
  },
): Promise<void> {
  await sql.changes(
    'insert into api_keys (id, account_id, name, prefix, key_hash, scope, provision, monitor_ids, created_at) ' +
      'values (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      key.keyId,
      key.accountId,
      key.name,
      key.prefix,
      key.keyHash,
      key.scope,
      key.provision,
      key.monitorIds === null ? null : JSON.stringify(key.monitorIds),
      key.now,
    ],
  );
}

const FIND_GRANT =
  'select k.id as key_id, k.account_id, a.plan, k.scope, k.provision, k.monitor_ids ' +
  'from api_keys k join accounts a on a.id = k.account_id where k.key_hash = ? and k.revoked_at is null';

interface GrantRow {
  key_id: string;
  account_id: string;
  plan: Plan;
  scope: KeyScope;
  provision: boolean | number;
  monitor_ids: string | null;
}

/** The grant of an unrevoked key with this hash. */
export async function findApiKeyGrant(sql: Sql, keyHash: string): Promise<ApiKeyGrant | undefined> {
  const [row] = await sql.rows<GrantRow>(FIND_GRANT, [keyHash]);
  if (!row) return undefined;
  const { key_id: keyId, account_id: accountId, plan, scope } = row;
  return { keyId, accountId, plan, scope, provision: Boolean(row.provision), monitorIds: monitorIdsOf(row) };
}

/**
 * Records that the key was used at `now`, unless a use within the last `everyMs` is recorded already: a key used
 * by many processes at once writes its row about once per `everyMs`, whatever its traffic.
 */
export async function touchApiKey(sql: Sql, keyId: string, now: number, everyMs: number): Promise<void> {
  await sql.changes(
    'update api_keys set last_used_at = ? where id = ? and (last_used_at is null or last_used_at <= ?)',
    [now, keyId, now - everyMs],
  );
}

interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  scope: KeyScope;
  provision: boolean | number;
  monitor_ids: string | null;
  created_at: number | string;
  last_used_at: number | string | null;
  revoked_at: number | string | null;
}

const COLUMNS = 'id, name, prefix, scope, provision, monitor_ids, created_at, last_used_at, revoked_at';

function monitorIdsOf(row: { monitor_ids: string | null }): readonly string[] | null {
  return row.monitor_ids === null ? null : (JSON.parse(row.monitor_ids) as string[]);
}

function toRecord(row: ApiKeyRow): ApiKeyRecord {
  const { id: keyId, name, prefix, scope } = row;
  return {
    keyId,
    name,
    prefix,
    scope,
    provision: Boolean(row.provision),
    monitorIds: monitorIdsOf(row),
    createdAt: ms(row.created_at),
    lastUsedAt: ms(row.last_used_at),
    revokedAt: ms(row.revoked_at),
  };
}

/** A page of the account's keys, revoked ones included, newest first, after `after`. */
export async function listApiKeys(
  sql: Sql,
  accountId: string,
  page: { limit: number; after?: CursorKey },
): Promise<ApiKeyRecord[]> {
  const where = ['account_id = ?'];
  const params: SqlParam[] = [accountId];
  if (page.after) {
    const start = startAfter(page.after, 'created_at', 'id');
    where.push(start.sql);
    params.push(...start.params);
  }
  const rows = await sql.rows<ApiKeyRow>(
    `select ${COLUMNS} from api_keys where ${where.join(' and ')} order by created_at desc, id desc limit ?`,
    [...params, page.limit],
  );
  return rows.map(toRecord);
}

export async function findApiKey(sql: Sql, accountId: string, keyId: string): Promise<ApiKeyRecord | undefined> {
  const [row] = await sql.rows<ApiKeyRow>(`select ${COLUMNS} from api_keys where id = ? and account_id = ?`, [
    keyId,
    accountId,
  ]);
  return row && toRecord(row);
}

/** Revokes a key unless it already is; false when the account has no such unrevoked key. */
export async function revokeApiKey(sql: Sql, accountId: string, keyId: string, now: number): Promise<boolean> {
  const updated = await sql.changes(
    'update api_keys set revoked_at = ? where id = ? and account_id = ? and revoked_at is null',
    [now, keyId, accountId],
  );
  return updated === 1;
}
