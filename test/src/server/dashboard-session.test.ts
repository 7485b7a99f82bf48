import Jwt from '@hapi/jwt';
import t from 'tap';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { request } from '../helpers/http.js';
import { TestServer } from '../helpers/server.js';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-signing';
const HEADER = { 'x-pingmon-request': '1' };

/** The session cookie's value from a Set-Cookie header, with its attributes. */
function sessionCookie(headers: Headers): { value: string; attributes: string } | undefined {
  const line = headers.getSetCookie().find((c) => c.startsWith('pingmon_session='));
  if (!line) return undefined;
  const [pair, ...attributes] = line.split(';');
  return { value: pair!.slice('pingmon_session='.length), attributes: attributes.join(';') };
}

for (const kind of DATABASE_KINDS) {
  t.test(`the dashboard's session and pages on ${kind}`, async (t) => {
    const api = await TestServer.start(t, kind, { jwtSecret: SECRET });
    const account = await api.account();
    const origin = api.url.replace(/\/api\/v1$/, '');
    const credentials = { email: account.email, password: account.password };

    t.test('signing in sets an httpOnly SameSite=Strict cookie and answers no token', async (t) => {
      const reply = await api.request('/auth/session', { body: credentials, headers: HEADER });
      t.equal(reply.status, 200, reply.text);
      t.match(reply.body, { expiresAt: String, user: { email: account.email }, account: { plan: 'unlimited' } });
      t.notOk('token' in reply.body, 'the token is not in the body a script could read');
      const cookie = sessionCookie(reply.headers);
      t.ok(cookie, 'a session cookie is set');
      t.match(cookie!.attributes, /HttpOnly/);
      t.match(cookie!.attributes, /SameSite=Strict/);
      t.match(cookie!.attributes, /Path=\//);
      t.notMatch(cookie!.attributes, /Secure/, 'not Secure over plain HTTP');
      const secure = await api.request('/auth/session', {
        body: credentials,
        headers: { ...HEADER, 'x-forwarded-proto': 'https' },
      });
      t.match(sessionCookie(secure.headers)!.attributes, /Secure/, 'Secure behind an HTTPS proxy');
      const chained = await api.request('/auth/session', {
        body: credentials,
        headers: { ...HEADER, 'x-forwarded-proto': 'https, http' },
      });
      t.match(sessionCookie(chained.headers)!.attributes, /Secure/, 'the client-side protocol of a proxy chain');

      const me = await api.request('/me', { headers: { ...HEADER, cookie: `pingmon_session=${cookie!.value}` } });
      t.equal(me.status, 200, me.text);
      t.equal(me.body.user.email, account.email);
    });

    t.test('a request signed in by the cookie alone, without the header, is refused', async (t) => {
      const reply = await api.request('/auth/session', { body: credentials, headers: HEADER });
      const cookie = `pingmon_session=${sessionCookie(reply.headers)!.value}`;
      const read = await api.request('/me', { headers: { cookie } });
      t.equal(read.status, 403);
      t.match(read.body, { success: false, code: 'session_header_missing', message: /x-pingmon-request/ });
      const write = await api.request('/monitors', { body: { name: 'forged' }, headers: { cookie } });
      t.equal(write.status, 403, 'a cross-site form cannot create a monitor');
      const list = await api.request('/monitors', { token: account.token });
      t.equal(list.body.monitors.length, 0, 'nothing was created');
      const signIn = await api.request('/auth/session', { body: credentials });
      t.equal(signIn.status, 403, 'signing in needs the header too');
      t.notOk(sessionCookie(signIn.headers));
    });

    t.test('a wrong password is the login 401, and sets no cookie', async (t) => {
      const reply = await api.request('/auth/session', {
        body: { email: account.email, password: 'wrong wrong wrong' },
        headers: HEADER,
      });
      t.equal(reply.status, 401);
      t.match(reply.body, { code: 'invalid_credentials', message: 'Wrong email or password.' });
      t.notOk(sessionCookie(reply.headers));
    });

    t.test('an expired session says so; signing out clears the cookie', async (t) => {
      const now = Math.floor(Date.now() / 1000);
      const expired = Jwt.token.generate(
        { sub: account.userId, acc: account.accountId, aud: 'pingmon', iss: 'pingmon', iat: now - 100, exp: now - 10 },
        { key: SECRET, algorithm: 'HS256' },
      );
      const reply = await api.request('/me', { headers: { ...HEADER, cookie: `pingmon_session=${expired}` } });
      t.equal(reply.status, 401);
      t.match(reply.body, { code: 'token_expired', message: 'Your session has expired. Sign in again.' });
      const out = await api.request('/auth/session', {
        method: 'DELETE',
        headers: { ...HEADER, cookie: `pingmon_session=${expired}` },
      });
      t.equal(out.status, 204);
      t.match(out.headers.getSetCookie().join('\n'), /pingmon_session=;.*Max-Age=0/);
    });

    t.test('a bearer token still wins over a cookie, and an API key is still refused', async (t) => {
      const withBoth = await api.request('/me', {
        token: account.token,
        headers: { cookie: 'pingmon_session=garbage' },
      });
      t.equal(withBoth.status, 200);
      const session = await api.request('/auth/session', { body: credentials, headers: HEADER });
      const cookie = `pingmon_session=${sessionCookie(session.headers)!.value}`;
      const basic = await api.request('/me', { headers: { ...HEADER, cookie, authorization: 'Basic dXNlcjpwYXNz' } });
      t.equal(basic.status, 401, 'any Authorization header is judged alone, not the cookie');
      t.equal(basic.body.code, 'missing_token');
      const key = await api.request('/me', { apiKey: account.apiKey, headers: { cookie: 'pingmon_session=x' } });
      t.equal(key.status, 401);
      t.equal(key.body.code, 'user_token_required');
    });

    t.test('every page path is the dashboard, with a policy that forbids inline script', async (t) => {
      for (const path of ['/', '/monitors/mon_x/runs/run_y', '/alerts', '/keys?x=1']) {
        const page = await request(origin + path);
        t.equal(page.status, 200, path);
        t.match(page.headers.get('content-type'), /text\/html/);
        t.match(page.text, /<div id="root"><\/div>/);
        const csp = page.headers.get('content-security-policy') ?? '';
        t.match(csp, /script-src 'self'/, path);
        t.notMatch(csp, /unsafe-inline|unsafe-eval/);
        t.match(csp, /frame-ancestors 'none'/);
        t.equal(page.headers.get('x-content-type-options'), 'nosniff');
        t.equal(page.headers.get('cache-control'), 'no-cache', 'the page is revalidated, not stored for good');
        t.notMatch(page.text, /<script>|<script [^>]*>[^<]/, 'no inline script in the page');
      }
      const script = /src="(\/assets\/app-[^"]+\.js)"/.exec((await request(origin + '/')).text)?.[1];
      t.ok(script, 'the page loads its script from /assets');
      const asset = await request(origin + script!);
      t.equal(asset.status, 200);
      t.match(asset.headers.get('content-type'), /javascript/);
      t.match(asset.headers.get('cache-control'), /immutable/);
      const missing = await request(`${origin}/assets/nope.js`);
      t.equal(missing.status, 404);
      t.equal(missing.body.success, false);
      const traversal = await request(`${origin}/assets/..%2f..%2fpackage.json`);
      t.equal(traversal.status, 404, 'only the built files are served');
    });

    t.test('an unknown API path is the JSON 404, not the page', async (t) => {
      for (const [method, path] of [
        ['GET', '/api/v1/nope'],
        ['POST', '/api/v1/monitors/x/y/z'],
        ['GET', '/api'],
      ] as const) {
        const reply = await request(origin + path, { method });
        t.equal(reply.status, 404, `${method} ${path}`);
        t.match(reply.body, { success: false, code: 'not_found', message: /docs\/api\.md/ });
      }
      const post = await request(`${origin}/monitors`, { method: 'POST', body: {} });
      t.equal(post.status, 404, 'only GET serves the page');
    });

    t.test("the monitors list carries each monitor's latest runs when asked", async (t) => {
      const busy = await api.monitor(account, 'busy');
      const quiet = await api.monitor(account, 'quiet');
      for (let i = 0; i < 4; i++) {
        const runId = `run-history-${i}`;
        await api.ping(account, busy, 'start', { runId });
        await api.ping(account, busy, i % 2 ? 'fail' : 'success', { runId });
      }
      const plain = await api.request('/monitors', { token: account.token });
      t.notOk('history' in plain.body.monitors[0], 'not unless asked');
      const reply = await api.request('/monitors?history=3', { token: account.token });
      t.equal(reply.status, 200, reply.text);
      const byId = new Map(reply.body.monitors.map((m: { monitorId: string }) => [m.monitorId, m]));
      const history = (byId.get(busy) as { history: Array<Record<string, unknown>> }).history;
      t.same(
        history.map((p) => [p.runId, p.status]),
        [
          ['run-history-3', 'failed'],
          ['run-history-2', 'success'],
          ['run-history-1', 'failed'],
        ],
        'newest first, at most 3',
      );
      t.match(history[0], { startedAt: /Z$/, durationMs: Number, silentFailure: false });
      t.same((byId.get(quiet) as { history: unknown[] }).history, []);
      const tooMany = await api.request('/monitors?history=51', { token: account.token });
      t.equal(tooMany.status, 400);
    });
  });
}
