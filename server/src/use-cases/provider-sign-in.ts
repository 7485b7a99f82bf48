import { randomBytes } from 'node:crypto';
import type { OidcSettings } from '../config.js';
import { findAccountIdNamed } from '../db/accounts.js';
import type { Database } from '../db/index.js';
import { findOpenInviteOf, markInviteAccepted } from '../db/invites.js';
import type { UserRecord } from '../db/users.js';
import { findUserByEmail, insertUser, lockOwners, updateUserRole } from '../db/users.js';
import type { Refusal } from '../domain/access.js';
import { admit } from '../domain/provider-sign-in.js';
import { roleChangeRefusal } from '../domain/roles.js';
import { newId } from '../ids.js';
import { hashPassword } from '../secrets.js';

export type ProviderSignIn = { kind: 'signed-in'; user: UserRecord } | { kind: 'refused'; refusal: Refusal };

/**
 * The user the provider's claims sign in: theirs, their role kept in step with their groups (never leaving the
 * account without an owner), or a new one. A new user's password is random and unknown: they sign in through the
 * provider, or after `pingmon admin reset-password`.
 */
export async function signInThroughProvider(
  db: Database,
  policy: OidcSettings,
  claims: Readonly<Record<string, unknown>>,
  now: number,
): Promise<ProviderSignIn> {
  const unusable = await hashPassword(randomBytes(32).toString('base64url'));
  return db.transaction(async (sql): Promise<ProviderSignIn> => {
    const accountId = await findAccountIdNamed(sql, policy.account);
    if (accountId === undefined) return { kind: 'refused', refusal: noAccount(policy.account) };
    const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
    const user = email === '' ? undefined : await findUserByEmail(sql, email);
    const invite = user || email === '' ? undefined : await findOpenInviteOf(sql, accountId, email, now);
    const admission = admit(claims, policy, accountId, { user, invitedAs: invite?.role });
    if (admission.kind === 'refused') return admission;
    if (admission.kind === 'user') {
      const { role } = admission;
      if (role === undefined || role === user!.role) return { kind: 'signed-in', user: user! };
      const owners = await lockOwners(sql, accountId);
      if (roleChangeRefusal('owner', user!, role, owners)) return { kind: 'signed-in', user: user! };
      await updateUserRole(sql, accountId, user!.userId, role);
      return { kind: 'signed-in', user: { ...user!, role } };
    }
    if (invite) await markInviteAccepted(sql, invite.inviteId, now);
    const created: UserRecord = {
      userId: newId('usr', now),
      accountId,
      email: admission.email,
      passwordHash: unusable,
      role: admission.role,
      createdAt: now,
    };
    await insertUser(sql, created);
    return { kind: 'signed-in', user: created };
  });
}

function noAccount(name: string | undefined): Refusal {
  return {
    status: 403,
    code: 'provider_account_unknown',
    message:
      name === undefined
        ? 'This server has several accounts (or none): its operator must name the one that users of the identity ' +
          'provider join, with PINGMON_OIDC_ACCOUNT.'
        : `PINGMON_OIDC_ACCOUNT names no account of this server ("${name}"): its operator must set it to an ` +
          "account's id or status page slug.",
  };
}
