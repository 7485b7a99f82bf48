import t from 'tap';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { TestServer } from '../helpers/server.js';
import type { TestAccount } from '../helpers/server.js';

const HEADER = { 'x-pingmon-request': '1' };

for (const kind of DATABASE_KINDS) {
  t.test(`sessions end at once on ${kind}`, async (t) => {
    const api = await TestServer.start(t, kind);

    /** A dashboard sign-in: the Cookie header that carries its session. */
    const signIn = async (account: TestAccount, password = account.password): Promise<string> => {
      const reply = await api.request('/auth/session', { body: { email: account.email, password }, headers: HEADER });
      t.equal(reply.status, 200, reply.text);
      const line = reply.headers.getSetCookie().find((c) => c.startsWith('pingmon_session='))!;
      return line.split(';')[0]!;
    };
    const login = async (account: TestAccount, password = account.password): Promise<string> => {
      const reply = await api.request('/auth/login', { body: { email: account.email, password } });
      t.equal(reply.status, 200, reply.text);
      return reply.body.token;
    };
    const meByCookie = (cookie: string) => api.request('/me', { headers: { ...HEADER, cookie } });
    const meByToken = (token: string) => api.request('/me', { token });

    t.test('signing out of the dashboard ends the cookie and the token in it', async (t) => {
      const account = await api.account();
      const cookie = await signIn(account);
      const other = await signIn(account);
      t.equal((await meByCookie(cookie)).status, 200);
      const out = await api.request('/auth/session', { method: 'DELETE', headers: { ...HEADER, cookie } });
      t.equal(out.status, 204);
      const after = await meByCookie(cookie);
      t.equal(after.status, 401, 'the old cookie, kept by whoever copied it, no longer signs in');
      t.match(after.body, { code: 'session_ended', message: /Sign in again/ });
      const asBearer = await meByToken(cookie.slice('pingmon_session='.length));
      t.equal(asBearer.status, 401, 'nor the token in it, sent as a bearer token');
      t.equal(asBearer.body.code, 'session_ended');
      t.equal((await meByCookie(other)).status, 200, "the user's other sessions go on");
      t.equal((await meByToken(account.token)).status, 200);
    });

    t.test('DELETE /auth/session with a bearer token ends that token', async (t) => {
      const account = await api.account();
      const token = await login(account);
      t.equal((await meByToken(token)).status, 200);
      const out = await api.request('/auth/session', { method: 'DELETE', token });
      t.equal(out.status, 204, 'no X-Pingmon-Request needed: another site cannot send a bearer token');
      t.equal(out.headers.getSetCookie().length, 0, 'no cookie touched');
      const after = await api.request('/monitors', { token });
      t.equal(after.status, 401);
      t.match(after.body, { code: 'session_ended', message: /pingmon login/ });
      t.equal((await meByToken(account.token)).status, 200, 'the login made before goes on');
      const again = await api.request('/auth/session', { method: 'DELETE', token });
      t.equal(again.status, 204, 'signing out twice is no error');
    });

    t.test('a new password ends every session of the user, by cookie and by token', async (t) => {
      const account = await api.account();
      const bystander = await api.account();
      const cookie = await signIn(account);
      const token = await login(account);
      const change = await api.request('/me/password', {
        token,
        body: { currentPassword: account.password, newPassword: 'a whole new password' },
      });
      t.equal(change.status, 204, change.text);
      for (const reply of [await meByCookie(cookie), await meByToken(token), await meByToken(account.token)]) {
        t.equal(reply.status, 401);
        t.equal(reply.body.code, 'session_ended');
      }
      t.equal((await meByToken(bystander.token)).status, 200, "other users' sessions go on");
      const old = await api.request('/auth/login', { body: { email: account.email, password: account.password } });
      t.equal(old.status, 401, 'the old password no longer signs in');
      t.equal((await meByToken(await login(account, 'a whole new password'))).status, 200);
    });

    t.test('a password change needs the current password and a new one of 8 characters', async (t) => {
      const account = await api.account();
      const wrong = await api.request('/me/password', {
        token: account.token,
        body: { currentPassword: 'not the password', newPassword: 'a whole new password' },
      });
      t.equal(wrong.status, 403);
      t.match(wrong.body, { success: false, code: 'wrong_password', message: /current password/ });
      const short = await api.request('/me/password', {
        token: account.token,
        body: { currentPassword: account.password, newPassword: 'short' },
      });
      t.equal(short.status, 400);
      t.match(short.body, { code: 'invalid_request', message: /newPassword/ });
      t.equal((await meByToken(account.token)).status, 200, 'a refused change ends nothing');
    });

    t.test('a login racing a password change never keeps a session', async (t) => {
      const survivors: number[] = [];
      for (let round = 0; round < 16; round++) {
        const account = await api.account();
        const body = { currentPassword: account.password, newPassword: 'a whole new password' };
        const change = api.request('/me/password', { token: account.token, body });
        // Staggered across the change's own password check (scrypt, tens of ms), where the two can interleave.
        await new Promise((resolve) => setTimeout(resolve, (round % 8) * 8));
        const login = await api.request('/auth/login', { body: { email: account.email, password: account.password } });
        t.equal((await change).status, 204);
        if (login.status === 200 && (await meByToken(login.body.token)).status === 200) survivors.push(round);
      }
      t.same(survivors, [], 'no login with the old password outlives the change');
    });

    t.test('the current password of a change is throttled with the logins of the same email', async (t) => {
      const account = await api.account();
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const body = { currentPassword: `guess-${i}-guess`, newPassword: 'a whole new password' };
        statuses.push((await api.request('/me/password', { token: account.token, body })).status);
      }
      t.same(statuses, [403, 403, 403, 403, 403, 429]);
      const login = await api.request('/auth/login', { body: { email: account.email, password: account.password } });
      t.equal(login.status, 429, 'the count is the one logins make');
      t.match(login.body, { code: 'too_many_login_attempts', message: /Wait \d+ seconds/ });
    });

    t.test("a removed user's cookie and token are refused at once", async (t) => {
      const account = await api.account();
      const cookie = await signIn(account);
      await api.query((knex) => knex('users').where({ id: account.userId }).del());
      for (const reply of [await meByCookie(cookie), await meByToken(account.token)]) {
        t.equal(reply.status, 401);
        t.match(reply.body, { code: 'invalid_token', message: /no longer exists/ });
      }
    });
  });
}

