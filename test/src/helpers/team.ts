import { randomBytes } from 'node:crypto';
import type { KeyScope, Role } from '@pingmon/sdk';
import type { TestAccount, TestServer } from './server.js';

/** A user of an account, signed in. */
export interface TeamUser {
  userId: string;
  email: string;
  password: string;
  role: Role;
  token: string;
}

/** An account with a user of every role and a key of every scope. */
export interface Team {
  owner: TestAccount;
  users: Record<Role, TeamUser>;
  keys: Record<KeyScope, string>;
}

/** The token of an invite link (`…/invite#<token>`). */
export function linkToken(url: string): string {
  return url.slice(url.indexOf('#') + 1);
}

/** Invites a user with `role` (as `inviter`, the owner unless said) and has them accept: signed in. */
export async function addUser(
  api: TestServer,
  owner: TestAccount,
  role: Role,
  inviter = owner.token,
): Promise<TeamUser> {
  const email = `${role}-${randomBytes(4).toString('hex')}@example.com`;
  const password = `${role} password here`;
  const invited = await api.request('/users/invites', { token: inviter, body: { email, role } });
  if (invited.status !== 201) throw new Error(`inviting a ${role} failed: ${invited.text}`);
  const accepted = await api.request('/auth/invites/accept', {
    body: { token: linkToken(invited.body.url), password },
  });
  if (accepted.status !== 200) throw new Error(`accepting the invite failed: ${accepted.text}`);
  return { userId: accepted.body.user.userId, email, password, role, token: accepted.body.token };
}

/** A new API key of the owner's account. */
export async function addKey(api: TestServer, owner: TestAccount, body: Record<string, unknown>): Promise<string> {
  const created = await api.request('/api-keys', { token: owner.token, body });
  if (created.status !== 201) throw new Error(`creating a key failed: ${created.text}`);
  return created.body.key;
}

export async function makeTeam(api: TestServer): Promise<Team> {
  const owner = await api.account();
  const users: Record<Role, TeamUser> = {
    owner: { userId: owner.userId, email: owner.email, password: owner.password, role: 'owner', token: owner.token },
    admin: await addUser(api, owner, 'admin'),
    member: await addUser(api, owner, 'member'),
    viewer: await addUser(api, owner, 'viewer'),
  };
  const keys: Record<KeyScope, string> = {
    ping: owner.apiKey,
    read: await addKey(api, owner, { name: 'reader', scope: 'read' }),
    write: await addKey(api, owner, { name: 'writer', scope: 'write' }),
  };
  return { owner, users, keys };
}
