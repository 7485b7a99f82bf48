import type { Plan } from '@pingmon/sdk/wire';
import { insertAccount } from './db/accounts.js';
import { insertApiKey } from './db/api-keys.js';
import type { Database } from './db/index.js';
import { DatabaseUnavailableError, isUniqueViolation } from './db/index.js';
import { deleteRecoveryCodes } from './db/recovery-codes.js';
import { deleteSecondFactor } from './db/second-factors.js';
import { endUserSessions } from './db/sessions.js';
import { findUserByEmail, insertUser, updatePasswordHash } from './db/users.js';
import { newId } from './ids.js';
import { hashPassword, newApiKey } from './secrets.js';

export interface NewAccount {
  accountId: string;
  userId: string;
  apiKey: string;
}

export class AccountInputError extends Error {}

/** What an e-mail address must look like: an @ with something either side, no spaces. */
export const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** Creates an account with its first user, an owner, and a ping key, all or nothing. */
export async function createAccount(
  db: Database,
  input: { email: string; password: string; plan: Plan },
  now = Date.now(),
): Promise<NewAccount> {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email) || email.length > 254) throw new AccountInputError(`"${input.email}" is not an email address`);
  checkPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  const ids = { accountId: newId('acc'), userId: newId('usr'), keyId: newId('key') };
  const key = newApiKey();
  try {
    await db.transaction(async (sql) => {
      await insertAccount(sql, { accountId: ids.accountId, plan: input.plan, createdAt: now });
      const { keyId, accountId, userId } = ids;
      await insertUser(sql, { userId, accountId, email, passwordHash, role: 'owner', createdAt: now });
      const { prefix, hash: keyHash } = key;
      const scope = 'ping' as const;
      const stored = { keyId, accountId, name: 'default', prefix, keyHash, scope, provision: true, monitorIds: null };
      await insertApiKey(sql, { ...stored, now });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AccountInputError(`a user with email ${email} already exists`);
    // Says which database and why (another process holding SQLite's write lock, say), and no values.
    if (err instanceof DatabaseUnavailableError) throw err;
    // Drivers may put the SQL, with its values, in the message: say only what went wrong.
    const code = (err as { code?: string }).code ?? 'unknown';
    throw new Error(`the database refused the new account (${code})`, { cause: err });
  }
  return { accountId: ids.accountId, userId: ids.userId, apiKey: key.key };
}

/** The password rule of every way a password is set. */
export function checkPassword(password: string): void {
  if (password.length < 8) throw new AccountInputError('the password must be at least 8 characters long');
}

/**
 * Gives a user a new password and ends every session of theirs, in one transaction: whoever signed in with the
 * old one (a stolen token, a forgotten browser) signs in again. The number of sessions ended is answered. An
 * operator may turn the user's second factor off too (`removeSecondFactor`: a lost phone and no recovery code).
 */
export async function setPassword(
  db: Database,
  input: { email: string; password: string; removeSecondFactor?: boolean },
  now = Date.now(),
): Promise<{ userId: string; sessionsEnded: number; secondFactorRemoved: boolean }> {
  checkPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  const email = input.email.trim().toLowerCase();
  return db.transaction(async (sql) => {
    const user = await findUserByEmail(sql, email);
    if (!user || !(await updatePasswordHash(sql, user.userId, passwordHash)))
      throw new AccountInputError(`there is no user with email ${email}`);
    const sessionsEnded = await endUserSessions(sql, user.userId, now);
    const secondFactorRemoved = input.removeSecondFactor === true && (await deleteSecondFactor(sql, user.userId));
    if (input.removeSecondFactor) await deleteRecoveryCodes(sql, user.userId);
    return { userId: user.userId, sessionsEnded, secondFactorRemoved };
  });
}
