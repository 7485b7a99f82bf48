import t from 'tap';
import type { Test } from 'tap';
import type { OidcSettings } from '@pingmon/server';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { providerSettings, startIdentityProvider } from '../helpers/oidc-provider.js';
import { closedPort } from '../helpers/receiver.js';
import type { ProviderUser } from '../helpers/oidc-provider.js';
import { signInThroughProvider } from '../helpers/oidc-flow.js';
import { TestServer } from '../helpers/server.js';
import { linkToken } from '../helpers/team.js';

const CALLBACK = '/api/v1/auth/oidc/callback';

/** A pingmon server and a real provider that know each other's addresses. */
async function setUp(
  t: Test,
  kind: (typeof DATABASE_KINDS)[number],
  users: Record<string, ProviderUser>,
  settings: Partial<OidcSettings> = {},
  overrides: { passwordSignIn?: boolean } = {},
) {
  const port = await closedPort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const idp = await startIdentityProvider(t, { redirectUri: `${publicUrl}${CALLBACK}`, users });
  const oidc = providerSettings(idp, {
    scopes: 'openid email profile groups',
    allowedDomains: ['acme.test'],
    roles: { 'pingmon-admins': 'admin', 'pingmon-owners': 'owner' },
    ...settings,
  });
  const api = await TestServer.start(t, kind, { port, publicUrl, oidc, ...overrides });
  return { api, idp, start: (next = '') => `${api.url}/auth/oidc/start${next}` };
}

/** The user token of the session cookie a callback set. */
function sessionToken(setCookies: string[]): string | undefined {
  const cookie = setCookies.find((line) => line.startsWith('pingmon_session='));
  return cookie?.slice('pingmon_session='.length).split(';')[0];
}

