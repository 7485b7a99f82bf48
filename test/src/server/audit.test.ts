import t from 'tap';
import { TestClock } from '../helpers/clock.js';
import { DATABASE_KINDS } from '../helpers/databases.js';
import type { RequestOptions } from '../helpers/http.js';
import { json, startReceiver } from '../helpers/receiver.js';
import { linkToken } from '../helpers/team.js';
import { codeAt } from '../helpers/totp.js';
import { TestServer } from '../helpers/server.js';

const DAY = 86_400_000;
const SESSION = { 'x-pingmon-request': '1' };
/** Every request comes through a proxy the server trusts, for this client. */
const CLIENT = '203.0.113.7';
const VIA_PROXY = { 'x-forwarded-for': `198.51.100.1, ${CLIENT}` };

interface Entry {
  entryId: string;
  at: string;
  actor: { type: string; id: string; name: string };
  address: string;
  action: string;
  target: { type: string; id: string; name: string | null } | null;
  monitorId: string | null;
  changes: Array<{ field: string; from: unknown; to: unknown }> | null;
}

for (const kind of DATABASE_KINDS) {
  t.test(`the audit trail on ${kind}`, async (t) => {
    const clock = new TestClock();
    const api = await TestServer.start(t, kind, {
      clock: clock.read,
      trustedProxies: ['127.0.0.1'],
      sweepIntervalMs: 3_600_000,
      pruneIntervalMs: 3_600_000,
      retentionMs: null,
      retentionRuns: null,
      auditRetentionMs: 30 * DAY,
    });
    const receiver = await startReceiver(t, (_req, _n, res) => json(res, 200, {}));

    const call = (account: { token: string }, path: string, options: RequestOptions = {}) =>
      api.request(path, { token: account.token, ...options, headers: { ...VIA_PROXY, ...options.headers } });
    const trail = async (account: { token: string }, query = ''): Promise<Entry[]> => {
      const reply = await call(account, `/audit${query}`);
      if (reply.status !== 200) throw new Error(`GET /audit${query}: ${reply.text}`);
      return reply.body.entries;
    };
    /** Every stored entry of the account, as the database holds it. */
    const stored = (accountId: string) =>
      api.query((knex) =>
        knex('audit_entries')
          .where({ account_id: accountId })
          .orderBy([{ column: 'at' }, 'id']),
      );

    t.test('every change made through the API is recorded once: who, from where, what', async (t) => {
      const account = await api.account();
      const who = { type: 'user', id: account.userId, name: account.email };
      const secret = 'whsec_TOPSECRET_1';
      const hook = { type: 'webhook', name: 'ops hook', url: `${receiver.url}/T0KEN-PATH-1`, secret };

      const monitor = (await call(account, '/monitors', { body: { name: 'nightly backup' } })).body;
      const m = monitor.monitorId as string;
      const patch = (body: object) => call(account, `/monitors/${m}`, { method: 'PATCH', body });
      t.equal((await patch({ name: 'nightly db backup', schedule: { every: 3600 } })).status, 200);
      t.equal((await patch({ name: 'nightly db backup' })).status, 200, 'a change that changes nothing');
      t.equal((await patch({ paused: true })).status, 200);
      t.equal((await patch({ paused: false })).status, 200);
      const until = new Date(clock.now + 3_600_000).toISOString();
      t.equal((await patch({ snoozedUntil: until })).status, 200);
      const rule = (await call(account, `/monitors/${m}/rules`, { body: { metric: 'rows', op: 'lt', value: 1 } })).body;
      t.equal((await call(account, `/monitors/${m}/rules/${rule.ruleId}`, { method: 'DELETE' })).status, 204);
      const channel = (await call(account, '/channels', { body: hook })).body;
      const ch = channel.channelId as string;
      const newHook = { secret: 'whsec_TOPSECRET_2', url: `${receiver.url}/T0KEN-PATH-2`, enabled: false };
      t.equal((await call(account, `/channels/${ch}`, { method: 'PATCH', body: newHook })).status, 200);
      t.equal((await call(account, `/channels/${ch}`, { method: 'PATCH', body: { enabled: true } })).status, 200);
      t.match((await call(account, `/channels/${ch}/test`, { method: 'POST' })).body, { delivered: true });
      t.equal((await call(account, `/channels/${ch}`, { method: 'DELETE' })).status, 204);
      const key = (await call(account, '/api-keys', { body: { name: 'ci' } })).body;
      t.equal((await call(account, `/api-keys/${key.keyId}`, { method: 'DELETE' })).status, 204);
      const window = { cron: '0 2 * * 0', timezone: 'Europe/Berlin', duration: 7200, monitorIds: [m] };
      const added = (await call(account, '/maintenance-windows', { body: window })).body;
      t.equal((await call(account, `/maintenance-windows/${added.windowId}`, { method: 'DELETE' })).status, 204);
      t.equal((await call(account, `/monitors/${m}`, { method: 'DELETE' })).status, 204);
      const newPassword = 'a whole new password';
      const change = { currentPassword: account.password, newPassword };
      t.equal((await call(account, '/me/password', { body: change })).status, 204);
      const signIn = { body: { email: account.email, password: newPassword }, headers: SESSION };
      const session = await call({ token: '' }, '/auth/session', signIn);
      t.equal(session.status, 200);
      const cookie = session.headers.getSetCookie()[0]!.split(';')[0]!;
      const signOut = { method: 'DELETE', headers: { ...SESSION, cookie } };
      t.equal((await call({ token: '' }, '/auth/session', signOut)).status, 204);
      t.equal((await call({ token: '' }, '/auth/session', signOut)).status, 204, 'signing out twice');
      const login = await call({ token: '' }, '/auth/login', { body: { email: account.email, password: newPassword } });
      const token = login.body.token as string;

      const entries = (await trail({ token }, '?limit=200')).reverse();
      t.same(
        entries.map((e) => e.action),
        [
          'user.signed_in', // api.account() signs in
          'monitor.created',
          'monitor.updated',
          'monitor.paused',
          'monitor.resumed',
          'monitor.snoozed',
          'rule.added',
          'rule.removed',
          'channel.added',
          'channel.updated',
          'channel.updated',
          'channel.tested',
          'channel.removed',
          'api_key.created',
          'api_key.revoked',
          'maintenance_window.added',
          'maintenance_window.removed',
          'monitor.deleted',
          'user.password_changed',
          'user.signed_in',
          'user.signed_out',
          'user.signed_in',
        ],
        'one entry per change, none for a change that changed nothing, a refused request or a second sign-out',
      );
      // The first, api.account()'s sign-in, came from the proxy itself.
      for (const entry of entries.slice(1)) {
        t.same(entry.actor, who, `${entry.action}: by the user, named by e-mail`);
        t.equal(entry.address, CLIENT, `${entry.action}: from the client the trusted proxy names`);
      }
      const byAction = (action: string) => entries.filter((e) => e.action === action);
      t.match(byAction('monitor.created')[0], { target: { type: 'monitor', id: m, name: 'nightly backup' } });
      const updated = byAction('monitor.updated')[0]!;
      t.match(updated, { target: { type: 'monitor', id: m, name: 'nightly db backup' }, monitorId: m });
      const changed = (entry: Entry, field: string) => entry.changes?.find((c) => c.field === field);
      t.same(changed(updated, 'name'), { field: 'name', from: 'nightly backup', to: 'nightly db backup' });
      t.match(changed(updated, 'schedule'), { from: null, to: { every: 3600 } });
      t.same(byAction('monitor.paused')[0]!.changes, [{ field: 'paused', from: false, to: true }]);
      t.same(byAction('monitor.snoozed')[0]!.changes, [{ field: 'snoozedUntil', from: null, to: until }]);
      t.match(byAction('rule.removed')[0], { target: { type: 'rule', id: rule.ruleId, name: /rows/ }, monitorId: m });
      const [secretChange, enabled] = byAction('channel.updated');
      t.match(secretChange, { target: { type: 'channel', id: ch, name: 'ops hook' } });
      t.same(
        secretChange!.changes!.map((c) => c.field).sort(),
        ['enabled', 'secret', 'url'],
        'the fields changed, secret and URL among them',
      );
      t.same(changed(secretChange!, 'secret'), { field: 'secret', from: '[masked]', to: '[masked]' });
      t.same(enabled!.changes, [{ field: 'enabled', from: false, to: true }]);
      t.match(byAction('channel.removed')[0], { target: { name: 'ops hook' }, changes: null });
      t.match(byAction('api_key.revoked')[0], { target: { type: 'api_key', id: key.keyId, name: /^ci \(/ } });
      t.match(byAction('maintenance_window.removed')[0], {
        target: { type: 'maintenance_window', id: added.windowId },
      });
      t.match(byAction('monitor.deleted')[0], { target: { id: m, name: 'nightly db backup' }, monitorId: m });
      t.match(byAction('user.password_changed')[0], { target: who });

      const text = JSON.stringify(await stored(account.accountId));
      for (const secretText of ['TOPSECRET', 'T0KEN', key.key, account.password, newPassword, token])
        t.notOk(text.includes(secretText), `no ${String(secretText).slice(0, 12)}… stored`);
    });

    t.test('teammates, the status page, sessions and the second factor are recorded too', async (t) => {
      const owner = await api.account();
      const me = { type: 'user', id: owner.userId, name: owner.email };
      const invited = await call(owner, '/users/invites', { body: { email: 'ada@example.com', role: 'viewer' } });
      t.equal(invited.status, 201, invited.text);
      const joined = await api.request('/auth/invites/accept', {
        body: { token: linkToken(invited.body.url), password: 'a fine password' },
        headers: VIA_PROXY,
      });
      t.equal(joined.status, 200, joined.text);
      const ada = joined.body.user.userId as string;
      const again = await call(owner, '/users/invites', { body: { email: 'bob@example.com', role: 'member' } });
      t.equal((await call(owner, `/users/invites/${again.body.inviteId}`, { method: 'DELETE' })).status, 204);
      t.equal((await call(owner, `/users/${ada}`, { method: 'PATCH', body: { role: 'member' } })).status, 200);
      t.equal((await call(owner, `/users/${ada}`, { method: 'DELETE' })).status, 204);
      const page = { slug: `audit-${kind}-${Date.now()}`, monitorIds: [] };
      t.equal((await call(owner, '/status-page', { method: 'PUT', body: page })).status, 200);
      const started = await call(owner, '/me/second-factor', { method: 'POST' });
      const code = codeAt(started.body.secret, clock.now);
      t.equal((await call(owner, '/me/second-factor/confirm', { body: { code } })).status, 200);
      const off = { password: owner.password };
      t.equal((await call(owner, '/me/second-factor/disable', { body: off })).status, 204);
      t.equal((await call(owner, '/me/sessions', { method: 'DELETE' })).status, 200);

      const entries = await trail(owner);
      const byAction = (action: string) => entries.filter((e) => e.action === action);
      t.match(byAction('user.invited'), [
        {
          actor: me,
          address: CLIENT,
          target: { type: 'invite', id: again.body.inviteId, name: 'bob@example.com (member)' },
        },
        { target: { type: 'invite', id: invited.body.inviteId, name: 'ada@example.com (viewer)' } },
      ]);
      t.match(byAction('invite.revoked'), [{ target: { id: again.body.inviteId, name: 'bob@example.com (member)' } }]);
      const newcomer = { type: 'user', id: ada, name: 'ada@example.com' };
      t.match(byAction('user.joined'), [{ actor: newcomer, address: CLIENT, target: newcomer }]);
      t.match(byAction('user.role_changed'), [
        { actor: me, target: newcomer, changes: [{ field: 'role', from: 'viewer', to: 'member' }] },
      ]);
      t.match(byAction('user.removed'), [{ actor: me, target: newcomer, changes: null }]);
      t.match(byAction('status_page.updated'), [{ actor: me, target: null }]);
      t.match(byAction('user.second_factor_enabled'), [{ actor: me, target: me }]);
      t.match(byAction('user.second_factor_disabled'), [{ actor: me, target: me }]);
      t.match(byAction('user.other_sessions_revoked'), [{ actor: me, target: me }]);
      const text = JSON.stringify(await stored(owner.accountId));
      for (const secretText of [linkToken(invited.body.url), started.body.secret, owner.password])
        t.notOk(text.includes(secretText), `no ${String(secretText).slice(0, 6)}… stored`);
    });

    t.test('failed sign-ins are recorded with the e-mail tried, never the password', async (t) => {
      const account = await api.account();
      const wrong = 'hunter2-is-wrong';
      const tries = [
        { path: '/auth/login', headers: {} },
        { path: '/auth/session', headers: SESSION },
      ];
      for (const { path, headers } of tries) {
        const body = { email: account.email.toUpperCase(), password: wrong };
        t.equal((await call({ token: '' }, path, { body, headers })).status, 401);
      }
      const unknown = { email: 'nobody-here@example.com', password: wrong };
      t.equal((await call({ token: '' }, '/auth/login', { body: unknown })).status, 401);
      const failed = await trail(account, '?action=user.sign_in_failed');
      t.equal(failed.length, 2, 'each one');
      for (const entry of failed) {
        t.match(entry, {
          actor: { type: 'user', id: account.userId, name: account.email },
          address: CLIENT,
          target: { type: 'user', id: account.userId },
        });
      }
      const all = await api.query((knex) => knex('audit_entries').select());
      t.notOk(JSON.stringify(all).includes(wrong), 'the password tried is nowhere');
      t.notOk(JSON.stringify(all).includes('nobody-here'), 'an unknown e-mail belongs to no account: not recorded');
    });

    t.test('a refused or failed request writes nothing', async (t) => {
      const account = await api.account();
      const other = await api.account();
      const m = await api.monitor(account);
      const before = (await stored(account.accountId)).length;
      const refused = [
        call(account, `/monitors/${m}`, { method: 'PATCH', body: { failureThreshold: 0 } }),
        call(account, '/monitors/mon_nope', { method: 'DELETE' }),
        call(account, '/channels', { body: { type: 'webhook', url: 'not a url' } }),
        call(other, `/monitors/${m}/rules`, { body: { metric: 'rows', op: 'lt', value: 1 } }),
        call(other, `/monitors/${m}`, { method: 'DELETE' }),
        call({ token: '' }, `/monitors/${m}`, { method: 'DELETE' }),
        call(account, '/api-keys/key_nope', { method: 'DELETE' }),
        call(account, '/me/password', { body: { currentPassword: 'wrong one', newPassword: 'long enough' } }),
      ];
      for (const reply of await Promise.all(refused)) t.ok(reply.status >= 400 && reply.status < 500, reply.text);
      t.equal((await stored(account.accountId)).length, before, 'no entry');
      t.equal((await stored(other.accountId)).length, 1, "nor in the other account's trail: its sign-in alone");
    });

    t.test("an account never sees another's entries", async (t) => {
      const alice = await api.account();
      const bob = await api.account();
      const m = await api.monitor(alice);
      t.equal((await call(alice, `/monitors/${m}`, { method: 'PATCH', body: { paused: true } })).status, 200);
      const seen = await trail(bob, '?limit=200');
      t.same(
        seen.map((e) => e.actor.id),
        [bob.userId],
        "bob's own sign-in only",
      );
      t.same(await trail(bob, `?monitor=${m}`), []);
      t.same(await trail(bob, `?actor=${encodeURIComponent(alice.email)}`), []);
      const byKey = await api.request('/audit', { apiKey: alice.apiKey });
      t.equal(byKey.status, 401, 'an API key (of pings) reads no trail');
    });

    t.test('pages newest first, and filters by action, actor, monitor and time', async (t) => {
      const account = await api.account();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        clock.advance(1000);
        ids.push(await api.monitor(account, `job ${i}`));
      }
      const paged: Entry[] = [];
      let cursor: string | null = '';
      while (cursor !== null) {
        const query: string = `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const reply = await call(account, `/audit${query}`);
        t.ok(reply.body.entries.length <= 2);
        paged.push(...reply.body.entries);
        cursor = reply.body.nextCursor;
      }
      t.equal(paged.length, 6, 'five creations and the sign-in, each once');
      t.same(
        paged.map((e) => e.target?.id ?? null),
        [...ids].reverse().concat(account.userId),
        'newest first',
      );
      t.equal((await trail(account, '?action=monitor.created')).length, 5);
      t.equal((await trail(account, '?action=monitor')).length, 5, 'every action of a kind');
      t.equal((await trail(account, '?action=user')).length, 1);
      t.equal((await trail(account, `?actor=${encodeURIComponent(account.email)}`)).length, 6);
      t.equal((await trail(account, `?actor=${account.userId}`)).length, 6);
      t.same(
        (await trail(account, `?monitor=${ids[0]}`)).map((e) => e.target?.id),
        [ids[0]],
      );
      t.same(
        (await trail(account, '?monitor=job-1')).map((e) => e.target?.id),
        [ids[1]],
        'by slug',
      );
      const since = new Date(clock.now - 1500).toISOString();
      t.equal((await trail(account, `?since=${since}`)).length, 2, 'the last two');
      const bad = await call(account, '/audit?cursor=nope');
      t.match(bad, { status: 400, body: { code: 'invalid_cursor' } });
      const badAction = await call(account, '/audit?action=Monitor%20paused');
      t.match(badAction, { status: 400, body: { message: /monitor\.paused/ } });
      const badSince = await call(account, '/audit?since=yesterday');
      t.match(badSince, { status: 400, body: { message: /ISO 8601/ } });
    });

    t.test("a key's ping settings are recorded when they change the monitor, never per ping", async (t) => {
      const account = await api.account();
      const settings = { monitor: { schedule: { every: 3600 }, startGrace: 300 } };
      const ping = (body: object) => api.ping(account, 'nightly-db', 'start', body, VIA_PROXY);
      t.equal((await ping(settings)).status, 200);
      clock.advance(120_000);
      t.equal((await ping(settings)).status, 200, 'the same settings again');
      clock.advance(120_000);
      t.equal((await ping({})).status, 200, 'no settings');
      clock.advance(120_000);
      t.equal((await ping({ monitor: { schedule: { every: 3600 }, startGrace: 600 } })).status, 200);
      const entries = (await trail(account, '?action=monitor')).reverse();
      const [prefix] = await api.query((knex) =>
        knex('api_keys').where({ account_id: account.accountId }).pluck('prefix'),
      );
      t.same(
        entries.map((e) => e.action),
        ['monitor.created', 'monitor.updated'],
      );
      for (const entry of entries) {
        t.match(entry, { actor: { type: 'api_key', name: prefix }, address: CLIENT, target: { name: 'nightly-db' } });
      }
      t.same(entries[1]!.changes, [{ field: 'startGrace', from: 300, to: 600 }]);
    });

    t.test('a change stands when its entry cannot be written', async (t) => {
      const account = await api.account();
      await api.query((knex) => knex.schema.renameTable('audit_entries', 'audit_entries_away'));
      try {
        const created = await call(account, '/monitors', { body: { name: 'unaudited' } });
        t.equal(created.status, 201, created.text);
        const found = await call(account, `/monitors/${created.body.monitorId}`);
        t.equal(found.status, 200, 'and it was made');
      } finally {
        await api.query((knex) => knex.schema.renameTable('audit_entries_away', 'audit_entries'));
      }
    });

    t.test('entries older than PINGMON_RETENTION_AUDIT_DAYS are pruned; the account takes its own', async (t) => {
      const account = await api.account();
      await api.monitor(account);
      clock.advance(31 * DAY);
      await api.monitor(account, 'recent');
      const pruned = await api.server.app.pruner.pruneNow();
      t.ok(pruned.auditEntries >= 2, `${pruned.auditEntries} pruned`);
      t.same(
        (await trail(account)).map((e) => e.target?.name),
        ['recent'],
      );
      await api.query(async (knex) => {
        if (kind === 'sqlite') await knex.raw('pragma foreign_keys = on');
        await knex('accounts').where({ id: account.accountId }).delete();
      });
      t.equal((await stored(account.accountId)).length, 0, 'deleted with the account');
    });
  });
}

t.test('PINGMON_RETENTION_AUDIT_DAYS: a year unless set, 0 keeping everything', async (t) => {
  const { loadConfig } = await import('@pingmon/server');
  t.equal(loadConfig({}).auditRetentionMs, 365 * DAY);
  t.equal(loadConfig({ PINGMON_RETENTION_AUDIT_DAYS: '7' }).auditRetentionMs, 7 * DAY);
  t.equal(loadConfig({ PINGMON_RETENTION_AUDIT_DAYS: '0' }).auditRetentionMs, null);
  t.throws(() => loadConfig({ PINGMON_RETENTION_AUDIT_DAYS: 'x' }), { message: /PINGMON_RETENTION_AUDIT_DAYS/ });
});
