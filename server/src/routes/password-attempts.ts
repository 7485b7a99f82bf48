import { createHash } from 'node:crypto';
import { clearLoginAttempts, countLoginAttempt } from '../db/login-attempts.js';
import { apiError, waitFor } from '../errors.js';
import type { RouteContext } from './context.js';

/** Attempts one email may make from one address per window; a right password resets the count. */
const MAX_ATTEMPTS = 5;
const WINDOW_MS = 15 * 60_000;

/**
 * Counts one password check of `email` from `address` (a login, or the current password of a change), and refuses
 * it with 429 past the limit. Counted before the password is checked, so parallel guesses are counted too; one
 * count for both routes, so a stolen token cannot guess the password by the change where login would throttle.
 * Answers the key that `passwordAccepted` clears.
 */
export async function countPasswordAttempt(
  ctx: RouteContext,
  email: string,
  address: string,
  now: number,
): Promise<string> {
  const key = createHash('sha256').update(`${email.toLowerCase()} ${address}`).digest('hex');
  const attempt = await countLoginAttempt(ctx.db.sql, key, now, WINDOW_MS);
  if (attempt.attempts > MAX_ATTEMPTS) {
    const retryAfter = Math.max(1, Math.ceil((attempt.windowStartedAt + WINDOW_MS - now) / 1000));
    throw apiError(
      429,
      'too_many_login_attempts',
      `Too many wrong passwords for this email from your address. ${waitFor(retryAfter)} before trying again.`,
      { retryAfter },
    );
  }
  return key;
}

export async function passwordAccepted(ctx: RouteContext, key: string): Promise<void> {
  await clearLoginAttempts(ctx.db.sql, key);
}
