import type { Knex } from 'knex';
import { ms } from './index.js';

export interface LoginAttempts {
  attempts: number;
  windowStartedAt: number;
}

/**
 * Counts one login attempt for `key` and answers the count in the current window, in one statement:
 * concurrent attempts each get their own number, so a burst cannot slip past the limit.
 */
export async function countLoginAttempt(knex: Knex, key: string, now: number, windowMs: number): Promise<LoginAttempts> {
  const expired = now - windowMs;
  // Old windows are forgotten as new attempts come, so the table never grows past one window of attempts.
  await knex('login_attempts').where('window_started_at', '<=', expired).andWhereNot({ key }).delete();
  const [row] = await knex('login_attempts')
    .insert({ key, attempts: 1, window_started_at: now })
    .onConflict('key')
    .merge({
      attempts: knex.raw('case when login_attempts.window_started_at <= ? then 1 else login_attempts.attempts + 1 end', [expired]),
      window_started_at: knex.raw('case when login_attempts.window_started_at <= ? then ? else login_attempts.window_started_at end', [expired, now]),
    })
    .returning(['attempts', 'window_started_at']);
  return { attempts: Number(row.attempts), windowStartedAt: ms(row.window_started_at) };
}

export async function clearLoginAttempts(knex: Knex, key: string): Promise<void> {
  await knex('login_attempts').where({ key }).delete();
}
