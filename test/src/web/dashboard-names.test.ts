import t from 'tap';
import type { Page } from 'playwright-core';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { json, startReceiver } from '../helpers/receiver.js';
import { TestServer } from '../helpers/server.js';
import { requireTools } from '../helpers/system-tools.js';
import { waitFor } from '../helpers/wait.js';

// Monitor, channel and API key names (and rule metrics) are typed by any member of the account or sent with an API
// key: the dashboard shows them without control characters, as docs/dashboard.md says, in the page and in its
// confirmation dialogs. Its own file: dashboard.test.ts is past 250 lines.

/** Erase the screen, an OSC title, a bell, an 8-bit CSI (C1) and a right-to-left override. */
const HOSTILE = '\x1b[2J\x1b]0;pwned\x07\x07\x9b31m\u202e';
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

if (requireTools(t, 'chromium'))
  t.test('the dashboard shows names without their control characters', async (t) => {
    const api = await TestServer.start(t, 'sqlite', { alertPollMs: 50 });
    const origin = api.url.replace(/\/api\/v1$/, '');
    const account = await api.account();
    const receiver = await startReceiver(t, (_req, _n, res) => json(res, 200, {}));
    const post = async (path: string, body: unknown) => {
      const reply = await api.request(path, { token: account.token, body });
      t.equal(reply.status, 201, `POST ${path}`);
      return reply.body;
    };
    await post('/channels', { name: `ops ${HOSTILE}hook`, type: 'webhook', url: `${receiver.url}/hook` });
    const { monitorId } = await post('/monitors', { name: `nightly ${HOSTILE}backup` });
    await post(`/monitors/${monitorId}/rules`, { metric: `rows${HOSTILE}`, op: 'lt', value: 1 });
    await post('/api-keys', { name: `host ${HOSTILE}a` });
    t.equal((await api.ping(account, monitorId, 'start', { runId: 'hostile-run' })).status, 200);
    t.equal(
      (await api.ping(account, monitorId, 'fail', { runId: 'hostile-run', errorMessage: 'exit code 1' })).status,
      200,
    );

    const browser = await launchBrowser(t);
    const page = await openPage(t, browser);
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(`${origin}/`);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Monitors', exact: true }).waitFor();

    /** The page's text, the screen-reader-only parts too, once `ready` is true. */
    const shown = async (page: Page, path: string, ready: () => Promise<boolean>) => {
      await page.goto(`${origin}${path}`);
      await waitFor(ready, { what: `${path} drawn` });
      return (await page.locator('main').textContent()) ?? '';
    };
    const count = (selector: string, n: number) => async () => (await page.locator(selector).count()) === n;

    const monitors = await shown(page, '/', count('table.monitors tbody tr', 1));
    t.match(monitors, /nightly backup/);
    t.notMatch(monitors, UNSAFE, 'the monitors list');

    const monitor = await shown(page, `/monitors/${monitorId}`, count('ul.items code', 1));
    await page.locator('dl.fields').waitFor();
    t.match(await page.locator('h1').textContent(), /^nightly backup$/);
    t.match(monitor, /rows < 1/);
    t.notMatch(await page.locator('main').textContent(), UNSAFE, 'a monitor, its rules');

    const crumb = page.locator('.crumbs a').nth(1);
    const run = await shown(page, `/monitors/${monitorId}/runs/hostile-run`, async () =>
      /^nightly/.test((await crumb.textContent().catch(() => null)) ?? ''),
    );
    t.notMatch(run, UNSAFE, 'a run');
    await waitFor(async () => /^\(1 down\) nightly backup · failed run /.test(await page.title()), {
      what: 'the run title',
    });
    t.notMatch(await page.title(), UNSAFE, 'the tab title');

    const alerts = await shown(page, '/alerts', count('ul.deliveries li', 1));
    t.match(alerts, /ops hook/);
    t.notMatch(alerts, UNSAFE, 'the alerts, their deliveries');

    const channels = await shown(page, '/channels', count('ul.channels > li', 1));
    t.match(channels, /ops hook/);
    t.notMatch(channels, UNSAFE, 'the channels');
    await page.getByRole('button', { name: /^Delete/ }).click();
    await waitFor(() => dialogs.length === 1, { what: 'the confirmation' });

    const keys = await shown(page, '/keys', count('ul.items > li', 2));
    t.match(keys, /host a/);
    t.notMatch(keys, UNSAFE, 'the API keys');
    await page.getByRole('button', { name: /^Revoke host/ }).click();
    await waitFor(() => dialogs.length === 2, { what: 'the confirmation' });
    await page.getByLabel('Name').fill(`new ${HOSTILE}key`);
    await page.getByRole('button', { name: 'Create key' }).click();
    const created = (await page.locator('.new-key').textContent()) ?? '';
    t.match(created, /new key/);
    t.notMatch(created, UNSAFE, 'the key just created');

    t.match(dialogs, [/^Delete the channel ops hook\?$/, /^Revoke the key host a /]);
    for (const dialog of dialogs) t.notMatch(dialog, UNSAFE, 'a confirmation');
  });
