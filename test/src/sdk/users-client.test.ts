import t from 'tap';
import { createClient, isAccessRefusal, PingmonError } from '@pingmon/sdk';
import { TestServer } from '../helpers/server.js';
import { linkToken } from '../helpers/team.js';

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e,
  );

t.test("the client's users, invites and key scopes", async (t) => {
  const api = await TestServer.start(t, 'sqlite');
  const owner = await api.account();
  const client = createClient({ baseUrl: api.url, token: owner.token });

  t.test('invite, accept (signed in), change the role, remove', async (t) => {
    const invite = await client.inviteUser('Ada@example.com', 'member');
    t.match(invite, { inviteId: /^inv_/, email: 'ada@example.com', role: 'member', emailed: false });
    t.same(
      (await client.listInvites()).invites.map((i) => i.inviteId),
      [invite.inviteId],
    );
    const guest = createClient({ baseUrl: api.url });
    t.same(await guest.lookupInvite(linkToken(invite.url)), {
      email: 'ada@example.com',
      role: 'member',
      expiresAt: invite.expiresAt,
    });
    const joined = await guest.acceptInvite(linkToken(invite.url), 'ada password');
    t.equal(joined.user.role, 'member');
    t.equal(guest.token, joined.token, 'the client keeps the new token');
    t.equal((await guest.me()).user.email, 'ada@example.com');

    const refused = await failure(guest.listUsers());
    t.ok(isAccessRefusal(refused), 'a role refusal is recognized');
    t.match(refused, { status: 403, code: 'forbidden_role', message: /Your role in this account is member/ });

    t.match(await client.setUserRole(joined.user.userId, 'admin'), { role: 'admin' });
    t.equal((await guest.listUsers()).users.length, 2, 'the new role at once');
    await client.removeUser(joined.user.userId);
    const gone = await failure(guest.me());
    t.ok(gone instanceof PingmonError && gone.status === 401);
    t.notOk(isAccessRefusal(gone), 'a signed-out session is no access refusal');

    const revoked = await client.inviteUser('bob@example.com', 'viewer');
    await client.revokeInvite(revoked.inviteId);
    t.match(await failure(guest.acceptInvite(linkToken(revoked.url), 'bob password')), {
      status: 410,
      code: 'invite_revoked',
    });
  });

  t.test('a read key as the token reads, and its refusals say what would do', async (t) => {
    const { monitorId } = await client.createMonitor({ name: 'backup' });
    const created = await client.createApiKey({ name: 'grafana', scope: 'read', monitorIds: [monitorId] });
    t.match(created, { scope: 'read', provision: false, monitorIds: [monitorId], lastUsedAt: null });
    const reader = createClient({ baseUrl: api.url, token: created.key });
    t.equal((await reader.listMonitors()).monitors.length, 1);
    const write = await failure(reader.createMonitor({ name: 'other' }));
    t.ok(isAccessRefusal(write));
    t.match(write, { status: 403, code: 'key_scope', message: /pingmon keys create --scope write/ });
    const keys = (await client.listApiKeys()).apiKeys;
    t.match(
      keys.find((k) => k.keyId === created.keyId),
      { scope: 'read', monitorIds: [monitorId] },
    );
  });
});
