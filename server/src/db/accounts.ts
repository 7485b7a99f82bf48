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

/** The account's slug: its name in the public addresses of its status page and badges; null when it has none. */
export async function findAccountSlug(sql: Sql, accountId: string): Promise<string | null> {
  const [row] = await sql.rows<{ slug: string | null }>('select slug from accounts where id = ?', [accountId]);
  return row?.slug ?? null;
}

/** The account of slug `slug`, if any. */
export async function findAccountIdBySlug(sql: Sql, slug: string): Promise<string | undefined> {
  const [row] = await sql.rows<{ id: string }>('select id from accounts where slug = ?', [slug]);
  return row?.id;
}

/** Sets the account's slug (null: none). Another account's slug is a unique violation (isUniqueViolation). */
export async function setAccountSlug(sql: TransactionSql, accountId: string, slug: string | null): Promise<void> {
  await sql.changes('update accounts set slug = ? where id = ?', [slug, accountId]);
}

/** The account of this id; without one, the server's account when it has exactly one. */
export async function findProviderAccount(sql: Sql, accountId: string | undefined): Promise<string | undefined> {
  const rows =
    accountId === undefined
      ? await sql.rows<{ id: string }>('select id from accounts limit 2', [])
      : await sql.rows<{ id: string }>('select id from accounts where id = ?', [accountId]);
  return rows.length === 1 ? rows[0]!.id : undefined;
}
