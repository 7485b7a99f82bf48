import { ROLES } from '@pingmon/sdk/wire';
import type { Role } from '@pingmon/sdk/wire';
import type { OidcSettings } from '../config.js';
import type { Refusal } from './access.js';

/** What pingmon already knows of the person the provider vouches for. */
export interface Known {
  /** Their user, in whichever account, and the provider identity it is linked to (null: none yet). */
  user: { accountId: string; role: Role; identity: string | null } | undefined;
  /** The role of an open invite of their address to the provider's account. */
  invitedAs: Role | undefined;
}

export type Admission =
  | { kind: 'user'; email: string; role: Role | undefined }
  | { kind: 'new-user'; email: string; role: Role }
  | { kind: 'refused'; refusal: Refusal };

type Policy = Pick<OidcSettings, 'allowedDomains' | 'groupsClaim' | 'roles' | 'defaultRole' | 'trustUnverifiedEmail'>;

/** The provider's e-mail of the person, as pingmon keeps addresses (lower case); '' when it sent none. */
export function emailOf(claims: Readonly<Record<string, unknown>>): string {
  return typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
}

/**
 * Who gets in through the provider, with which role. A user of the account signs in from the identity they are
 * linked to, their role kept in step with their groups while groups are mapped; someone new needs a mapped group,
 * an invite, or an allowed domain. `identity` is the provider's issuer and subject of this sign-in.
 */
export function admit(
  claims: Readonly<Record<string, unknown>>,
  identity: string,
  policy: Policy,
  accountId: string,
  known: Known,
): Admission {
  const email = emailOf(claims);
  if (email === '')
    return refused(
      'provider_no_email',
      'The identity provider sent no e-mail address for you. Its administrator must let pingmon read the "email" ' +
        'claim (the email scope).',
    );
  // A provider may let its users set any address: only one it says it verified names a pingmon user.
  const verified = claims.email_verified === true || claims.email_verified === 'true';
  if (!verified && !policy.trustUnverifiedEmail)
    return refused(
      'provider_email_unverified',
      `The identity provider does not say it verified ${email}. Verify it there, then sign in again (an operator ` +
        'whose provider never says so, and lets no user choose their address, sets ' +
        'PINGMON_OIDC_TRUST_UNVERIFIED_EMAIL=true).',
    );
  const groupRole = highest(groupsOf(claims[policy.groupsClaim]).map((group) => policy.roles[group]));
  // With groups mapped, the provider's groups say the role; an unmapped person has the default one.
  const syncedRole = Object.keys(policy.roles).length > 0 ? (groupRole ?? policy.defaultRole) : undefined;
  if (known.user) {
    if (known.user.accountId !== accountId)
      return refused(
        'provider_other_account',
        `${email} is a user of another pingmon account on this server, which this sign-in does not open.`,
      );
    if (known.user.identity !== null && known.user.identity !== identity)
      return refused(
        'provider_identity_mismatch',
        `${email} is linked to another identity at the provider than the one you signed in with. If the address ` +
          'changed hands, an owner or admin removes the pingmon user and invites it again.',
      );
    return { kind: 'user', email, role: syncedRole };
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
