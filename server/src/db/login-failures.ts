import type { Knex } from 'knex';
import { ms } from './index.js';

export interface LoginFailures {
  failures: number;
  firstFailedAt: number;
}

export async function findLoginFailures(knex: Knex, email: string): Promise<LoginFailures | undefined> {
  const row = await knex('login_failures').where({ email }).first();
  return row && { failures: Number(row.failures), firstFailedAt: ms(row.first_failed_at) };
}

/** Counts one failed login; a failure after the window has passed starts a new window. */
export async function recordLoginFailure(knex: Knex, email: string, now: number, windowMs: number): Promise<void> {
  await knex('login_failures')
    .insert({ email, failures: 1, first_failed_at: now })
    .onConflict('email')
    .merge({
      failures: knex.raw('case when login_failures.first_failed_at <= ? then 1 else login_failures.failures + 1 end', [now - windowMs]),
      first_failed_at: knex.raw('case when login_failures.first_failed_at <= ? then ? else login_failures.first_failed_at end', [now - windowMs, now]),
    });
}

export async function clearLoginFailures(knex: Knex, email: string): Promise<void> {
  await knex('login_failures').where({ email }).delete();
}
