import type { KeyScope, Role } from '@pingmon/sdk/wire';
import type { Access } from '../access.js';

/** Who asks: a signed-in user and their role, or an API key and its scope. */
export type Asker = { kind: 'user'; role: Role } | { kind: 'key'; scope: KeyScope };

/** Why a request is refused, as its error answers it. */
export interface Refusal {
  status: 401 | 403 | 404 | 409 | 410;
  code: string;
  message: string;
}

/** What each role and each key scope may reach (docs/api.md#roles). `self` is every user's, never a key's. */
const ROLE_ACCESS: Readonly<Record<Role, readonly Access[]>> = {
  owner: ['read', 'write', 'admin', 'self'],
  admin: ['read', 'write', 'admin', 'self'],
  member: ['read', 'write', 'self'],
  viewer: ['read', 'self'],
};
const KEY_ACCESS: Readonly<Record<KeyScope, readonly Access[]>> = {
  ping: [],
  read: ['read'],
  write: ['read', 'write'],
};

const ROLE_ALLOWS: Readonly<Record<Role, string>> = {
  owner: 'everything',
  admin: 'everything but changing owners',
  member: 'reading and changing monitors, rules, channels and maintenance windows, not users or API keys',
  viewer: 'reading monitors, runs, logs, rules, channels and alerts, and changing nothing',
};
const ROLE_NEEDED: Readonly<Record<Access, string>> = {
  read: 'any role',
  write: 'the member role or higher',
  admin: 'the admin or owner role',
  self: 'any role',
};
const LOG_IN = 'log in with POST /api/v1/auth/login (or `pingmon login`) and send Authorization: Bearer <token>';

/**
 * Why `asker` may not reach a route of access level `access`, or undefined when it may. `action` names the route
 * for the message ("GET /api/v1/monitors").
 */
export function accessRefusal(access: Access, asker: Asker, action: string): Refusal | undefined {
  if (asker.kind === 'user') {
    if (ROLE_ACCESS[asker.role].includes(access)) return undefined;
    return {
      status: 403,
      code: 'forbidden_role',
      message:
        `Your role in this account is ${asker.role}, which allows ${ROLE_ALLOWS[asker.role]}: ${action} needs ` +
        `${ROLE_NEEDED[access]}. Ask an owner or admin of the account to change your role ` +
        '(pingmon users set-role).',
    };
  }
  if (KEY_ACCESS[asker.scope].includes(access)) return undefined;
  if (asker.scope === 'ping') {
    // A ping key is what SPEC 4.4 calls "an API key": refused as it always was, with what would do instead.
    const keys = access === 'read' ? 'a read or write key' : access === 'write' ? 'a write key' : undefined;
    return {
      status: 401,
      code: 'user_token_required',
      message: keys
        ? `This is a ping key: it sends pings only. ${action} needs a user token or ${keys}: ${LOG_IN}, ` +
          `or create such a key with \`pingmon keys create --scope ${access}\` and send it instead.`
        : `${action} needs a user token, never an API key: ${LOG_IN}.`,
    };
  }
  if (access === 'write') {
    return {
      status: 403,
      code: 'key_scope',
      message:
        `This API key has the read scope: it reads only, and ${action} changes things. Use a write key ` +
        '(create one with `pingmon keys create --scope write`) or a user token.',
    };
  }
  return {
    status: 403,
    code: 'key_scope',
    message:
      `API keys are never accepted on ${action}: it is for a signed-in user` +
      `${access === 'admin' ? ' with the admin or owner role' : ''}. A user must ${LOG_IN}.`,
  };
}

/** A read or write key on a ping route: it does not ping. */
export function pingRefusal(scope: Exclude<KeyScope, 'ping'>): Refusal {
  return {
    status: 403,
    code: 'key_scope',
    message:
      `This API key has the ${scope} scope: it is for the management API and does not ping. Pings need a ping key ` +
      '(`pingmon keys create`, whose scope is ping unless told otherwise).',
  };
}

/** A key limited to some monitors, on a route about the whole account (channels, maintenance windows, new monitors). */
export function wholeAccountRefusal(action: string): Refusal {
  return {
    status: 403,
    code: 'key_monitors',
    message:
      `This API key is limited to some monitors, and ${action} concerns the whole account. ` +
      'Use a key that is not limited to monitors, or a user token.',
  };
}
