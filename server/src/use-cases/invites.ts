import type { Role } from '@pingmon/sdk/wire';
import type { Database } from '../db/index.js';
import { isUniqueViolation } from '../db/index.js';
import type { InviteRecord } from '../db/invites.js';
import { findInviteByToken, insertInvite, markInviteAccepted, revokeInvitesOf } from '../db/invites.js';
import type { UserRecord } from '../db/users.js';
import { findUserByEmail, insertUser } from '../db/users.js';
import type { Refusal } from '../domain/access.js';
import { closedInviteRefusal, emailTakenRefusal, INVITE_TTL_MS } from '../domain/invites.js';
import { newId } from '../ids.js';
import { newInviteToken } from '../secrets.js';

export type Invitation =
  { kind: 'invited'; invite: InviteRecord; token: string } | { kind: 'refused'; refusal: Refusal };

/** Invites `email` to the account as `role`: a new link, which replaces any open invite of that address. */
export async function invite(
  db: Database,
  input: { accountId: string; invitedBy: string; email: string; role: Role },
  now: number,
): Promise<Invitation> {
  const { token, hash } = newInviteToken();
  return db.transaction(async (sql) => {
    if (await findUserByEmail(sql, input.email)) return { kind: 'refused', refusal: emailTakenRefusal(input.email) };
    await revokeInvitesOf(sql, input.accountId, input.email, now);
    const invite = { ...input, inviteId: newId('inv', now), createdAt: now, expiresAt: now + INVITE_TTL_MS };
    await insertInvite(sql, { ...invite, tokenHash: hash });
    return { kind: 'invited', invite: { ...invite, acceptedAt: null, revokedAt: null }, token };
  });
}

export type Acceptance = { kind: 'accepted'; user: UserRecord } | { kind: 'refused'; refusal: Refusal };

/**
 * Makes the invited user, with the invite's role and this password, and uses the invite up: all or nothing, and
 * of two acceptances of one link at once, one alone makes a user.
 */
export async function acceptInvite(
  db: Database,
  tokenHash: string,
  passwordHash: string,
  now: number,
): Promise<Acceptance> {
  let email = '';
  try {
    return await db.transaction(async (sql): Promise<Acceptance> => {
      const invite = await findInviteByToken(sql, tokenHash);
      const closed = closedInviteRefusal(invite, now);
      if (closed || !invite) return { kind: 'refused', refusal: closed! };
      email = invite.email;
      if (await findUserByEmail(sql, email)) return { kind: 'refused', refusal: emailTakenRefusal(email) };
      if (!(await markInviteAccepted(sql, invite.inviteId, now)))
        return { kind: 'refused', refusal: closedInviteRefusal(await findInviteByToken(sql, tokenHash), now)! };
      const { accountId, role } = invite;
      const user: UserRecord = { userId: newId('usr', now), accountId, email, passwordHash, role, createdAt: now };
      await insertUser(sql, user);
      return { kind: 'accepted', user };
    });
  } catch (err) {
    // Another user with this address was made meanwhile (another account's invite, create-account).
    if (isUniqueViolation(err) && email !== '') return { kind: 'refused', refusal: emailTakenRefusal(email) };
    throw err;
  }
}