t.test('the cookie is Secure behind HTTPS, however the proxy writes it', async (t) => {
  const plain = await TestServer.start(t, 'sqlite');
  const trusting = await TestServer.start(t, 'sqlite', { trustedProxies: ['127.0.0.1'] });
  const secureOf = async (api: TestServer, headers: Record<string, string>) => {
    const account = await api.account();
    const reply = await api.request('/auth/session', {
      body: { email: account.email, password: account.password },
      headers: { ...HEADER, ...headers },
    });
    t.equal(reply.status, 200, reply.text);
    return /;\s*Secure/i.test(reply.headers.getSetCookie().join('\n'));
  };
  t.equal(await secureOf(plain, { 'x-forwarded-proto': 'HTTPS' }), true, 'X-Forwarded-Proto in any case');
  t.equal(await secureOf(plain, { 'x-forwarded-proto': 'http' }), false);
  t.equal(await secureOf(trusting, { forwarded: 'for=192.0.2.1;Proto=HTTPS, proto=http' }), true, 'RFC 7239');
  t.equal(await secureOf(trusting, { forwarded: 'for=192.0.2.1;proto="https"' }), true, 'a quoted value');
  t.equal(await secureOf(trusting, { forwarded: 'proto=http, proto=https' }), false, "the client's side counts");
  t.equal(await secureOf(plain, { forwarded: 'proto=https' }), false, 'Forwarded only from a trusted proxy');
});
