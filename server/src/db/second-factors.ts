import { ms } from './index.js';
import type { Sql } from './sql.js';

/** A user's TOTP second factor: pending until its first code confirms it (`enabledAt`). Times in epoch ms. */
export interface SecondFactorRecord {
  userId: string;
  accountId: string;
  /** Base32, as the authenticator app was given it. */
  secret: string;
  createdAt: number;
  enabledAt: number | null;
  /** The time step of the last code accepted; null before the first. */
  lastStep: number | null;
}

interface SecondFactorRow {
  user_id: string;
  account_id: string;
  secret: string;
  created_at: number | string;
  enabled_at: number | string | null;
  last_step: number | string | null;
}

export async function findSecondFactor(
  sql: Sql,
  user: { accountId: string; userId: string },
): Promise<SecondFactorRecord | undefined> {
  const [row] = await sql.rows<SecondFactorRow>(
    `select user_id, account_id, secret, created_at, enabled_at, last_step from second_factors
     where user_id = ? and account_id = ?`,
    [user.userId, user.accountId],
  );
  return (
    row && {
      userId: row.user_id,
      accountId: row.account_id,
      secret: row.secret,
      createdAt: ms(row.created_at),
      enabledAt: ms(row.enabled_at),
      lastStep: ms(row.last_step),
    }
  );
}

/**
 * Starts (or starts over) an enrolment with a new secret; false when the user's second factor is enabled already,
 * which only disabling it may replace.
 */
export async function savePendingSecondFactor(
  sql: Sql,
  factor: { accountId: string; userId: string; secret: string; now: number },
): Promise<boolean> {
  const changed = await sql.changes(
    `insert into second_factors (user_id, account_id, secret, created_at, enabled_at, last_step)
     values (?, ?, ?, ?, null, null)
     on conflict (user_id) do update set secret = excluded.secret, created_at = excluded.created_at
     where second_factors.enabled_at is null`,
    [factor.userId, factor.accountId, factor.secret, factor.now],
  );
  return changed > 0;
}

/**
 * Enables the pending factor of `secret` (the one the code was checked with) and records the step of that first
 * code; false when it is enabled already or was started over meanwhile.
 */
export async function enableSecondFactor(
  sql: Sql,
  factor: { userId: string; secret: string; step: number; now: number },
): Promise<boolean> {
  const changed = await sql.changes(
    `update second_factors set enabled_at = ?, last_step = ?
     where user_id = ? and secret = ? and enabled_at is null`,
    [factor.now, factor.step, factor.userId, factor.secret],
  );
  return changed > 0;
}

/**
 * Takes the code of time step `step`: false when a code of that step or a later one was taken already, so a code
 * seen over someone's shoulder, or sent twice at once, signs in once.
 */
export async function takeStep(sql: Sql, userId: string, step: number): Promise<boolean> {
  const changed = await sql.changes(
    `update second_factors set last_step = ?
     where user_id = ? and enabled_at is not null and (last_step is null or last_step < ?)`,
    [step, userId, step],
  );
  return changed > 0;
}

export async function deleteSecondFactor(sql: Sql, userId: string): Promise<boolean> {
  return (await sql.changes('delete from second_factors where user_id = ?', [userId])) > 0;
}
