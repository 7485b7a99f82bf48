import t from 'tap';
import type { Test } from 'tap';
import type { Page } from 'playwright-core';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { providerSettings, startIdentityProvider } from '../helpers/oidc-provider.js';
import type { ProviderUser } from '../helpers/oidc-provider.js';
import { finished, pingmon, spawnCli, waitForLine } from '../helpers/cli.js';
import { tempDir } from '../helpers/databases.js';
import { closedPort } from '../helpers/receiver.js';
import { TestServer } from '../helpers/server.js';
import { requireTools } from '../helpers/system-tools.js';

// Sign-in through a real OpenID Connect provider (oidc-provider, its development login and consent pages) from the
// dashboard, in Chromium (docs/configuration.md#single-sign-on).

const USERS: Record<string, ProviderUser> = {
  ada: { email: 'ada@acme.test' },
  grace: { email: 'grace@elsewhere.test', groups: ['pingmon-admins'] },
  mallory: { email: 'mallory@evil.test' },
};

async function start(t: Test, passwordSignIn: boolean) {
  const port = await closedPort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const idp = await startIdentityProvider(t, { redirectUri: `${publicUrl}/api/v1/auth/oidc/callback`, users: USERS });
  const oidc = providerSettings(idp, {
    scopes: 'openid email profile groups',
    allowedDomains: ['acme.test'],
    roles: { 'pingmon-admins': 'admin' },
  });
  const api = await TestServer.start(t, 'sqlite', { port, publicUrl, oidc, passwordSignIn });
  await api.account();
  return publicUrl;
}

/** The provider's own pages: any password, the login name picks the person; then its consent. */
async function signInAtProvider(page: Page, login: string) {
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('anything');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

if (requireTools(t, 'chromium'))
  t.test('sign-in through the identity provider, in Chromium', async (t) => {
    const browser = await launchBrowser(t);

    t.test('the button leads through the provider back to the page asked for, signed in', async (t) => {
      const origin = await start(t, true);
      const page = await openPage(t, browser);
      await page.goto(`${origin}/audit`);
      const button = page.getByRole('link', { name: 'Sign in with Acme SSO' });
      await button.waitFor();
      t.ok(await page.getByLabel('Email').isVisible(), 'the password form is there too');
      await button.click();
      await page.waitForURL((url) => !url.href.startsWith(origin));
      t.pass('at the provider');
      await signInAtProvider(page, 'grace');
      await page.waitForURL(`${origin}/audit`);
      await page.getByRole('heading', { name: 'Audit', exact: true }).waitFor();
      t.equal(await page.locator('.who').innerText(), 'grace@elsewhere.test', 'signed in as the provider said');
      await page.getByText('user.signed_in').first().waitFor();
      t.pass('an admin (mapped group) reads the audit trail, where the sign-in is');
    });

    t.test('with passwords off, the provider alone; someone it may not let in is told why', async (t) => {
      const origin = await start(t, false);
      const page = await openPage(t, browser);
      await page.goto(`${origin}/`);
      const button = page.getByRole('link', { name: 'Sign in with Acme SSO' });
      await button.waitFor();
      t.equal(await page.getByLabel('Email').count(), 0, 'no password form');
      await button.click();
      await signInAtProvider(page, 'mallory');
      const refusal = page.getByRole('alert');
      await refusal.waitFor();
      t.match(await refusal.innerText(), /mallory@evil\.test has no pingmon user/);
      await page.getByRole('link', { name: 'Back to sign-in' }).click();
      await page.getByRole('link', { name: 'Sign in with Acme SSO' }).waitFor();
      t.pass('back on the sign-in page');

      const other = await openPage(t, browser);
      await other.goto(`${origin}/`);
      await other.getByRole('link', { name: 'Sign in with Acme SSO' }).click();
      await signInAtProvider(other, 'ada');
      await other.waitForURL(`${origin}/`);
      await other.locator('.who', { hasText: 'ada@acme.test' }).waitFor();
      t.pass('someone of an allowed domain is in');

      // The CLI signs in through the same browser: pingmon login --browser, the page's Allow, a token of its own.
      const env = { XDG_CONFIG_HOME: tempDir('pingmon-config-') };
      const cli = spawnCli(['login', '--browser', '--url', origin], env);
      const ended = finished(cli);
      const [address] = await waitForLine(cli, /http:\/\/127\.0\.0\.1:\d+\/cli-sign-in\?\S+/);
      await other.goto(address);
      await other.getByText('asks to sign in as ada@acme.test').waitFor();
      await other.getByRole('button', { name: 'Allow' }).click();
      await other.getByText('Signed in as ada@acme.test. Close this tab').waitFor();
      const done = await ended;
      t.equal(done.code, 0, done.stderr);
      t.match(done.stdout, /Logged in as ada@acme\.test/);
      const listed = await pingmon(['sessions', 'list'], env);
      t.equal(listed.code, 0, listed.stderr);
      t.match(listed.stdout, /pingmon CLI on /, 'the CLI has a session of its own, named');
    });
  });
