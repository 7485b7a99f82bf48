import t from 'tap';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { TestServer } from '../helpers/server.js';
import type { TestAccount } from '../helpers/server.js';

// A user's own sessions (docs/api.md#sessions): listed with where they came from, ended one by one or all but the
// current one, each refused at once.

const HEADER = { 'x-pingmon-request': '1' };

for (const kind of DATABASE_KINDS) {
  t.test(`a user's sessions on ${kind}`, async (t) => {
    const api = await TestServer.start(t, kind);
    const login = async (account: TestAccount, userAgent = 'test-agent/1.0'): Promise<string> => {
      const reply = await api.request('/auth/login', {
        body: { email: account.email, password: account.password },
        headers: { 'user-agent': userAgent },
      });
      t.equal(reply.status, 200, reply.text);
      return reply.body.token;
    };
    const sessionsOf = async (token: string) => {
      const reply = await api.request('/me/sessions', { token });
      t.equal(reply.status, 200, reply.text);
      return reply.body.sessions as { sessionId: string; current: boolean; [key: string]: unknown }[];
    };

    t.test(
      'GET /me/sessions lists the live ones, newest first, with address, client and the current marked',
      async (t) => {
        const account = await api.account();
        const laptop = await login(account, 'laptop-browser/2.0');
        const phone = await login(account, 'phone-app/3.1');
        const sessions = await sessionsOf(laptop);
        t.equal(sessions.length, 3, 'the helper login, the laptop and the phone');
        t.match(sessions[0], { userAgent: 'phone-app/3.1', address: '127.0.0.1', current: false, lastUsedAt: null });
        t.match(sessions[1], {
          sessionId: /^ses_/,
          userAgent: 'laptop-browser/2.0',
          current: true,
          createdAt: /Z$/,
          expiresAt: /Z$/,
          lastUsedAt: /Z$/,
        });
        t.same(
          sessions.map((s) => s.current),
          [false, true, false],
          'only the session of the request is current',
        );
        t.match((await sessionsOf(phone))[0], { userAgent: 'phone-app/3.1', current: true, lastUsedAt: /Z$/ });
        const out = await api.request('/auth/session', { method: 'DELETE', token: phone });
        t.equal(out.status, 204);
        t.equal((await sessionsOf(laptop)).length, 2, 'a session signed out is no longer listed');
      },
    );

    t.test('DELETE /me/sessions/:id ends that session at once, and only that one', async (t) => {
      const account = await api.account();
      const mine = await login(account);
      const stolen = await login(account, 'curl/8.0');
      const target = (await sessionsOf(mine)).find((s) => s.userAgent === 'curl/8.0')!;
      t.equal((await api.request('/monitors', { token: stolen })).status, 200);
      const revoked = await api.request(`/me/sessions/${target.sessionId}`, { method: 'DELETE', token: mine });
      t.equal(revoked.status, 204, revoked.text);
      const refused = await api.request('/monitors', { token: stolen });
      t.equal(refused.status, 401, 'its token is refused on the very next request');
      t.equal(refused.body.code, 'session_ended');
      t.equal((await api.request('/me', { token: mine })).status, 200, 'the session that revoked it goes on');
      t.equal((await api.request('/me', { token: account.token })).status, 200, 'and so do the others');
      const again = await api.request(`/me/sessions/${target.sessionId}`, { method: 'DELETE', token: mine });
      t.equal(again.status, 404, 'an ended session is not found');
      t.match(again.body, { code: 'session_not_found', message: /GET \/api\/v1\/me\/sessions/ });
    });

    t.test("another user's session cannot be revoked: 404, and it goes on", async (t) => {
      const alice = await api.account();
      const mallory = await api.account();
      const [aliceSession] = await sessionsOf(alice.token);
      const reply = await api.request(`/me/sessions/${aliceSession!.sessionId}`, {
        method: 'DELETE',
        token: mallory.token,
      });
      t.equal(reply.status, 404);
      t.equal(reply.body.code, 'session_not_found');
      t.equal((await api.request('/me', { token: alice.token })).status, 200);
      t.notOk(
        (await sessionsOf(mallory.token)).some((s) => s.sessionId === aliceSession!.sessionId),
        "nor is it listed among the other user's",
      );
    });

    t.test('DELETE /me/sessions signs out everywhere else', async (t) => {
      const account = await api.account();
      const others = [await login(account), await login(account)];
      const cookieReply = await api.request('/auth/session', {
        body: { email: account.email, password: account.password },
        headers: HEADER,
      });
      const cookie = cookieReply.headers.getSetCookie()[0]!.split(';')[0]!;
      const keep = await login(account);
      const reply = await api.request('/me/sessions', { method: 'DELETE', token: keep });
      t.equal(reply.status, 200, reply.text);
      t.same(reply.body, { ended: 4 }, 'the helper login, two logins and the dashboard');
      for (const token of [...others, account.token]) t.equal((await api.request('/me', { token })).status, 401);
      t.equal((await api.request('/me', { headers: { ...HEADER, cookie } })).status, 401, 'the dashboard too');
      t.equal((await api.request('/me', { token: keep })).status, 200, 'the current session goes on');
      t.same(
        (await sessionsOf(keep)).map((s) => s.current),
        [true],
      );
    });

    t.test('the sessions routes take a user, never an API key', async (t) => {
      const account = await api.account();
      const reply = await api.request('/me/sessions', { apiKey: account.apiKey });
      t.equal(reply.status, 401);
      t.equal(reply.body.code, 'user_token_required');
    });
  });
}
