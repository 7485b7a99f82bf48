import type { Knex } from 'knex';
import type { Plan } from '@pingmon/sdk';

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
