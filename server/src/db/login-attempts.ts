import { ms } from './index.js';
import type { Sql } from './sql.js';

export interface LoginAttempts {
  attempts: number;
  windowStartedAt: number;
}

const COUNT_ATTEMPT = `insert into login_attempts (key, attempts, window_started_at) values (?, 1, ?)
  on conflict (key) do update set
    attempts = case when login_attempts.window_started_at <= ? then 1 else login_attempts.attempts + 1 end,
    window_started_at = case when login_attempts.window_started_at <= ? then ? else login_attempts.window_started_at end
  returning attempts, window_started_at`;

/**
 * Counts one login attempt for `key` and answers the count in the current window, in one statement:
 * concurrent attempts each get their own number, so a burst cannot slip past the limit.
 */
export async function countLoginAttempt(sql: Sql, key: string, now: number, windowMs: number): Promise<LoginAttempts> {
  const expired = now - windowMs;
  // Old windows are forgotten as new attempts come, so the table never grows past one window of attempts.
  await sql.changes('delete from login_attempts where window_started_at <= ? and key <> ?', [expired, key]);
  const [row] = await sql.rows<{ attempts: number | string; window_started_at: number | string }>(COUNT_ATTEMPT, [
    key,
    now,
    expired,
    expired,
    now,
  ]);
  return { attempts: Number(row!.attempts), windowStartedAt: ms(row!.window_started_at) };
}

export async function clearLoginAttempts(sql: Sql, key: string): Promise<void> {
  await sql.changes('delete from login_attempts where key = ?', [key]);
}
