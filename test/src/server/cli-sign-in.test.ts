import { createHash, randomBytes } from 'node:crypto';
import t from 'tap';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { TestServer } from '../helpers/server.js';
import { addUser } from '../helpers/team.js';

// `pingmon login --browser`'s exchange (docs/cli.md#pingmon-login): a code made for a signed-in user, bound to the
// CLI's PKCE challenge, traded with the verifier for a session of its own.

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

for (const kind of DATABASE_KINDS) {
  t.test(`signing the CLI in from the dashboard on ${kind}`, async (t) => {
    const api = await TestServer.start(t, kind);
    const owner = await api.account();
    // The dashboard's session: the cookie and its header, never a bearer token.
    const session = (token: string) => ({ cookie: `pingmon_session=${token}`, 'x-pingmon-request': '1' });
    const codeFor = (token: string | undefined, challenge: string, apiKey?: string) =>
      api.request('/auth/cli/code', { apiKey, headers: token ? session(token) : {}, body: { challenge } });
    const trade = (body: object) => api.request('/auth/cli/token', { body });

    t.test('the code, with the verifier of its challenge, opens a session of its own', async (t) => {
      const { verifier, challenge } = pkce();
      const made = await codeFor(owner.token, challenge);
      t.equal(made.status, 200, made.text);
      t.equal(made.body.expiresInSeconds, 120);
      const used = await api.request('/me', { token: made.body.code });
      t.equal(used.status, 401, 'a code is no user token');
      const signedIn = await trade({ code: made.body.code, verifier, device: 'pingmon CLI on db-1' });
      t.equal(signedIn.status, 200, signedIn.text);
      t.match(signedIn.body, {
        token: String,
        user: { userId: owner.userId },
        account: { accountId: owner.accountId },
      });
      const again = await trade({ code: made.body.code, verifier });
      t.equal(again.status, 401, 'a code opens one session: traded again, refused');
      t.match(again.body, { code: 'invalid_cli_code', message: /used already/ });
      const sessions = await api.request('/me/sessions', { token: signedIn.body.token });
      const current = sessions.body.sessions.find((s: { current: boolean }) => s.current);
      t.equal(current.userAgent, 'pingmon CLI on db-1');
      const audit = await api.request('/audit?action=user.signed_in', { token: owner.token });
      t.ok(audit.body.entries.length >= 2, 'the CLI sign-in is in the audit trail');
    });

    t.test('a wrong verifier, a forged code or a removed user gets no session', async (t) => {
      const { challenge } = pkce();
      const made = await codeFor(owner.token, challenge);
      const wrong = await trade({ code: made.body.code, verifier: pkce().verifier });
      t.equal(wrong.status, 401);
      t.equal(wrong.body.code, 'invalid_cli_code');
      t.match(wrong.body.message, /pingmon login --browser/);
      const [head, payload] = made.body.code.split('.');
      const forged = await trade({ code: `${head}.${payload}.c2lnbmF0dXJl`, verifier: pkce().verifier });
      t.equal(forged.status, 401);

      const bearer = await api.request('/auth/cli/code', { token: owner.token, body: { challenge } });
      t.equal(bearer.status, 403, 'a bearer token makes no code: it could renew itself for ever');
      t.equal(bearer.body.code, 'dashboard_only');

      const browser = await api.request('/auth/login', { body: { email: owner.email, password: owner.password } });
      const ended = pkce();
      const endedCode = await codeFor(browser.body.token, ended.challenge);
      const signedOut = await api.request('/auth/session', { method: 'DELETE', token: browser.body.token });
      t.equal(signedOut.status, 204);
      const afterSignOut = await trade({ code: endedCode.body.code, verifier: ended.verifier });
      t.equal(afterSignOut.status, 401, 'the session that allowed it ended: its codes with it');

      const member = await addUser(api, owner, 'member');
      const mine = pkce();
      const memberCode = await codeFor(member.token, mine.challenge);
      t.equal(memberCode.status, 200, 'any signed-in user may sign their CLI in');
      const removed = await api.request(`/users/${member.userId}`, { method: 'DELETE', token: owner.token });
      t.equal(removed.status, 204);
      const gone = await trade({ code: memberCode.body.code, verifier: mine.verifier });
      t.equal(gone.status, 401, 'the user was removed meanwhile');
    });

    t.test('only a signed-in user makes a code, for a well-formed challenge', async (t) => {
      t.equal((await codeFor(undefined, pkce().challenge)).status, 401);
      const key = await codeFor(undefined, pkce().challenge, owner.apiKey);
      t.equal(key.status, 401, 'a ping key is no user');
      const short = await codeFor(owner.token, 'short');
      t.equal(short.status, 400);
      t.match(short.body.message, /challenge must be 43 to 128 characters/);
    });
  });
}
