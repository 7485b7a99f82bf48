import t from 'tap';
import { INVITE_TTL_MS } from '@pingmon/server/internal';
import { TestClock } from '../helpers/clock.js';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { TestServer } from '../helpers/server.js';
import { startSmtp } from '../helpers/smtp.js';
import { addUser, linkToken } from '../helpers/team.js';
import { waitFor } from '../helpers/wait.js';

for (const kind of DATABASE_KINDS) {
  t.test(`users of an account and their invites on ${kind}`, async (t) => {
    const clock = new TestClock(Date.now());
    const api = await TestServer.start(t, kind, { clock: clock.read });
    const invite = (token: string, email: string, role: string) =>
      api.request('/users/invites', { token, body: { email, role } });
    const accept = (url: string, password = 'a fine password') =>
      api.request('/auth/invites/accept', { body: { token: linkToken(url), password } });

    t.test('the user create-account makes is an owner', async (t) => {
      const owner = await api.account();
      const me = await api.request('/me', { token: owner.token });
      t.equal(me.body.user.role, 'owner');
      const users = await api.request('/users', { token: owner.token });
      t.same(users.body, { users: [me.body.user], nextCursor: null });
    });

    t.test('an invite: a one-time link, accepted by setting a password, then used up', async (t) => {
      const owner = await api.account();
      const made = await invite(owner.token, 'Ada@Example.com', 'member');
      t.equal(made.status, 201, made.text);
      t.match(made.body, {
        inviteId: /^inv_/,
        email: 'ada@example.com',
        role: 'member',
        invitedBy: owner.userId,
        emailed: false,
      });
      t.equal(Date.parse(made.body.expiresAt) - Date.parse(made.body.createdAt), INVITE_TTL_MS, 'for 7 days');
      t.ok(made.body.url.startsWith(`${new URL(api.url).origin}/invite#`), `the request's origin: ${made.body.url}`);
      const pending = await api.request('/users/invites', { token: owner.token });
      const { url: _url, emailed: _emailed, ...shown } = made.body;
      t.same(pending.body, { invites: [shown], nextCursor: null });
      const stored = await api.query((knex) => knex('invites').select('token_hash').first());
      t.not(stored.token_hash, linkToken(made.body.url), 'the token is stored hashed');

      const looked = await api.request('/auth/invites/lookup', { body: { token: linkToken(made.body.url) } });
      t.same(looked.body, { email: 'ada@example.com', role: 'member', expiresAt: made.body.expiresAt });
      const short = await accept(made.body.url, 'short');
      t.equal(short.status, 400);
      t.match(short.body.message, /8 to 1024 characters/);
      const accepted = await accept(made.body.url);
      t.equal(accepted.status, 200, accepted.text);
      t.match(accepted.body, { token: String, user: { email: 'ada@example.com', role: 'member' } });
      t.equal(accepted.body.account.accountId, owner.accountId);
      const me = await api.request('/me', { token: accepted.body.token });
      t.equal(me.body.user.role, 'member');
      const login = await api.request('/auth/login', {
        body: { email: 'ada@example.com', password: 'a fine password' },
      });
      t.equal(login.status, 200, 'the new user signs in with the password set');

      const again = await accept(made.body.url, 'another password');
      t.equal(again.status, 410);
      t.equal(again.body.code, 'invite_used');
      t.equal((await api.request('/auth/invites/lookup', { body: { token: linkToken(made.body.url) } })).status, 410);
      t.same((await api.request('/users/invites', { token: owner.token })).body.invites, []);
      const users = await api.request('/users', { token: owner.token });
      t.same(
        users.body.users.map((u: { email: string; role: string }) => `${u.email} ${u.role}`).sort(),
        ['ada@example.com member', `${owner.email} owner`].sort(),
      );
      const bogus = await api.request('/auth/invites/accept', {
        body: { token: 'not-a-token', password: 'whatever123' },
      });
      t.equal(bogus.status, 404);
      t.equal(bogus.body.code, 'invite_not_found');
    });

    t.test('a revoked invite and an expired one are refused clearly; inviting again replaces the link', async (t) => {
      const owner = await api.account();
      const first = await invite(owner.token, 'grace@example.com', 'viewer');
      const second = await invite(owner.token, 'grace@example.com', 'viewer');
      t.equal(second.status, 201);
      const replaced = await accept(first.body.url);
      t.equal(replaced.status, 410);
      t.equal(replaced.body.code, 'invite_revoked');
      t.match(replaced.body.message, /pingmon users invite/);
      const revoked = await api.request(`/users/invites/${second.body.inviteId}`, {
        method: 'DELETE',
        token: owner.token,
      });
      t.equal(revoked.status, 204);
      t.equal((await accept(second.body.url)).body.code, 'invite_revoked');
      const twice = await api.request(`/users/invites/${second.body.inviteId}`, {
        method: 'DELETE',
        token: owner.token,
      });
      t.equal(twice.status, 404);

      const late = await invite(owner.token, 'late@example.com', 'member');
      clock.advance(INVITE_TTL_MS);
      const expired = await accept(late.body.url);
      t.equal(expired.status, 410);
      t.equal(expired.body.code, 'invite_expired');
      t.match(expired.body.message, new RegExp(`expired at ${late.body.expiresAt}`));
      t.same((await api.request('/users/invites', { token: owner.token })).body.invites, [], 'expired is not pending');
    });

    t.test('an address belongs to one user of the server: inviting a user is a 409', async (t) => {
      const owner = await api.account();
      const other = await api.account();
      const taken = await invite(owner.token, other.email.toUpperCase(), 'member');
      t.equal(taken.status, 409);
      t.equal(taken.body.code, 'email_taken');
      t.match(taken.body.message, /Invite another address/);
      // Invited by two accounts: the first acceptance wins, the second is told.
      const a = await invite(owner.token, 'both@example.com', 'member');
      const b = await invite(other.token, 'both@example.com', 'viewer');
      t.equal((await accept(b.body.url)).status, 200);
      const late = await accept(a.body.url);
      t.equal(late.status, 409);
      t.equal(late.body.code, 'email_taken');
      const bad = await invite(owner.token, 'not an address', 'member');
      t.equal(bad.status, 400);
      t.match(bad.body.message, /e-mail address/);
      const role = await invite(owner.token, 'x@example.com', 'superuser');
      t.equal(role.status, 400);
      t.match(role.body.message, /owner, admin, member, viewer/);
    });

    t.test("a new role applies from the user's next request; removal ends their sessions at once", async (t) => {
      const owner = await api.account();
      const viewer = await addUser(api, owner, 'viewer');
      const create = () => api.request('/monitors', { token: viewer.token, body: { name: 'backup' } });
      const refused = await create();
      t.equal(refused.status, 403);
      t.equal(refused.body.code, 'forbidden_role');
      t.match(refused.body.message, /Your role in this account is viewer/);
      t.match(refused.body.message, /Ask an owner or admin/);
      const set = await api.request(`/users/${viewer.userId}`, {
        method: 'PATCH',
        token: owner.token,
        body: { role: 'member' },
      });
      t.equal(set.status, 200, set.text);
      t.match(set.body, { userId: viewer.userId, role: 'member' });
      t.equal((await create()).status, 201, 'the same token, the new role');

      const removed = await api.request(`/users/${viewer.userId}`, { method: 'DELETE', token: owner.token });
      t.equal(removed.status, 204);
      const after = await api.request('/monitors', { token: viewer.token });
      t.equal(after.status, 401, 'their token is refused at once');
      t.equal(after.body.code, 'invalid_token');
      const login = await api.request('/auth/login', { body: { email: viewer.email, password: viewer.password } });
      t.equal(login.status, 401);
      const gone = await api.request(`/users/${viewer.userId}`, { method: 'DELETE', token: owner.token });
      t.equal(gone.status, 404);
      t.equal(gone.body.code, 'user_not_found');
    });

    t.test('admins do everything but touch owners', async (t) => {
      const owner = await api.account();
      const admin = await addUser(api, owner, 'admin');
      const member = await addUser(api, owner, 'member');
      const patch = (token: string, userId: string, role: string) =>
        api.request(`/users/${userId}`, { method: 'PATCH', token, body: { role } });
      const demote = await patch(admin.token, owner.userId, 'member');
      t.equal(demote.status, 403);
      t.equal(demote.body.code, 'owner_only');
      t.match(demote.body.message, /only an owner may change or remove an owner/);
      const remove = await api.request(`/users/${owner.userId}`, { method: 'DELETE', token: admin.token });
      t.equal(remove.body.code, 'owner_only');
      t.equal((await patch(admin.token, member.userId, 'owner')).body.code, 'owner_only', 'nor make an owner');
      t.equal((await invite(admin.token, 'boss@example.com', 'owner')).body.code, 'owner_only', 'nor invite one');
      t.equal((await patch(admin.token, member.userId, 'viewer')).status, 200);
      t.equal((await invite(admin.token, 'helper@example.com', 'admin')).status, 201);
      t.equal((await api.request(`/users/${member.userId}`, { method: 'DELETE', token: admin.token })).status, 204);
      const me = await api.request('/me', { token: owner.token });
      t.equal(me.body.user.role, 'owner', 'the owner is still one');
    });

    t.test('the last owner can be neither removed nor demoted, even by two owners at once', async (t) => {
      const owner = await api.account();
      const self = await api.request(`/users/${owner.userId}`, {
        method: 'PATCH',
        token: owner.token,
        body: { role: 'admin' },
      });
      t.equal(self.status, 409);
      t.equal(self.body.code, 'last_owner');
      t.match(self.body.message, /make another user an owner first/);
      const removed = await api.request(`/users/${owner.userId}`, { method: 'DELETE', token: owner.token });
      t.equal(removed.body.code, 'last_owner');

      const second = await addUser(api, owner, 'owner');
      const [a, b] = await Promise.all([
        api.request(`/users/${second.userId}`, { method: 'PATCH', token: owner.token, body: { role: 'member' } }),
        api.request(`/users/${owner.userId}`, { method: 'PATCH', token: second.token, body: { role: 'member' } }),
      ]);
      // The loser is refused as the last owner, or as no owner any more (its role was just taken).
      const statuses = [a.status, b.status].sort();
      t.ok(statuses[0] === 200 && [403, 409].includes(statuses[1]!), `one of the two demotions wins: ${statuses}`);
      const users = await api.request('/users', { token: a.status === 200 ? owner.token : second.token });
      const owners = users.body.users.filter((u: { role: string }) => u.role === 'owner');
      t.equal(owners.length, 1, 'the account keeps an owner');
    });

    t.test('users and invites of another account are not found', async (t) => {
      const alice = await api.account();
      const bob = await api.account();
      const made = await invite(alice.token, 'carol@example.com', 'member');
      const probes = [
        api.request(`/users/${alice.userId}`, { method: 'PATCH', token: bob.token, body: { role: 'viewer' } }),
        api.request(`/users/${alice.userId}`, { method: 'DELETE', token: bob.token }),
        api.request(`/users/invites/${made.body.inviteId}`, { method: 'DELETE', token: bob.token }),
      ];
      for (const reply of await Promise.all(probes)) t.equal(reply.status, 404, reply.text);
      t.same((await api.request('/users/invites', { token: bob.token })).body.invites, []);
      const listed = (await api.request('/users', { token: bob.token })).body.users;
      t.same(
        listed.map((u: { email: string }) => u.email),
        [bob.email],
      );
    });
  });
}

t.test('an invite is mailed when SMTP is set, its link on the public URL', async (t) => {
  const smtp = await startSmtp(t);
  const api = await TestServer.start(t, 'sqlite', {
    smtpUrl: smtp.url,
    smtpFrom: 'pingmon@example.com',
    publicUrl: 'https://pingmon.example.com',
  });
  const owner = await api.account();
  const made = await api.request('/users/invites', {
    token: owner.token,
    body: { email: 'dora@example.com', role: 'viewer' },
  });
  t.equal(made.status, 201, made.text);
  t.equal(made.body.emailed, true);
  t.match(made.body.url, /^https:\/\/pingmon\.example\.com\/invite#[\w-]{40,}$/);
  const mail = await waitFor(() => smtp.received.find((m) => m.to.includes('dora@example.com')));
  t.match(mail.subject, /invited to a pingmon account/);
  t.ok(mail.text.includes(made.body.url), 'the mail holds the link');
  t.match(mail.text, new RegExp(`${owner.email} invites you .* as a viewer`));
});