for (const kind of DATABASE_KINDS) {
  t.test(`sign-in through an identity provider on ${kind}`, async (t) => {
    const users: Record<string, ProviderUser> = {
      ada: { email: 'Ada@Acme.test' },
      grace: { email: 'grace@elsewhere.test', groups: ['pingmon-admins', 'readers'] },
      mallory: { email: 'mallory@evil.test' },
      eve: { email: 'eve@acme.test', emailVerified: false },
      bob: { email: 'bob@elsewhere.test' },
    };
    const { api, start } = await setUp(t, kind, users);
    const owner = await api.account();
    users.owner = { email: owner.email };
    const me = (token: string | undefined) => api.request('/me', { token });

    t.test('the sign-in page learns of the provider', async (t) => {
      const methods = await api.request('/auth/methods');
      t.same(methods.body, { password: true, provider: { name: 'Acme SSO', start: '/api/v1/auth/oidc/start' } });
      const started = await fetch(start(), { redirect: 'manual' });
      t.equal(started.status, 302);
      const to = new URL(started.headers.get('location')!);
      t.equal(to.searchParams.get('code_challenge_method'), 'S256', 'PKCE');
      t.ok(to.searchParams.get('code_challenge'));
      t.ok(to.searchParams.get('state'));
      t.ok(to.searchParams.get('nonce'));
      t.equal(to.searchParams.get('redirect_uri'), `${new URL(api.url).origin}${CALLBACK}`);
      const pending = started.headers.getSetCookie().find((c) => c.startsWith('pingmon_oidc='));
      t.match(pending, /HttpOnly/);
      t.match(pending, /SameSite=Lax/);
      t.notMatch(pending, new RegExp(to.searchParams.get('state')!), 'the state is sealed in the cookie, not readable');
    });

    t.test('someone of an allowed domain joins as the default role, and lands where they were going', async (t) => {
      const back = await signInThroughProvider(start('?next=/monitors%3Fstatus%3Ddown'), 'ada');
      t.equal(back.status, 302, back.body);
      t.equal(back.location, '/monitors?status=down');
      const token = sessionToken(back.setCookies);
      t.match(
        back.setCookies.find((c) => c.startsWith('pingmon_session=')),
        /HttpOnly; SameSite=Strict/,
      );
      const ada = await me(token);
      t.equal(ada.status, 200, ada.text);
      t.match(ada.body.user, { email: 'ada@acme.test', role: 'viewer' });
      t.equal(ada.body.account.accountId, owner.accountId);
      const again = await signInThroughProvider(start(), 'ada');
      t.equal(again.location, '/', 'no next: the first page');
      t.equal((await me(sessionToken(again.setCookies))).body.user.userId, ada.body.user.userId, 'the same user');
      const password = await api.request('/auth/login', { body: { email: 'ada@acme.test', password: '' } });
      t.equal(password.status, 400, 'no password of theirs to sign in with');
    });

    t.test('a mapped group gives its role, kept in step at each sign-in', async (t) => {
      const first = await me(sessionToken((await signInThroughProvider(start(), 'grace')).setCookies));
      t.match(first.body.user, { email: 'grace@elsewhere.test', role: 'admin' });
      users.grace!.groups = ['pingmon-owners', 'pingmon-admins'];
      const promoted = await me(sessionToken((await signInThroughProvider(start(), 'grace')).setCookies));
      t.equal(promoted.body.user.role, 'owner', 'the highest role mapped');
      users.grace!.groups = ['pingmon-admins'];
      const demoted = await me(sessionToken((await signInThroughProvider(start(), 'grace')).setCookies));
      t.equal(demoted.body.user.role, 'admin');
      users.grace!.groups = [];
      const unmapped = await me(sessionToken((await signInThroughProvider(start(), 'grace')).setCookies));
      t.equal(unmapped.body.user.role, 'viewer', 'in no mapped group: the default role');
      const audit = await api.request('/audit?action=user.role_changed', { token: owner.token });
      t.match(audit.body.entries[0], {
        actor: { name: 'grace@elsewhere.test' },
        target: { name: 'grace@elsewhere.test' },
        changes: [{ field: 'role', from: 'admin', to: 'viewer' }],
      });
    });

    t.test('an existing user signs in as themselves', async (t) => {
      const back = await signInThroughProvider(start(), 'owner');
      const signedIn = await me(sessionToken(back.setCookies));
      t.match(signedIn.body.user, { userId: owner.userId, role: 'owner' });
      const login = await api.request('/auth/login', { body: { email: owner.email, password: owner.password } });
      t.equal(login.status, 200, 'their password still works too');
    });

    t.test('an invite of another domain is honoured, with its role', async (t) => {
      const invited = await api.request('/users/invites', {
        token: owner.token,
        body: { email: 'bob@elsewhere.test', role: 'member' },
      });
      t.equal(invited.status, 201, invited.text);
      const bob = await me(sessionToken((await signInThroughProvider(start(), 'bob')).setCookies));
      t.match(bob.body.user, { email: 'bob@elsewhere.test', role: 'member' });
      const pending = await api.request('/users/invites', { token: owner.token });
      t.same(pending.body.invites, [], 'the invite is used up');
      const link = await api.request('/auth/invites/lookup', { body: { token: linkToken(invited.body.url) } });
      t.equal(link.status, 410, 'its link no longer works');
    });

    t.test('someone neither known, invited, mapped nor of an allowed domain is refused', async (t) => {
      const back = await signInThroughProvider(start(), 'mallory');
      t.equal(back.status, 403);
      t.match(back.headers.get('content-type'), /text\/html/);
      t.match(back.body, /mallory@evil\.test has no pingmon user/);
      t.match(back.body, /pingmon users invite/);
      t.equal(sessionToken(back.setCookies), undefined, 'no session');
      const users = await api.request('/users', { token: owner.token });
      t.notOk(
        users.body.users.some((u: { email: string }) => u.email === 'mallory@evil.test'),
        'no user made',
      );
    });

    t.test('an e-mail the provider does not say it verified is refused', async (t) => {
      const back = await signInThroughProvider(start(), 'eve');
      t.equal(back.status, 403);
      t.match(back.body, /does not say it verified eve@acme\.test/);
    });

    t.test("a user's address from another identity at the provider does not open their user", async (t) => {
      users.impostor = { email: 'ADA@acme.test' };
      const back = await signInThroughProvider(start(), 'impostor');
      t.equal(back.status, 403);
      t.match(back.body, /ada@acme\.test is linked to another identity at the provider/);
      t.equal(sessionToken(back.setCookies), undefined);
      const audit = await api.request('/audit?action=user.sign_in_failed', { token: owner.token });
      t.equal(audit.body.entries[0]?.actor.name, 'ada@acme.test', 'the attempt is in the trail');
    });

    t.test('a callback without the sign-in started here is refused', async (t) => {
      const forged = await fetch(`${api.url}/auth/oidc/callback?code=stolen&state=guessed`, { redirect: 'manual' });
      t.equal(forged.status, 403);
      t.match(await forged.text(), /not started here/);
      for (const next of ['//evil.example/x', '/\t/evil.example', '/\\evil.example', 'https://evil.example/']) {
        const back = await signInThroughProvider(start(`?next=${encodeURIComponent(next)}`), 'ada');
        t.equal(back.location, '/', `${next}: a next of another site lands on the first page`);
      }
    });

    t.test('sign-ins through the provider are in the audit trail', async (t) => {
      const audit = await api.request('/audit?action=user.signed_in', { token: owner.token });
      const names = audit.body.entries.map((e: { actor: { name: string } }) => e.actor.name);
      t.ok(names.includes('ada@acme.test'), names.join(', '));
      t.ok(names.includes('bob@elsewhere.test'));
    });

    t.test('with two accounts and none named, the operator must name one', async (t) => {
      await api.account();
      const back = await signInThroughProvider(start(), 'ada');
      t.equal(back.status, 403);
      t.match(back.body, /PINGMON_OIDC_ACCOUNT/);
    });
  });

  t.test(`password sign-in turned off on ${kind}`, async (t) => {
    const { api, start } = await setUp(t, kind, { ada: { email: 'ada@acme.test' } }, {}, { passwordSignIn: false });
    // The operator's create-account works with passwords off; its user then signs in through the provider.
    const owner = await api.account();
    const methods = await api.request('/auth/methods');
    t.same(methods.body, { password: false, provider: { name: 'Acme SSO', start: '/api/v1/auth/oidc/start' } });
    for (const path of ['/auth/login', '/auth/session']) {
      const refused = await api.request(path, {
        body: { email: owner.email, password: owner.password },
        headers: { 'x-pingmon-request': '1' },
      });
      t.equal(refused.status, 403, path);
      t.equal(refused.body.code, 'password_sign_in_off');
      t.match(refused.body.message, /sign in through Acme SSO/);
    }
    const back = await signInThroughProvider(start(), 'ada');
    const ada = await api.request('/me', { token: sessionToken(back.setCookies) });
    t.equal(ada.body.user.role, 'viewer');
  });
}

t.test('the provider unreachable, or not set up', async (t) => {
  const port = await closedPort();
  const api = await TestServer.start(t, 'sqlite', {
    publicUrl: 'http://127.0.0.1:1',
    oidc: providerSettings({ issuer: `http://127.0.0.1:${port}`, clientId: 'pingmon', clientSecret: undefined }),
  });
  const down = await fetch(`${api.url}/auth/oidc/start`, { redirect: 'manual' });
  t.equal(down.status, 502);
  const page = await down.text();
  t.match(page, /The identity provider could not be reached/);
  t.notMatch(page, new RegExp(String(port)), "the provider's address stays in the operator's log");

  const plain = await TestServer.start(t, 'sqlite');
  const none = await fetch(`${plain.url}/auth/oidc/start`, { redirect: 'manual' });
  t.equal(none.status, 404);
  t.match(await none.text(), /no identity provider set up/);
  const methods = await plain.request('/auth/methods');
  t.same(methods.body, { password: true, provider: null });
});
