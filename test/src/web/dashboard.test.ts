import Jwt from '@hapi/jwt';
import t from 'tap';
import type { Page } from 'playwright-core';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { json, startReceiver } from '../helpers/receiver.js';
import { TestServer } from '../helpers/server.js';
import { requireTools } from '../helpers/system-tools.js';
import { waitFor } from '../helpers/wait.js';

// The dashboard in a real Chromium against a real server (SQLite: the pages read the same API on either database).

const SECRET = 'test-secret-that-is-long-enough-for-hs256-signing';
const XSS = '<script>window.__xss = 1; alert(1)</script> <img src=x onerror="window.__xss = 2; alert(2)">';
const LONG_LINE = 'x'.repeat(600);
/** 2,000 characters: colour codes, markup, a 600-character line, and an end marker only the whole log shows. */
const LONG_LOG = (() => {
  const head = `\x1b[31mERROR\x1b[0m starting backup\n${XSS}\n${LONG_LINE}\n`;
  const tail = 'END-OF-LOG';
  return head + 'copying files\n'.repeat(200).slice(0, 2000 - head.length - tail.length) + tail;
})();
const SHORT_LOG = `short log ${XSS} `.padEnd(300, '.');
/** When set (a directory), the run also saves the README's screenshots there. */
const SCREENSHOTS = process.env.PINGMON_SCREENSHOTS;

