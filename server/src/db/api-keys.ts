import type { Knex } from 'knex';
import type { ApiKey, Plan } from '@pingmon/sdk/wire';
import { iso } from '../domain/runs.js';
import { ms } from './index.js';

/** What an API key grants: its account, and that account's plan. */
export interface ApiKeyGrant {
  keyId: string;
  accountId: string;
  plan: Plan;
}

export async function insertApiKey(
  knex: Knex,
  key: { keyId: string; accountId: string; name: string; prefix: string; keyHash: string; now: number },
): Promise<void> {
  await knex('api_keys').insert({
    id: key.keyId,
    account_id: key.accountId,
    name: key.name,
    prefix: key.prefix,
    key_hash: key.keyHash,
    created_at: key.now,
  });
}

/** The grant of an unrevoked key with this hash. */
export async function findApiKeyGrant(knex: Knex, keyHash: string): Promise<ApiKeyGrant | undefined> {
  const row = await knex('api_keys')
    .join('accounts', 'accounts.id', 'api_keys.account_id')
    .where({ 'api_keys.key_hash': keyHash })
    .whereNull('api_keys.revoked_at')
    .first('api_keys.id as key_id', 'api_keys.account_id', 'accounts.plan');
  return row && { keyId: row.key_id, accountId: row.account_id, plan: row.plan };
}

interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  created_at: number | string;
  revoked_at: number | string | null;
}

function toApiKey(row: ApiKeyRow): ApiKey {
  const revokedAt = ms(row.revoked_at);
  return { keyId: row.id, name: row.name, prefix: row.prefix, createdAt: iso(ms(row.created_at)), revokedAt: revokedAt === null ? null : iso(revokedAt) };
}

/** Every key of the account, newest first, revoked ones included. */
export async function listApiKeys(knex: Knex, accountId: string): Promise<ApiKey[]> {
  const rows: ApiKeyRow[] = await knex('api_keys')
    .where({ account_id: accountId })
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
    .select('id', 'name', 'prefix', 'created_at', 'revoked_at');
  return rows.map(toApiKey);
}

export async function findApiKey(knex: Knex, accountId: string, keyId: string): Promise<ApiKey | undefined> {
  const row: ApiKeyRow | undefined = await knex('api_keys').where({ id: keyId, account_id: accountId }).first('id', 'name', 'prefix', 'created_at', 'revoked_at');
  return row && toApiKey(row);
}

/** Revokes a key unless it already is; false when the account has no such unrevoked key. */
export async function revokeApiKey(knex: Knex, accountId: string, keyId: string, now: number): Promise<boolean> {
  const updated = await knex('api_keys').where({ id: keyId, account_id: accountId }).whereNull('revoked_at').update({ revoked_at: now });
  return updated === 1;
}
