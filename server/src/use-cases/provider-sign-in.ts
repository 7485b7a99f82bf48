import { randomBytes } from 'node:crypto';
import type { Role } from '@pingmon/sdk/wire';
import type { OidcSettings } from '../config.js';
import { findProviderAccount } from '../db/accounts.js';
import type { Database } from '../db/index.js';
import { isUniqueViolation } from '../db/index.js';
import { findOpenInviteOf, markInviteAccepted } from '../db/invites.js';
import type { UserRecord } from '../db/users.js';
import {
  findUserByEmail,
  findUserIdentity,
  insertUser,
  lockOwners,
  setUserIdentity,
  updateUserRole,
} from '../db/users.js';
import type { Refusal } from '../domain/access.js';
import { admit, emailOf } from '../domain/provider-sign-in.js';
import { roleChangeRefusal } from '../domain/roles.js';
import { newId } from '../ids.js';
import { hashPassword } from '../secrets.js';

export type ProviderSignIn =
  | { kind: 'signed-in'; user: UserRecord; roleWas: Role | undefined }
  | { kind: 'refused'; refusal: Refusal; user: UserRecord | undefined };

/**
 * The user the provider's claims sign in: theirs (linked to the provider's identity at their first sign-in there),
 * their role kept in step with their groups (never leaving the account without an owner), or a new one. A new
 * user's password is random and unknown: they sign in through the provider, or after `pingmon admin reset-password`.
 * `roleWas`: their role before this sign-in changed it.
 */
export async function signInThroughProvider(
  db: Database,
  policy: OidcSettings,
  claims: Readonly<Record<string, unknown>>,
  now: number,
): Promise<ProviderSignIn> {
  const unusable = await hashPassword(randomBytes(32).toString('base64url'));
  const identity = `${policy.issuer} ${String(claims.sub)}`;
  try {
    return await db.transaction(async (sql): Promise<ProviderSignIn> => {
      const accountId = await findProviderAccount(sql, policy.account);
      if (accountId === undefined) return { kind: 'refused', refusal: noAccount(policy.account), user: undefined };
      const email = emailOf(claims);
      const user = email === '' ? undefined : await findUserByEmail(sql, email);
      const invite = user || email === '' ? undefined : await findOpenInviteOf(sql, accountId, email, now);
      const linked = user && (await findUserIdentity(sql, user.userId));
      const known = { user: user && { ...user, identity: linked ?? null }, invitedAs: invite?.role };
      const admission = admit(claims, identity, policy, accountId, known);
      if (admission.kind === 'refused') return { ...admission, user };
      if (admission.kind === 'user') {
        if (!linked) await setUserIdentity(sql, user!.userId, identity);
        const { role } = admission;
        if (role === undefined || role === user!.role) return { kind: 'signed-in', user: user!, roleWas: undefined };
        const owners = await lockOwners(sql, accountId);
        if (roleChangeRefusal('owner', user!, role, owners))
          return { kind: 'signed-in', user: user!, roleWas: undefined };
        await updateUserRole(sql, accountId, user!.userId, role);
        return { kind: 'signed-in', user: { ...user!, role }, roleWas: user!.role };
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
      await setUserIdentity(sql, created.userId, identity);
      return { kind: 'signed-in', user: created, roleWas: undefined };
    });
  } catch (err) {
    // A first sign-in of the same address at once (two tabs): one made the user.
    if (!isUniqueViolation(err)) throw err;
    const refusal: Refusal = {
      status: 409,
      code: 'provider_sign_in_raced',
      message: 'Another sign-in with your address was making your user at the same moment: sign in again.',
    };
    return { kind: 'refused', refusal, user: undefined };
  }
}

function noAccount(accountId: string | undefined): Refusal {
  return {
    status: 403,
    code: 'provider_account_unknown',
    message:
      accountId === undefined
        ? 'This server has several accounts (or none): its operator must name the one that users of the identity ' +
          'provider join, with PINGMON_OIDC_ACCOUNT.'
        : `PINGMON_OIDC_ACCOUNT names no account of this server (${accountId}): its operator must set it to an ` +
          "account's id.",
  };
}
