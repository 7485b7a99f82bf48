import t from 'tap';
import type { Asker } from '@pingmon/server/internal';
import { accessRefusal, closedInviteRefusal, inviteRoleRefusal, roleChangeRefusal } from '@pingmon/server/internal';

const ACTION = 'POST /api/v1/monitors';

t.test('accessRefusal: each role and key scope against each access level', async (t) => {
  const cases: Array<[Asker, 'read' | 'write' | 'admin' | 'self', string | undefined]> = [
    [{ kind: 'user', role: 'owner' }, 'admin', undefined],
    [{ kind: 'user', role: 'admin' }, 'admin', undefined],
    [{ kind: 'user', role: 'member' }, 'write', undefined],
    [{ kind: 'user', role: 'member' }, 'admin', '403 forbidden_role'],
    [{ kind: 'user', role: 'viewer' }, 'read', undefined],
    [{ kind: 'user', role: 'viewer' }, 'self', undefined],
    [{ kind: 'user', role: 'viewer' }, 'write', '403 forbidden_role'],
    [{ kind: 'key', scope: 'ping' }, 'read', '401 user_token_required'],
    [{ kind: 'key', scope: 'ping' }, 'self', '401 user_token_required'],
    [{ kind: 'key', scope: 'read' }, 'read', undefined],
    [{ kind: 'key', scope: 'read' }, 'write', '403 key_scope'],
    [{ kind: 'key', scope: 'write' }, 'write', undefined],
    [{ kind: 'key', scope: 'write' }, 'admin', '403 key_scope'],
    [{ kind: 'key', scope: 'write' }, 'self', '403 key_scope'],
  ];
  for (const [asker, access, expected] of cases) {
    const refusal = accessRefusal(access, asker, ACTION);
    t.equal(refusal && `${refusal.status} ${refusal.code}`, expected, `${JSON.stringify(asker)} on ${access}`);
    if (refusal) t.ok(refusal.message.includes(ACTION), 'the message names the route');
  }
  t.match(accessRefusal('write', { kind: 'user', role: 'viewer' }, ACTION)?.message, /member role or higher/);
  t.match(accessRefusal('admin', { kind: 'user', role: 'member' }, ACTION)?.message, /admin or owner role/);
  t.match(accessRefusal('write', { kind: 'key', scope: 'ping' }, ACTION)?.message, /--scope write/);
});

t.test('roleChangeRefusal: admins never touch owners, and an account keeps an owner', async (t) => {
  const owner = { userId: 'usr_o', email: 'o@example.com', role: 'owner' as const };
  const member = { userId: 'usr_m', email: 'm@example.com', role: 'member' as const };
  const cases: Array<[string, ReturnType<typeof roleChangeRefusal>, string | undefined]> = [
    ['owner demotes the last owner', roleChangeRefusal('owner', owner, 'admin', ['usr_o']), 'last_owner'],
    ['owner removes the last owner', roleChangeRefusal('owner', owner, 'removed', ['usr_o']), 'last_owner'],
    ['owner demotes one of two owners', roleChangeRefusal('owner', owner, 'admin', ['usr_o', 'usr_p']), undefined],
    ['owner keeps an owner an owner', roleChangeRefusal('owner', owner, 'owner', ['usr_o']), undefined],
    ['owner makes an owner', roleChangeRefusal('owner', member, 'owner', ['usr_o']), undefined],
    ['admin demotes an owner', roleChangeRefusal('admin', owner, 'member', ['usr_o', 'usr_p']), 'owner_only'],
    ['admin removes an owner', roleChangeRefusal('admin', owner, 'removed', ['usr_o', 'usr_p']), 'owner_only'],
    ['admin makes an owner', roleChangeRefusal('admin', member, 'owner', ['usr_o']), 'owner_only'],
    ['admin removes a member', roleChangeRefusal('admin', member, 'removed', ['usr_o']), undefined],
  ];
  for (const [name, refusal, code] of cases) t.equal(refusal?.code, code, name);
  t.equal(inviteRoleRefusal('admin', 'owner')?.code, 'owner_only');
  t.equal(inviteRoleRefusal('admin', 'admin'), undefined);
  t.equal(inviteRoleRefusal('owner', 'owner'), undefined);
});

t.test('closedInviteRefusal: used, revoked, expired, unknown', async (t) => {
  const open = { expiresAt: 2_000, acceptedAt: null, revokedAt: null };
  t.equal(closedInviteRefusal(open, 1_999), undefined);
  t.equal(closedInviteRefusal(open, 2_000)?.code, 'invite_expired');
  t.equal(closedInviteRefusal({ ...open, acceptedAt: 1_000 }, 1_500)?.code, 'invite_used');
  t.equal(closedInviteRefusal({ ...open, revokedAt: 1_000 }, 1_500)?.code, 'invite_revoked');
  t.equal(closedInviteRefusal(undefined, 0)?.code, 'invite_not_found');
});
