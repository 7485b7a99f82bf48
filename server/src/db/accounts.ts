import type { Plan } from '@pingmon/sdk/wire';
import { ms } from './index.js';
import type { Sql, TransactionSql } from './sql.js';

interface AccountRow {
  id: string;
  plan: Plan;
  created_at: number | string;
}

/** An account as the server holds it; `createdAt` in epoch milliseconds. */
export interface AccountRecord {
  accountId: string;
  plan: Plan;
  createdAt: number;
}

export async function insertAccount(sql: Sql, account: AccountRecord): Promise<void> {
  await sql.changes('insert into accounts (id, plan, created_at) values (?, ?, ?)', [
    account.accountId,
    account.plan,
    account.createdAt,
  ]);
}

export async function findAccount(sql: Sql, accountId: string): Promise<AccountRecord | undefined> {
  const [row] = await sql.rows<AccountRow>('select id, plan, created_at from accounts where id = ?', [accountId]);
  return row && { accountId: row.id, plan: row.plan, createdAt: ms(row.created_at) };
}

/**
 * The account's plan, its row held until the transaction ends (PostgreSQL): creations of its monitors take turns,
 * so that their count stays within the plan. `no key update` leaves the key share of inserts referring to it free.
 */
export async function lockAccountPlan(sql: TransactionSql, accountId: string): Promise<Plan | undefined> {
  const [row] = await sql.rows<{ plan: Plan }>(sql.locking('select plan from accounts where id = ?', 'no key update'), [
    accountId,
  ]);
  return row?.plan;
}