if (requireTools(t, 'chromium'))
  t.test('the web dashboard in Chromium', async (t) => {
    const api = await TestServer.start(t, 'sqlite', { jwtSecret: SECRET });
    const origin = api.url.replace(/\/api\/v1$/, '');
    const account = await api.account();
    const receiver = await startReceiver(t, (_req, _n, res) => json(res, 200, { ok: true }));
    const channel = await api.request('/channels', {
      token: account.token,
      body: { name: 'ops hook', type: 'webhook', url: `${receiver.url}/hook` },
    });
    t.equal(channel.status, 201, channel.text);

    const backup = await api.request('/monitors', {
      token: account.token,
      body: { name: 'nightly backup', schedule: { cron: '0 3 * * *', timezone: 'Europe/Berlin' } },
    });
    const monitorId: string = backup.body.monitorId;
    const run = async (runId: string, kind: 'success' | 'fail', body: Record<string, unknown> = {}) => {
      t.equal((await api.ping(account, monitorId, 'start', { runId })).status, 200);
      t.equal((await api.ping(account, monitorId, kind, { runId, ...body })).status, 200);
    };
    for (let i = 0; i < 4; i++) await run(`ok-run-${i}`, 'success', { meta: { rowsProcessed: 100 + i } });
    await run('short-log-run', 'fail', { errorMessage: 'exit code 3', logOutput: SHORT_LOG });
    await run('long-log-run', 'fail', { errorMessage: `exit code 1: ${XSS}`, logOutput: LONG_LOG });
    await api.monitor(account, 'hourly sync');
    const longRun = `${origin}/monitors/${monitorId}/runs/long-log-run`;
    const shortRun = `${origin}/monitors/${monitorId}/runs/short-log-run`;

    const browser = await launchBrowser(t);
    const dialogs: string[] = [];
    const open = async (t: Parameters<typeof openPage>[0], options = {}) => {
      const page = await openPage(t, browser, options);
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      return page;
    };
    const signIn = async (page: Page, password = account.password) => {
      await page.getByLabel('Email').fill(account.email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
    };
    const logText = (page: Page) => page.locator('pre.log-text').innerText();

    t.test('a wrong password shows the error; the right one opens the monitors', async (t) => {
      const page = await open(t);
      const response = await page.goto(`${origin}/`);
      t.match(response?.headers()['content-security-policy'], /script-src 'self'/);
      await signIn(page, 'not the password');
      await page.getByRole('alert').getByText('Wrong email or password.').waitFor();
      t.pass('the error is shown');
      await signIn(page);
      await page.getByRole('heading', { name: 'Monitors', exact: true }).waitFor();
      const rows = page.locator('table.monitors tbody tr');
      await waitFor(async () => (await rows.count()) === 2, { what: 'two monitors listed' });
      const backupRow = rows.filter({ hasText: 'nightly backup' });
      t.match(await backupRow.innerText(), /down|up/, 'its status');
      t.match(await backupRow.innerText(), /2 of 6 failed/, 'its recent failures');
      t.match(await backupRow.locator('svg.chart').getAttribute('aria-label'), /^Last 6 runs: 2 failed/, 'the chart');
      t.equal(await backupRow.locator('svg.chart path.bar-failed').count(), 1, 'with red bars');
      if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/dashboard-monitors.png` });
      t.match(await backupRow.innerText(), /nightly-backup/, 'its slug');
      await backupRow.getByRole('link', { name: 'nightly backup', exact: true }).click();
      await page.waitForURL(`${origin}/monitors/nightly-backup`);
      await page.getByRole('heading', { name: 'nightly backup', exact: true }).waitFor();
      t.match(
        await page.locator('dl.fields').innerText(),
        /Slug\s+nightly-backup/,
        "the slug in the monitor's URL and page",
      );
    });

    t.test('the failed runs of a monitor, and a 2,000-character log collapsed until expanded', async (t) => {
      const page = await open(t);
      await page.goto(`${origin}/monitors/${monitorId}`);
      await signIn(page);
      await page.getByRole('heading', { name: 'nightly backup', exact: true }).waitFor();
      await page.getByLabel('Failed only').check();
      await page.waitForURL(/status=failed/);
      const runs = page.locator('table.runs tbody tr');
      await waitFor(async () => (await runs.count()) === 2, { what: 'the two failed runs alone' });
      await page.getByRole('link', { name: 'Run long-log-run' }).click();
      await page.waitForURL(longRun);
      const expand = page.getByRole('button', { name: 'Expand' });
      await expand.waitFor();
      t.equal(await expand.getAttribute('aria-expanded'), 'false');
      const collapsed = await logText(page);
      t.ok(collapsed.length < 400, `collapsed, it shows the beginning only (${collapsed.length} characters)`);
      t.notMatch(collapsed, /END-OF-LOG/);
      t.match(collapsed, /ERROR starting backup/, 'the colour codes are removed');
      t.notMatch(collapsed, /\x1b/);
      if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/dashboard-run-collapsed.png`, fullPage: true });
      await expand.click();
      const whole = await logText(page);
      t.match(whole, /END-OF-LOG$/, 'expanded, the whole log');
      t.ok(whole.includes(LONG_LINE), 'the long line is all there');
      t.equal(await page.getByRole('button', { name: 'Collapse' }).getAttribute('aria-expanded'), 'true');
      if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/dashboard-run-expanded.png`, fullPage: true });
      await page.getByRole('button', { name: 'Collapse' }).click();
      t.notMatch(await logText(page), /END-OF-LOG/, 'and it collapses again');
    });

    t.test('a monitor is snoozed for an hour from its page, and the snooze ended again', async (t) => {
      const page = await open(t);
      await page.goto(`${origin}/monitors/${monitorId}`);
      await signIn(page);
      await page.getByRole('heading', { name: 'nightly backup', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Snooze for 1h' }).click();
      const end = page.getByRole('button', { name: 'End snooze' });
      await end.waitFor();
      const snoozed = (await api.request(`/monitors/${monitorId}`, { token: account.token })).body.snoozedUntil;
      t.ok(Math.abs(Date.parse(snoozed) - (Date.now() + 3_600_000)) < 60_000, 'snoozed for an hour on the server');
      t.match(await page.locator('dl.fields').innerText(), /Snooze\s+until \d{4}-\d\d-\d\d/);
      await end.click();
      await page.getByRole('button', { name: 'Snooze for 4h' }).waitFor();
      const after = (await api.request(`/monitors/${monitorId}`, { token: account.token })).body.snoozedUntil;
      t.equal(after, null, 'the snooze ended');
    });

    t.test('markup in a log or an error message is text, and runs nothing', async (t) => {
      const page = await open(t);
      await page.goto(longRun);
      await signIn(page);
      await page.getByRole('button', { name: 'Expand' }).click();
      t.ok((await logText(page)).includes(XSS), 'the log shows the markup as it was written');
      const error = await page.getByLabel('Error message').innerText();
      t.ok(error.includes(XSS), 'so does the error message');
      t.equal(await page.locator('main img, main script').count(), 0, 'no element was made of it');
      t.equal(await page.evaluate('typeof window.__xss'), 'undefined', 'no script ran');
      t.same(dialogs, [], 'no alert() was called');
    });

    t.test('a 300-character log is shown whole, without a button', async (t) => {
      const page = await open(t);
      await page.goto(shortRun);
      await signIn(page);
      await page.getByRole('heading', { name: 'Log', exact: true }).waitFor();
      t.equal(await logText(page), SHORT_LOG);
      t.equal(await page.getByRole('button', { name: /Expand|Collapse/ }).count(), 0);
    });

    t.test('a deep link survives a reload, and the refresh keeps an expanded log open', async (t) => {
      const page = await open(t);
      await page.goto(longRun);
      await signIn(page);
      await page.getByRole('button', { name: 'Expand' }).click();
      await page.reload();
      await page.getByRole('heading', { name: /^Failed run, / }).waitFor();
      await page.locator('dl.fields code', { hasText: 'long-log-run' }).waitFor();
      t.pass('the same run after a reload, still signed in');
      await page.getByRole('button', { name: 'Expand' }).click();
      // The page reads the run again by itself; the log stays as the reader left it.
      await page.waitForResponse((r) => r.url().endsWith('/runs/long-log-run') && r.status() === 200);
      await page.waitForResponse((r) => r.url().endsWith('/runs/long-log-run') && r.status() === 200);
      t.match(await logText(page), /END-OF-LOG$/, 'still expanded after two refreshes');
    });

    t.test('the keyboard alone opens a run and expands its log', async (t) => {
      const page = await open(t);
      await page.goto(`${origin}/monitors/${monitorId}?status=failed`);
      await signIn(page);
      const link = page.getByRole('link', { name: 'Run long-log-run' });
      await link.waitFor();
      const focused = async () => String(await page.evaluate("document.activeElement?.outerHTML ?? ''"));
      const tabTo = async (text: RegExp) => {
        for (let i = 0; i < 60 && !text.test(await focused()); i++) await page.keyboard.press('Tab');
        t.match(await focused(), text);
      };
      await tabTo(/^<a [^>]*aria-label="Run long-log-run"/);
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/runs\//);
      await page.getByRole('button', { name: 'Expand' }).waitFor();
      await tabTo(/^<button [^>]*>Expand<\/button>$/);
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Collapse' }).waitFor();
      t.pass('expanded from the keyboard');
    });

    t.test('an expired session goes back to sign-in with a message, then to the page asked for', async (t) => {
      const page = await open(t);
      const now = Math.floor(Date.now() / 1000);
      const claims = { sub: account.userId, acc: account.accountId, aud: 'pingmon', iss: 'pingmon' };
      const expired = Jwt.token.generate(
        { ...claims, iat: now - 100, exp: now - 10 },
        { key: SECRET, algorithm: 'HS256' },
      );
      await page.context().addCookies([{ name: 'pingmon_session', value: expired, url: origin }]);
      await page.goto(shortRun);
      await page.getByText('Your session has expired. Sign in again.').waitFor();
      await signIn(page);
      await page.locator('dl.fields code', { hasText: 'short-log-run' }).waitFor();
      t.pass('signed in again, on the deep link');
      // A session that ends while a page is open: the next refresh finds it gone.
      await page.context().addCookies([{ name: 'pingmon_session', value: expired, url: origin }]);
      await page.getByText('Your session has expired. Sign in again.').waitFor({ timeout: 20_000 });
      t.pass('the open page returned to sign-in');
      // The browser drops the cookie when the token expires (its Max-Age): no cookie after being signed in says so too.
      await signIn(page);
      await page.locator('dl.fields code', { hasText: 'short-log-run' }).waitFor();
      await page.context().clearCookies();
      await page.getByText('Your session has expired. Sign in again.').waitFor({ timeout: 20_000 });
      t.pass('a cookie gone while signed in is an expired session');
    });

    t.test('signing out ends the session, and a first visit asks to sign in without a message', async (t) => {
      const page = await open(t);
      await page.goto(`${origin}/alerts`);
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      t.equal(await page.locator('.notice').count(), 0, 'no message on a first visit');
      await signIn(page);
      await page.getByRole('heading', { name: 'Alerts', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByText('Signed out.').waitFor();
      t.same(await page.context().cookies(), [], 'the cookie is gone');
      await page.reload();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      t.pass('a reload stays signed out');
    });

    t.test('at 375 px wide nothing scrolls sideways, and dark mode follows the system', async (t) => {
      const page = await open(t, { viewport: { width: 375, height: 740 }, colorScheme: 'dark' });
      const overflow = () => page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
      await page.goto(`${origin}/`);
      t.equal(await overflow(), 0, 'sign-in');
      await signIn(page);
      await page.locator('table.monitors tbody tr').first().waitFor();
      t.equal(await overflow(), 0, 'monitors');
      await page.goto(longRun);
      await page.getByRole('button', { name: 'Expand' }).click();
      t.equal(await overflow(), 0, 'an expanded log with a 600-character line');
      const background = 'getComputedStyle(document.body).backgroundColor';
      const dark = await page.evaluate(background);
      await page.emulateMedia({ colorScheme: 'light' });
      const light = await page.evaluate(background);
      t.not(dark, light, `dark ${dark}, light ${light}`);
    });

    t.test('alerts with their deliveries; rules, a channel test and a new API key', async (t) => {
      const page = await open(t);
      await page.goto(`${origin}/alerts`);
      await signIn(page);
      const alerts = page.locator('ul.alerts > li');
      await waitFor(async () => (await alerts.filter({ hasText: 'delivered' }).count()) === 2, {
        what: 'the two fail alerts delivered to the webhook',
        timeoutMs: 30_000,
      });
      t.match(await alerts.first().innerText(), /fail\s+nightly backup/);

      await page.goto(`${origin}/monitors/${monitorId}`);
      await page.getByLabel('Metric').fill('rowsProcessed');
      await page.getByLabel('Value').fill('1');
      await page.getByRole('button', { name: 'Add rule' }).click();
      await page.locator('ul.items code', { hasText: 'rowsProcessed < 1' }).waitFor();
      t.pass('a rule added');

      await page.getByRole('link', { name: 'Channels' }).click();
      await page.getByRole('button', { name: 'Test ops hook' }).click();
      await page.getByText(/Test message delivered/).waitFor();
      t.ok(
        receiver.received.some((r) => r.url === '/hook' && r.body.includes('"test"')),
        'the receiver got the test',
      );

      await page.getByRole('link', { name: 'API keys' }).click();
      await page.getByLabel('Name').fill('backups host');
      await page.getByRole('button', { name: 'Create key' }).click();
      const key = await page.locator('.new-key .secret').innerText();
      t.match(key, /^pm_/, 'the new key is shown');
      const ping = await api.ping({ apiKey: key }, monitorId, 'start', {});
      t.equal(ping.status, 200, 'and works');
      await page.reload();
      await page.getByRole('button', { name: 'Revoke backups host' }).waitFor();
      t.equal(await page.locator('.new-key').count(), 0, 'shown once: not after a reload');
    });

    t.test("a schedule that does not fit its runs is pointed out on the monitor's page", async (t) => {
      const created = await api.request('/monitors', {
        token: account.token,
        body: { name: 'tz backup', schedule: { cron: '0 3 * * *' } },
      });
      const tzBackup: string = created.body.monitorId;
      // Five days of runs at 03:00 Europe/Berlin (01:00 or 02:00 UTC), sent late with their own times.
      const today = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
      for (let day = 5; day >= 1; day--) {
        const utc0300 = today - day * 86_400_000 + 3 * 3_600_000;
        const berlinHour = Number(
          new Date(utc0300).toLocaleString('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit' }),
        );
        const timestamp = new Date(utc0300 - (berlinHour - 3) * 3_600_000).toISOString();
        t.equal((await api.ping(account, tzBackup, 'success', { timestamp })).status, 200);
      }
      const page = await open(t);
      await page.goto(`${origin}/monitors/${tzBackup}`);
      await signIn(page);
      const hint = page.getByRole('note');
      await hint.waitFor();
      t.match(
        await hint.innerText(),
        /^Runs open about [12]h before the schedule's time; is the timezone Europe\/Berlin/,
      );
    });
  });
