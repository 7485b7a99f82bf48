import type { Knex } from 'knex';
import type { User } from '@pingmon/sdk/wire';
import { iso } from '../domain/runs.js';
import { ms } from './index.js';

interface UserRow {
  id: string;
  account_id: string;
  email: string;
  password_hash: string;
  created_at: number | string;
}

export interface UserRecord {
  user: User;
  accountId: string;
  passwordHash: string;
}

function toUser(row: UserRow): UserRecord {
  return {
    user: { userId: row.id, email: row.email, createdAt: iso(ms(row.created_at)) },
    accountId: row.account_id,
    passwordHash: row.password_hash,
  };
}

export async function insertUser(
  knex: Knex,
  user: { userId: string; accountId: string; email: string; passwordHash: string; now: number },
): Promise<void> {
  await knex('users').insert({
    id: user.userId,
    account_id: user.accountId,
    email: user.email,
    password_hash: user.passwordHash,
    created_at: user.now,
  });
}

/** Emails are stored and looked up in lower case. */
export async function findUserByEmail(knex: Knex, email: string): Promise<UserRecord | undefined> {
  const row = await knex<UserRow>('users').where({ email: email.toLowerCase() }).first();
  return row && toUser(row);
}

export async function findUser(knex: Knex, accountId: string, userId: string): Promise<UserRecord | undefined> {
  const row = await knex<UserRow>('users').where({ id: userId, account_id: accountId }).first();
  return row && toUser(row);
}
