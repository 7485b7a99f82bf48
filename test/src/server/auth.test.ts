import Jwt from '@hapi/jwt';
import type { RequestRoute, Server } from '@hapi/hapi';
import t from 'tap';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { TestServer } from '../helpers/server.js';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-signing';

function token(payload: Record<string, unknown>, secret = SECRET): string {
  return Jwt.token.generate(payload, { key: secret, algorithm: 'HS256' });
}

for (const kind of DATABASE_KINDS) {
  t.test(`login and user tokens on ${kind}`, async (t) => {
    const api = await TestServer.start(t, kind, { jwtSecret: SECRET });
    const account = await api.account('pro');

    t.test('login answers a token, its expiry, the user and the account', async (t) => {
      const reply = await api.request('/auth/login', {
        body: { email: account.email.toUpperCase(), password: account.password },
      });
      t.equal(reply.status, 200);
      t.match(reply.body, {
        token: String,
        expiresAt: /^\d{4}-.*Z$/,
        user: { userId: account.userId, email: account.email },
        account: { accountId: account.accountId, plan: 'pro' },
      });
      t.notOk(JSON.stringify(reply.body).includes('password'), 'no password hash in the reply');
      const me = await api.request('/me', { token: reply.body.token });
      t.equal(me.status, 200);
      t.same(me.body.user, reply.body.user);
      t.same(me.body.account, reply.body.account);
    });

    t.test('wrong password and unknown email give the same 401', async (t) => {
      const wrong = await api.request('/auth/login', { body: { email: account.email, password: 'nope nope nope' } });
      const unknown = await api.request('/auth/login', {
        body: { email: 'nobody@example.com', password: 'nope nope nope' },
      });
      t.equal(wrong.status, 401);
      t.equal(unknown.status, 401);
      t.equal(wrong.body.code, 'invalid_credentials');
      t.same(unknown.body, wrong.body);
    });

    t.test('a login body without email or password is a 400 naming the field', async (t) => {
      const reply = await api.request('/auth/login', { body: { email: account.email } });
      t.equal(reply.status, 400);
      t.equal(reply.body.code, 'invalid_request');
      t.match(reply.body.message, /password/);
    });

    t.test('repeated failed logins are throttled with 429 and Retry-After', async (t) => {
      const victim = await api.account();
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        statuses.push(
          (await api.request('/auth/login', { body: { email: victim.email, password: `wrong-${i}-password` } })).status,
        );
      }
      t.same(statuses, [401, 401, 401, 401, 401, 429]);
      const blocked = await api.request('/auth/login', { body: { email: victim.email, password: victim.password } });
      t.equal(blocked.status, 429, 'even the right password waits');
      t.equal(blocked.body.code, 'too_many_login_attempts');
      t.ok(Number(blocked.headers.get('retry-after')) > 0);
      t.match(blocked.body.message, /Wait \d+ seconds/);
      const other = await api.request('/auth/login', { body: { email: account.email, password: account.password } });
      t.equal(other.status, 200, 'other users are not affected');
    });

    t.test('a burst of parallel guesses is counted too', async (t) => {
      const victim = await api.account();
      const replies = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          api.request('/auth/login', { body: { email: victim.email, password: `guess-${i}-guess` } }),
        ),
      );
      const statuses = replies.map((r) => r.status).sort();
      t.same(statuses, [...Array(5).fill(401), ...Array(7).fill(429)]);
    });

    t.test('user-token endpoints refuse API keys with a message saying a user token is required', async (t) => {
      for (const headers of [{ 'x-api-key': account.apiKey }, { authorization: `Bearer ${account.apiKey}` }] as Array<
        Record<string, string>
      >) {
        const reply = await api.request('/me', { headers });
        t.equal(reply.status, 401);
        t.equal(reply.body.code, 'user_token_required');
        t.match(reply.body.message, /user token/);
      }
    });

    t.test('missing, forged, expired and foreign-audience tokens are 401', async (t) => {
      const now = Math.floor(Date.now() / 1000);
      const claims = { sub: account.userId, acc: account.accountId, aud: 'pingmon', iss: 'pingmon' };
      const cases: Array<[string | undefined, string]> = [
        [undefined, 'missing_token'],
        ['not-a-jwt', 'invalid_token'],
        [token({ ...claims, exp: now + 60 }, 'another-secret-another-secret-another-secret'), 'invalid_token'],
        [token({ ...claims, iat: now - 120, exp: now - 60 }), 'token_expired'],
        [token({ ...claims, aud: 'someone-else', exp: now + 60 }), 'invalid_token'],
      ];
      for (const [value, code] of cases) {
        const reply = await api.request('/me', { token: value });
        t.equal(reply.status, 401, code);
        t.equal(reply.body.code, code);
      }
      const expired = await api.request('/me', { token: token({ ...claims, iat: now - 120, exp: now - 60 }) });
      t.match(expired.body.message, /log in again/i);
      t.equal((await api.request('/me', { token: account.token })).status, 200, "the server's own token works");
      const unopened = await api.request('/me', { token: token({ ...claims, sid: 'ses_made_up', exp: now + 60 }) });
      t.equal(unopened.status, 401, 'a well-signed token for a session the server never opened is refused');
      t.equal(unopened.body.code, 'session_ended');
      const noSession = await api.request('/me', { token: token({ ...claims, exp: now + 60 }) });
      t.equal(noSession.body.code, 'invalid_token', 'so is one that names no session (made before sessions)');
    });

    t.test('a well-signed token without an expiry is refused: it would never expire', async (t) => {
      const claims = { sub: account.userId, acc: account.accountId, aud: 'pingmon', iss: 'pingmon' };
      for (const payload of [claims, { ...claims, iat: Math.floor(Date.now() / 1000) }, { ...claims, exp: 'never' }]) {
        const reply = await api.request('/monitors', { token: token(payload) });
        t.equal(reply.status, 401, JSON.stringify(payload));
        t.equal(reply.body.code, 'invalid_token');
      }
    });

    t.test('every user endpoint refuses the token of a user or an account deleted since the login', async (t) => {
      const ofDeletedUser = await api.account();
      const ofDeletedAccount = await api.account();
      const monitorId = await api.monitor(ofDeletedUser);
      const otherUser = await api.monitor(ofDeletedAccount);
      await api.query((knex) => knex('users').where({ id: ofDeletedUser.userId }).del());
      // Deleted on a connection of its own, which on SQLite does not cascade: the account goes, its user row stays.
      await api.query((knex) => knex('accounts').where({ id: ofDeletedAccount.accountId }).del());
      // Every route of the server that takes a user token, so that a route added later is covered too.
      const routes = api.server.table().filter((route) => strategiesOf(api.server, route).includes('user'));
      t.ok(routes.length >= 20, `${routes.length} user routes`);
      for (const [gone, monitor] of [
        [ofDeletedUser, monitorId],
        [ofDeletedAccount, otherUser],
      ] as const) {
        for (const route of routes) {
          const path = route.path
            .replace('/api/v1', '')
            .replace('{monitorId}', monitor)
            .replace(/\{\w+\}/g, 'x_1');
          const reply = await api.request(path, { method: route.method.toUpperCase(), token: gone.token });
          t.equal(reply.status, 401, `${route.method} ${path}`);
          t.equal(reply.body.code, 'invalid_token', `${route.method} ${path}`);
          t.match(reply.body.message, /no longer exists/);
        }
      }
      t.equal((await api.request('/me', { token: account.token })).status, 200, 'other users are not affected');
      const ping = await api.ping(ofDeletedUser, monitorId, 'start');
      t.equal(ping.status, 200, "the account's API keys still ping: a key belongs to the account, not to a user");
    });
  });
}

/** The auth strategies of a route, defaults applied: hapi's server.auth.lookup, which its types leave out. */
function strategiesOf(server: Server, route: RequestRoute): string[] {
  const lookup = server.auth as unknown as { lookup(route: RequestRoute): { strategies: string[] } | false };
  const auth = lookup.lookup(route);
  return auth ? auth.strategies : [];
}

t.test(
  'without PINGMON_JWT_SECRET the generated secret is shared by servers on one database and survives restarts',
  async (t) => {
    const first = await TestServer.start(t, 'sqlite');
    const account = await first.account();
    await first.server.stop();
    const { createServer } = await import('@pingmon/server');
    const second = await createServer(first.config);
    await second.start();
    t.teardown(() => second.stop());
    const me = await fetch(`${second.info.uri}/api/v1/me`, { headers: { authorization: `Bearer ${account.token}` } });
    t.equal(me.status, 200);
  },
);
