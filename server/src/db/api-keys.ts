import type { Plan } from '@pingmon/sdk/wire';
import { ms } from './index.js';
import type { CursorKey } from './cursor.js';
import { startAfter } from './cursor.js';
import type { Sql, SqlParam } from './sql.js';

/** What an API key grants: its account, that account's plan, and whether its pings may make or change monitors. */
export interface ApiKeyGrant {
  keyId: string;
  accountId: string;
  plan: Plan;
  provision: boolean;
}

/** An API key as listed: never its hash. Times are epoch milliseconds. */
export interface ApiKeyRecord {
  keyId: string;
  name: string;
  prefix: string;
  provision: boolean;
  createdAt: number;
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
    provision: boolean;
    now: number;
  },
): Promise<void> {
  await sql.changes(
    'insert into api_keys (id, account_id, name, prefix, key_hash, provision, created_at) values (?, ?, ?, ?, ?, ?, ?)',
    [key.keyId, key.accountId, key.name, key.prefix, key.keyHash, key.provision, key.now],
  );
}

const FIND_GRANT =
  'select k.id as key_id, k.account_id, a.plan, k.provision from api_keys k join accounts a on a.id = k.account_id ' +
  'where k.key_hash = ? and k.revoked_at is null';

/** The grant of an unrevoked key with this hash. */
export async function findApiKeyGrant(sql: Sql, keyHash: string): Promise<ApiKeyGrant | undefined> {
  const [row] = await sql.rows<{ key_id: string; account_id: string; plan: Plan; provision: boolean | number }>(
    FIND_GRANT,
    [keyHash],
  );
  return row && { keyId: row.key_id, accountId: row.account_id, plan: row.plan, provision: Boolean(row.provision) };
}

interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  provision: boolean | number;
  created_at: number | string;
  revoked_at: number | string | null;
}

const COLUMNS = 'id, name, prefix, provision, created_at, revoked_at';

function toRecord(row: ApiKeyRow): ApiKeyRecord {
  const { id: keyId, name, prefix } = row;
  const provision = Boolean(row.provision);
  return { keyId, name, prefix, provision, createdAt: ms(row.created_at), revokedAt: ms(row.revoked_at) };
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
