import type { Database } from '../db/index.js';
import {
  countUnusedRecoveryCodes,
  deleteRecoveryCodes,
  replaceRecoveryCodes,
  useRecoveryCode,
} from '../db/recovery-codes.js';
import type { SecondFactorRecord } from '../db/second-factors.js';
import { deleteSecondFactor, enableSecondFactor, findSecondFactor, takeStep } from '../db/second-factors.js';
import type { Sql } from '../db/sql.js';
import { hashRecoveryCode, newRecoveryCodes } from '../secrets.js';
import { looksLikeTotp, stepOfCode } from '../totp.js';

// A user's TOTP second factor (docs/api.md#second-factor): checked at sign-in and to turn it off, confirmed by its
// first code, backed by single-use recovery codes.

interface UserRef {
  accountId: string;
  userId: string;
}

/** What a second factor made of a sign-in: none asked (`off`), none sent, a wrong or used code, or a good one. */
export type SecondFactorCheck = 'off' | 'missing' | 'wrong' | 'accepted';

/**
 * Checks `code` against the user's enabled second factor, at `now` (epoch ms). A TOTP code is taken once (its time
 * step, and those before it, are used up), a recovery code once.
 */
export async function checkSecondFactor(
  db: Database,
  user: UserRef,
  code: string | undefined,
  now: number,
): Promise<SecondFactorCheck> {
  const factor = await findSecondFactor(db.sql, user);
  if (!factor || factor.enabledAt === null) return 'off';
  const typed = code?.trim() ?? '';
  if (typed === '') return 'missing';
  return (await takeCode(db.sql, factor, typed, now)) ? 'accepted' : 'wrong';
}

async function takeCode(sql: Sql, factor: SecondFactorRecord, code: string, now: number): Promise<boolean> {
  if (!looksLikeTotp(code)) return useRecoveryCode(sql, factor.userId, hashRecoveryCode(factor.userId, code), now);
  const step = stepOfCode(factor.secret, code, now);
  return step !== undefined && (await takeStep(sql, factor.userId, step));
}

/** What confirming an enrolment made: the recovery codes to show once, or why not. */
export type Confirmation = { recoveryCodes: string[] } | 'not_started' | 'enabled_already' | 'wrong';

/** Enables the pending second factor when `code` is right for it, with ten new recovery codes, all at once. */
export async function confirmSecondFactor(
  db: Database,
  user: UserRef,
  code: string,
  now: number,
): Promise<Confirmation> {
  const factor = await findSecondFactor(db.sql, user);
  if (!factor) return 'not_started';
  if (factor.enabledAt !== null) return 'enabled_already';
  const step = stepOfCode(factor.secret, code.trim(), now);
  if (step === undefined) return 'wrong';
  const recoveryCodes = newRecoveryCodes();
  const hashes = recoveryCodes.map((c) => hashRecoveryCode(user.userId, c));
  return db.transaction(async (sql) => {
    // Started over (a new secret) or confirmed by another request since it was read: this code was for neither.
    if (!(await enableSecondFactor(sql, { userId: user.userId, secret: factor.secret, step, now })))
      return 'enabled_already';
    await replaceRecoveryCodes(sql, user.userId, hashes, now);
    return { recoveryCodes };
  });
}

/** Turns the second factor off (and a pending enrolment): its secret and recovery codes go. */
export async function removeSecondFactor(db: Database, user: UserRef): Promise<void> {
  await db.transaction(async (sql) => {
    await deleteSecondFactor(sql, user.userId);
    await deleteRecoveryCodes(sql, user.userId);
  });
}

export interface SecondFactorStatus {
  enabled: boolean;
  recoveryCodesLeft: number;
}

export async function secondFactorStatus(db: Database, user: UserRef): Promise<SecondFactorStatus> {
  const factor = await findSecondFactor(db.sql, user);
  if (!factor || factor.enabledAt === null) return { enabled: false, recoveryCodesLeft: 0 };
  return { enabled: true, recoveryCodesLeft: await countUnusedRecoveryCodes(db.sql, user.userId) };
}
