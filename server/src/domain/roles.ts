import type { Role } from '@pingmon/sdk/wire';
import type { Refusal } from './access.js';

/** A user as a change of roles sees them. */
export interface Member {
  userId: string;
  email: string;
  role: Role;
}

/**
 * Why `actor` may not give `target` the role `to` (or remove them, `to` = 'removed'), or undefined when they may:
 * admins may not touch owners nor make one, and the account's last owner stays one. `owners` are the account's
 * owners' ids as they are now.
 */
export function roleChangeRefusal(
  actor: Role,
  target: Member,
  to: Role | 'removed',
  owners: readonly string[],
): Refusal | undefined {
  if (actor !== 'owner' && (target.role === 'owner' || to === 'owner')) {
    return {
      status: 403,
      code: 'owner_only',
      message:
        target.role === 'owner'
          ? `${target.email} is an owner: only an owner may change or remove an owner. Ask one of the account's owners.`
          : "Only an owner may make someone an owner. Ask one of the account's owners.",
    };
  }
  const lastOwner = target.role === 'owner' && to !== 'owner' && owners.every((id) => id === target.userId);
  if (lastOwner) {
    return {
      status: 409,
      code: 'last_owner',
      message:
        `${target.email} is the account's last owner, and an account always keeps one: make another user an owner ` +
        `first (pingmon users set-role USER owner), then ${to === 'removed' ? 'remove' : 'change'} this one.`,
    };
  }
  return undefined;
}

/** Why `actor` may not invite someone as `role`, or undefined when they may. */
export function inviteRoleRefusal(actor: Role, role: Role): Refusal | undefined {
  if (actor === 'owner' || role !== 'owner') return undefined;
  return {
    status: 403,
    code: 'owner_only',
    message: "Only an owner may invite an owner. Invite them as an admin, or ask one of the account's owners.",
  };
}
