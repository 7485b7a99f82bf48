import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as client from 'openid-client';
import t from 'tap';
import type { Test } from 'tap';
import { reachProviderLogin, signInThroughProvider } from '../helpers/oidc-flow.js';
import { startIdentityProvider } from '../helpers/oidc-provider.js';
import { closedPort } from '../helpers/receiver.js';
import type { ProviderUser } from '../helpers/oidc-provider.js';

const USERS: Record<string, ProviderUser> = {
  ada: { email: 'ada@example.com', groups: ['ops', 'admins'], name: 'Ada' },
  bob: { email: 'bob@example.com', emailVerified: false },
};

/**
 * A relying party of a few lines with openid-client, in front of a provider made for it: /login sets a cookie
 * and redirects to the provider; /callback exchanges the code, reads userinfo, and redirects to /home.
 */
async function startRelyingParty(t: Test, options: { pkce?: boolean } = {}) {
  const base = `http://127.0.0.1:${await closedPort()}`;
  const provider = await startIdentityProvider(t, { redirectUri: `${base}/callback`, users: USERS });
  const config = await client.discovery(
    new URL(provider.issuer),
    provider.clientId,
    undefined,
    client.ClientSecretBasic(provider.clientSecret),
    { execute: [client.allowInsecureRequests] },
  );
  const pending = new Map<string, { verifier: string; state: string; nonce: string }>();
  const signedIn: client.UserInfoResponse[] = [];

  async function answer(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url!, base);
    if (url.pathname === '/login') {
      const id = randomBytes(12).toString('hex');
      const flow = {
        verifier: client.randomPKCECodeVerifier(),
        state: client.randomState(),
        nonce: client.randomNonce(),
      };
      pending.set(id, flow);
      const parameters: Record<string, string> = {
        redirect_uri: `${base}/callback`,
        scope: 'openid email profile groups',
        state: flow.state,
        nonce: flow.nonce,
      };
      if (options.pkce !== false) {
        parameters.code_challenge = await client.calculatePKCECodeChallenge(flow.verifier);
        parameters.code_challenge_method = 'S256';
      }
      const to = client.buildAuthorizationUrl(config, parameters);
      res.writeHead(302, { location: to.href, 'set-cookie': `rp=${id}; Path=/; HttpOnly` }).end();
      return;
    }
    const flow = pending.get(/(?:^|; )rp=(\w+)/.exec(req.headers.cookie ?? '')?.[1] ?? '');
    if (url.pathname !== '/callback' || flow === undefined) {
      res.writeHead(404).end();
      return;
    }
    try {
      const tokens = await client.authorizationCodeGrant(config, url, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
      });
      const userinfo = await client.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub);
      signedIn.push(userinfo);
      res.writeHead(303, { location: '/home', 'set-cookie': `who=${userinfo.sub}; Path=/` }).end();
    } catch (error) {
      // An error answer of the provider (AuthorizationResponseError) carries its error and error_description.
      res.writeHead(400).end(JSON.stringify({ ...(error as Error), name: (error as Error).name }));
    }
  }
  const server = createServer((req, res) => void answer(req, res));
  await new Promise<void>((resolve) => server.listen(Number(new URL(base).port), '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  return { base, provider, signedIn };
}

t.test('the discovery document names the issuer and offers S256', async (t) => {
  const provider = await startIdentityProvider(t, { redirectUri: 'http://127.0.0.1:9/callback', users: USERS });
  t.match(provider.issuer, /^http:\/\/127\.0\.0\.1:\d+$/);
  const response = await fetch(`${provider.issuer}/.well-known/openid-configuration`);
  t.equal(response.status, 200);
  const discovery = (await response.json()) as Record<string, unknown>;
  t.equal(discovery.issuer, provider.issuer);
  t.ok((discovery.code_challenge_methods_supported as string[]).includes('S256'));
  t.ok((discovery.scopes_supported as string[]).includes('groups'));
  t.ok((discovery.claims_supported as string[]).includes('email_verified'));
});

t.test('a code flow with PKCE reaches the callback, which reads the user of the login', async (t) => {
  const rp = await startRelyingParty(t);
  const answer = await signInThroughProvider(`${rp.base}/login`, 'ada');
  t.equal(answer.status, 303, answer.body);
  t.equal(answer.location, '/home');
  t.equal(answer.url.split('?')[0], `${rp.base}/callback`);
  t.same(answer.setCookies, ['who=ada; Path=/']);
  t.match(rp.signedIn, [{ sub: 'ada', email: 'ada@example.com', email_verified: true, groups: ['ops', 'admins'] }]);

  const bob = await signInThroughProvider(`${rp.base}/login`, 'bob');
  t.equal(bob.status, 303, bob.body);
  t.match(rp.signedIn[1], { sub: 'bob', email: 'bob@example.com', email_verified: false, groups: [] });
});

t.test('the flow can stop at the login page', async (t) => {
  const rp = await startRelyingParty(t);
  const page = await reachProviderLogin(`${rp.base}/login`);
  t.equal(page.status, 200);
  t.match(page.url, `${rp.provider.issuer}/interaction/`);
  t.match(page.body, 'name="login"');
});

t.test('an unknown login comes back to the callback as access_denied', async (t) => {
  const rp = await startRelyingParty(t);
  const answer = await signInThroughProvider(`${rp.base}/login`, 'mallory');
  t.equal(answer.status, 400);
  t.match(answer.url, /\/callback\?error=access_denied&/);
  t.match(JSON.parse(answer.body), { error: 'access_denied', error_description: 'no user "mallory" at this provider' });
  t.same(rp.signedIn, []);
});

t.test('a relying party without PKCE is refused', async (t) => {
  const rp = await startRelyingParty(t, { pkce: false });
  const answer = await signInThroughProvider(`${rp.base}/login`, 'ada');
  t.equal(answer.status, 400);
  t.match(JSON.parse(answer.body), { error: 'invalid_request', error_description: /requires PKCE/ });
  t.same(rp.signedIn, []);
});
