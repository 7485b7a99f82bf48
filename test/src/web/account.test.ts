import t from 'tap';
import type { Page } from 'playwright-core';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { TestClock } from '../helpers/clock.js';
import { TestServer } from '../helpers/server.js';
import type { TestAccount } from '../helpers/server.js';
import { requireTools } from '../helpers/system-tools.js';
import { codeAt, STEP_MS } from '../helpers/totp.js';
import { waitFor } from '../helpers/wait.js';

// The dashboard's sign-in with a second factor, and its account page (docs/dashboard.md#account), in Chromium.

if (requireTools(t, 'chromium'))
  t.test('the account page and the sign-in with a code, in Chromium', async (t) => {
    const clock = new TestClock(Date.parse('2027-03-27T12:00:15.000Z'));
    const api = await TestServer.start(t, 'sqlite', { clock: clock.read });
    const origin = api.url.replace(/\/api\/v1$/, '');
    const browser = await launchBrowser(t);
    const signIn = async (page: Page, account: TestAccount) => {
      await page.goto(`${origin}/account`);
      await page.getByLabel('Email').fill(account.email);
      await page.getByLabel('Password').fill(account.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
    };

    t.test('a second factor is added on the account page and asked for at the next sign-in', async (t) => {
      const account = await api.account();
      const page = await openPage(t, browser);
      await signIn(page, account);
      await page.getByRole('heading', { name: 'Account', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Add a second factor' }).click();
      const form = page.getByRole('form', { name: 'Turn the second factor on' });
      const secret = (await form.locator('code.secret').innerText()).trim();
      t.match(secret, /^[A-Z2-7]{32}$/);
      t.match(await form.locator('code.url').innerText(), /^otpauth:\/\/totp\//);
      const qr = form.getByRole('img', { name: /QR code of the URI/ });
      await qr.waitFor();
      const drawn = await qr.evaluate((img) => {
        const image = img as unknown as { decode(): Promise<void>; naturalWidth: number };
        return image.decode().then(() => image.naturalWidth);
      });
      t.ok(drawn > 0, 'a QR code of the URI is drawn on the page, no image service asked');
      await form.getByLabel('Code').fill(codeAt(secret, clock.now));
      await form.getByRole('button', { name: 'Turn on' }).click();
      const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
      await waitFor(async () => (await codes.count()) === 10, { what: 'ten recovery codes shown' });
      await page.getByText(/On: signing in asks for a code\. 10 recovery codes left\./).waitFor();
      clock.advance(STEP_MS);

      const next = await openPage(t, browser);
      await signIn(next, account);
      const code = next.getByLabel('Code of your authenticator app, or a recovery code');
      await code.waitFor();
      t.pass('the sign-in asks for the code');
      await code.fill(codeAt(secret, clock.now));
      await next.getByRole('button', { name: 'Sign in' }).click();
      await next.getByRole('heading', { name: 'Account', exact: true }).waitFor();
      t.pass('signed in with it, on the page asked for');

      const turnOff = next.getByRole('form', { name: 'Turn the second factor off' });
      await turnOff.getByLabel('Password').fill(account.password);
      await turnOff.getByRole('button', { name: 'Turn off' }).click();
      await next.getByRole('button', { name: 'Add a second factor' }).waitFor();
      const login = await api.request('/auth/login', { body: { email: account.email, password: account.password } });
      t.equal(login.status, 200, 'no code asked any more');
    });

    t.test('sessions are listed with the current one, and Revoke ends another at once', async (t) => {
      const account = await api.account();
      const page = await openPage(t, browser);
      await signIn(page, account);
      const sessions = page.getByRole('list', { name: 'Sessions' }).getByRole('listitem');
      await waitFor(async () => (await sessions.count()) === 2, { what: 'two sessions listed' });
      t.match(await sessions.first().innerText(), /This session/);
      t.match(await sessions.first().innerText(), /from 127\.0\.0\.1/);
      await sessions
        .nth(1)
        .getByRole('button', { name: /^Revoke/ })
        .click();
      await waitFor(async () => (await sessions.count()) === 1, { what: 'the revoked session gone from the list' });
      const refused = await api.request('/me', { token: account.token });
      t.equal(refused.status, 401);
      t.equal(refused.body.code, 'session_ended');

      const other = await api.request('/auth/login', { body: { email: account.email, password: account.password } });
      await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
      await page.getByText('Signed out of 1 other session.').waitFor();
      t.equal((await api.request('/me', { token: other.body.token })).status, 401);
    });

    t.test('changing the password signs this browser out too, saying why', async (t) => {
      const account = await api.account();
      const page = await openPage(t, browser);
      await signIn(page, account);
      const form = page.getByRole('form', { name: 'Change your password' });
      await form.getByLabel('Current password').fill(account.password);
      await form.getByLabel('New password (at least 8 characters)').fill('a whole new password');
      await form.getByLabel('New password again').fill('a whole new password');
      await form.getByRole('button', { name: 'Change password' }).click();
      await page.getByText(/Your session has ended .*Sign in again\./).waitFor();
      const login = await api.request('/auth/login', {
        body: { email: account.email, password: 'a whole new password' },
      });
      t.equal(login.status, 200);
    });
  });
