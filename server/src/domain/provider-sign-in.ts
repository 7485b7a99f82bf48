import { ROLES } from '@pingmon/sdk/wire';
import type { Role } from '@pingmon/sdk/wire';
import type { OidcSettings } from '../config.js';
import type { Refusal } from './access.js';

/** What pingmon already knows of the person the provider vouches for. */
export interface Known {
  /** Their user, in whichever account. */
  user: { accountId: string; role: Role } | undefined;
  /** The role of an open invite of their address to the provider's account. */
  invitedAs: Role | undefined;
}

export type Admission =
  | { kind: 'user'; email: string; role: Role | undefined }
  | { kind: 'new-user'; email: string; role: Role }
  | { kind: 'refused'; refusal: Refusal };

/**
 * Who gets in through the provider, with which role. A user of the account signs in, their role brought in step
 * with their groups when a group is mapped; someone new needs a mapped group, an invite, or an allowed domain.
 */
export function admit(
  claims: Readonly<Record<string, unknown>>,
  policy: Pick<OidcSettings, 'allowedDomains' | 'groupsClaim' | 'roles' | 'defaultRole'>,
  accountId: string,
  known: Known,
): Admission {
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  if (email === '')
    return refused(
      'provider_no_email',
      'The identity provider sent no e-mail address for you. Its administrator must let pingmon read the "email" ' +
        'claim (the email scope).',
    );
  if (claims.email_verified === false)
    return refused(
      'provider_email_unverified',
      `The identity provider has not verified ${email}. Verify it there, then sign in again.`,
    );
  const groupRole = highest(groupsOf(claims[policy.groupsClaim]).map((group) => policy.roles[group]));
  if (known.user) {
    if (known.user.accountId !== accountId)
      return refused(
        'provider_other_account',
        `${email} is a user of another pingmon account on this server: sign in with your password there.`,
      );
    return { kind: 'user', email, role: groupRole };
  }
  const domain = email.slice(email.lastIndexOf('@') + 1);
  const role =
    groupRole ?? known.invitedAs ?? (policy.allowedDomains.includes(domain) ? policy.defaultRole : undefined);
  if (role === undefined)
    return refused(
      'provider_not_allowed',
      `${email} has no pingmon user, and the identity provider's sign-in is not open to it. ` +
        'Ask an owner or admin of the account to invite you (pingmon users invite), then sign in again.',
    );
  return { kind: 'new-user', email, role };
}

function refused(code: string, message: string): Admission {
  return { kind: 'refused', refusal: { status: 403, code, message } };
}

/** A groups claim: a list of names, or one name. */
function groupsOf(claim: unknown): string[] {
  if (typeof claim === 'string') return [claim];
  return Array.isArray(claim) ? claim.filter((group): group is string => typeof group === 'string') : [];
}

/** The role that grants most: ROLES is ordered owner first. */
function highest(roles: ReadonlyArray<Role | undefined>): Role | undefined {
  return ROLES.find((role) => roles.includes(role));
}
