import type { Knex } from 'knex';
import type { Account, Plan } from '@pingmon/sdk/wire';
import { iso } from '../domain/runs.js';
import { ms } from './index.js';

interface AccountRow {
  id: string;
  plan: Plan;
  created_at: number | string;
}

function toAccount(row: AccountRow): Account {
  return { accountId: row.id, plan: row.plan, createdAt: iso(ms(row.created_at)) };
}

export async function insertAccount(knex: Knex, account: { accountId: string; plan: Plan; now: number }): Promise<void> {
  await knex('accounts').insert({ id: account.accountId, plan: account.plan, created_at: account.now });
}

export async function findAccount(knex: Knex, accountId: string): Promise<Account | undefined> {
  const row = await knex<AccountRow>('accounts').where({ id: accountId }).first();
  return row && toAccount(row);
}
