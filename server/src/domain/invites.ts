import type { Refusal } from './access.js';

/** How long an invite's link works. */
export const INVITE_TTL_MS = 7 * 24 * 3600_000;

/** What of an invite decides whether its link still works. */
export interface InviteFacts {
  expiresAt: number;
  acceptedAt: number | null;
  revokedAt: number | null;
}

const ASK = 'Ask an owner or admin of the account for a new invite (pingmon users invite EMAIL).';

/** Why an invite's link no longer works at `now` (or never did: no invite), or undefined while it is open. */
export function closedInviteRefusal(invite: InviteFacts | undefined, now: number): Refusal | undefined {
  if (!invite) return { status: 404, code: 'invite_not_found', message: `This invite link is not valid. ${ASK}` };
  if (invite.acceptedAt !== null)
    return {
      status: 410,
      code: 'invite_used',
      message:
        'This invite has been accepted already: sign in with the password set then (POST /api/v1/auth/login). ' +
        `If that was not you, tell the account's owners. ${ASK}`,
    };
  if (invite.revokedAt !== null)
    return { status: 410, code: 'invite_revoked', message: `This invite has been revoked. ${ASK}` };
  if (invite.expiresAt <= now)
    return {
      status: 410,
      code: 'invite_expired',
      message: `This invite expired at ${new Date(invite.expiresAt).toISOString()}. ${ASK}`,
    };
  return undefined;
}

/** The refusal of an invite, or of its acceptance, for an address that is a user already (of any account). */
export function emailTakenRefusal(email: string): Refusal {
  return {
    status: 409,
    code: 'email_taken',
    message:
      `${email} is a user of this server already (an address belongs to one user, of one account). ` +
      'Invite another address, or have that user removed from their account first.',
  };
}
