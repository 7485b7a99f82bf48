import t from 'tap';
import type { Page } from 'playwright-core';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { TestServer } from '../helpers/server.js';
import { requireTools } from '../helpers/system-tools.js';
import { waitFor } from '../helpers/wait.js';

// Creating, editing and deleting monitors in the dashboard, with the previews of schedules and rules: a real
// Chromium against one real server (SQLite) for the whole file.

const MARKUP = '<b>x</b> <img src=x onerror="window.__xss = 1">';

if (requireTools(t, 'chromium'))
  t.test('managing monitors in the dashboard', async (t) => {
    const api = await TestServer.start(t, 'sqlite');
    const origin = api.url.replace(/\/api\/v1$/, '');
    const account = await api.account();
    const browser = await launchBrowser(t);
    const get = async (ref: string) => api.request(`/monitors/${ref}`, { token: account.token });
    const create = async (body: object) => {
      const reply = await api.request('/monitors', { token: account.token, body });
      t.equal(reply.status, 201, reply.text);
      return reply.body as { monitorId: string; slug: string };
    };
    /** A signed-in page at `path`, as the given browser context options make it. */
    const open = async (t: Parameters<typeof openPage>[0], path: string, options = {}) => {
      const page = await openPage(t, browser, { timezoneId: 'Europe/Berlin', ...options });
      await page.goto(`${origin}${path}`);
      await page.getByLabel('Email').fill(account.email);
      await page.getByLabel('Password').fill(account.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      return page;
    };
    const overflow = (page: Page) => page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
    const expectedRows = (page: Page) => page.locator('table.expected tbody tr');

    t.test('a new monitor with a cron schedule: its words and next five times as typed, then created', async (t) => {
      const page = await open(t, '/');
      await page.getByRole('link', { name: 'New monitor' }).click();
      await page.waitForURL(`${origin}/monitors/new`);
      await page.getByRole('heading', { name: 'New monitor' }).waitFor();
      await page.getByLabel('Name').fill('nightly backup');
      await page.getByLabel('Cron schedule').check();
      t.equal(await page.getByLabel('Timezone').inputValue(), 'Europe/Berlin', "the browser's timezone to begin with");
      await page.getByLabel('Cron expression').fill('0 3 * * *');
      await page.locator('.preview .words', { hasText: 'At 03:00, every day' }).waitFor();
      await waitFor(async () => (await expectedRows(page).count()) === 5, { what: 'five expected times' });
      t.match(await page.locator('table.expected thead').innerText(), /In Europe\/Berlin\s+In UTC/);
      const first = await expectedRows(page).first().innerText();
      t.match(first, /^\w{3} \d{4}-\d\d-\d\d 03:00 CES?T\s+\w{3} \d{4}-\d\d-\d\d 0[12]:00 UTC$/);
      await page.getByLabel(/^Start grace/).fill('10m');
      await page.getByLabel(/^Max runtime/).fill('1h30m');
      await page.getByText('= 1h30m, 5400 seconds').waitFor();
      await page.getByRole('button', { name: 'Create monitor' }).click();
      await page.waitForURL(`${origin}/monitors/nightly-backup`);
      const saved = (await get('nightly-backup')).body;
      t.match(saved, {
        name: 'nightly backup',
        schedule: { cron: '0 3 * * *', timezone: 'Europe/Berlin' },
        startGrace: 600,
        maxRuntime: 5400,
        failureThreshold: 1,
      });
      const expected = (await api.request(`/monitors/${saved.monitorId}/expected`, { token: account.token })).body;
      const utc = expected.times[0].at.slice(0, 16).replace('T', ' ');
      t.ok(first.includes(`${utc} UTC`), `the first time previewed (${first}) is the one expected (${utc})`);
    });

    t.test('a schedule that cannot be read is pointed out next to its field as it is typed', async (t) => {
      const page = await open(t, '/monitors/new');
      await page.getByLabel('Name').fill('broken');
      await page.getByLabel('Cron schedule').check();
      const cron = page.getByLabel('Cron expression');
      await cron.fill('0 25 * * *');
      await page.locator('#cron-error', { hasText: /^schedule\.cron: "0 25 \* \* \*" cannot be read/ }).waitFor();
      t.equal(await cron.getAttribute('aria-invalid'), 'true');
      t.match(await cron.getAttribute('aria-describedby'), /cron-error/, 'the error is read out with the field');
      await cron.fill('0 5 * * *');
      await page.locator('.preview .words', { hasText: 'At 05:00, every day' }).waitFor();
      t.equal(await page.locator('#cron-error').count(), 0, 'the error goes once the expression is right');
      await page.getByLabel('Timezone').fill('Mars/Olympus');
      await page.locator('#timezone-error', { hasText: 'unknown timezone "Mars/Olympus"' }).waitFor();
      await page.getByRole('button', { name: 'Create monitor' }).click();
      // The preview showed the error as typed: the server's refusal is the focus the answer moves to the field.
      await page.waitForFunction("document.activeElement?.id === 'timezone'", null, { timeout: 10_000 });
      t.equal(await page.locator('#timezone-error').count(), 1, 'the refused field has the focus, its error beside it');
      await page.getByLabel('Interval').check();
      await page.getByLabel(/^Every/).fill('10 minutes');
      await page.getByRole('button', { name: 'Create monitor' }).click();
      await page.locator('#every-error', { hasText: '"10 minutes" is not a duration' }).waitFor();
      const list = (await api.request('/monitors', { token: account.token })).body.monitors;
      t.notOk(
        list.some((m: { name: string }) => m.name === 'broken'),
        'nothing was created',
      );
    });

    t.test('every field edited, saved and read back; a taken slug is refused on its field', async (t) => {
      await create({ name: 'taken one', slug: 'taken' });
      const { monitorId } = await create({ name: 'sync job', schedule: { cron: '0 * * * *' } });
      const page = await open(t, `/monitors/${monitorId}`);
      await page.getByRole('link', { name: 'Edit' }).click();
      await page.waitForURL(`${origin}/monitors/sync-job/edit`);
      const caption = page.locator('table.expected caption');
      await caption.waitFor();
      t.match(await caption.innerText(), /^Next 5 expected runs$/, "an unchanged schedule shows the monitor's times");
      await page.getByLabel('Slug').fill('taken');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.locator('#slug-error', { hasText: 'Another monitor of your account has the slug taken' }).waitFor();
      await page.getByLabel('Name').fill('hourly sync');
      await page.getByLabel('Slug').fill('hourly-sync');
      await page.getByLabel('Interval').check();
      await page.getByLabel(/^Every/).fill('2h');
      await page.getByLabel(/^Start grace/).fill('90s');
      await page.getByLabel(/^Max runtime/).fill('1h');
      await page.getByLabel('Failure threshold').fill('3');
      await page.getByLabel('Recovery threshold').fill('2');
      await page.getByLabel('Fail alerts').selectOption('first');
      await page.getByLabel(/^Remind while down/).fill('4h');
      await page.getByLabel(/^Paused/).check();
      const tomorrow = new Date(Date.now() + 86_400_000);
      const local = tomorrow.toLocaleString('sv-SE', { timeZone: 'Europe/Berlin' }).slice(0, 16).replace(' ', 'T');
      await page.getByLabel('Snoozed until').fill(local);
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.waitForURL(`${origin}/monitors/hourly-sync`);
      const saved = (await get(monitorId)).body;
      t.match(saved, {
        name: 'hourly sync',
        slug: 'hourly-sync',
        schedule: { every: 7200 },
        startGrace: 90,
        maxRuntime: 3600,
        failureThreshold: 3,
        recoveryThreshold: 2,
        failAlerts: 'first',
        renotifyAfter: 14_400,
        paused: true,
      });
      t.equal(saved.snoozedUntil.slice(0, 16), tomorrow.toISOString().slice(0, 16), 'snoozed until that minute');

      await page.getByRole('link', { name: 'Edit' }).click();
      await page.getByLabel(/^Max runtime/).fill('');
      await page.getByText('Empty: no limit.', { exact: false }).waitFor();
      await page.getByLabel(/^Paused/).uncheck();
      await page.getByLabel('No schedule').check();
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.waitForURL(`${origin}/monitors/hourly-sync`);
      t.match((await get(monitorId)).body, { maxRuntime: null, paused: false, schedule: null, startGrace: 90 });
    });

    t.test('delete asks first: Cancel and Escape keep the monitor, its slug typed deletes it', async (t) => {
      const { monitorId } = await create({ name: 'old job', slug: 'old-job' });
      const page = await open(t, '/monitors/old-job');
      const dialog = page.getByRole('dialog', { name: 'Delete old job?' });
      const confirm = dialog.getByRole('button', { name: 'Delete monitor' });
      await page.getByRole('button', { name: 'Delete…' }).click();
      await dialog.waitFor();
      t.ok(await confirm.isDisabled(), 'not before the slug is typed');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Delete…' }).click();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      t.equal((await get(monitorId)).status, 200, 'still there');
      await page.getByRole('button', { name: 'Delete…' }).click();
      await dialog.getByLabel(/Type its slug/).fill('old-jo');
      t.ok(await confirm.isDisabled(), 'not for another text');
      await dialog.getByLabel(/Type its slug/).fill('old-job');
      await confirm.click();
      await page.waitForURL(`${origin}/`);
      t.equal((await get(monitorId)).status, 404, 'deleted');
    });

    t.test('a rule in words, and the runs it would have matched with links to them', async (t) => {
      const { monitorId } = await create({ name: 'rows job', slug: 'rows-job' });
      for (const [i, rows] of [0, 7, 0].entries()) {
        const timestamp = new Date(Date.now() - (10 - i) * 60_000).toISOString();
        const body = { runId: `rows-run-${i}`, meta: { rowsProcessed: rows }, timestamp };
        t.equal((await api.ping(account, monitorId, 'success', body)).status, 200);
      }
      const page = await open(t, '/monitors/rows-job');
      await page.getByLabel('Metric').fill('rowsProcessed');
      await page.getByLabel('Value').fill('1');
      await page.getByText('Alert when a success reports rowsProcessed less than 1.').waitFor();
      await page.getByText('Would have matched 2 of the last 3 successes:').waitFor();
      const matches = page.locator('ul.matches li');
      t.equal(await matches.count(), 2);
      t.match(await matches.first().innerText(), /rowsProcessed was 0$/);
      await page.getByLabel('Operator').selectOption('gt');
      await page.getByText('Would have matched 1 of the last 3 successes:').waitFor();
      await page.getByLabel('Metric').fill('rows');
      await page.getByText('None of the last 3 successes reported rows: is it spelt as the job sends it?').waitFor();
      t.equal((await api.request(`/monitors/${monitorId}/rules`, { token: account.token })).body.rules.length, 0);
      await page.getByLabel('Metric').fill('rowsProcessed');
      await matches.first().getByRole('link').click();
      await page.waitForURL(/\/monitors\/rows-job\/runs\/rows-run-1$/);
    });

    t.test('the keyboard alone creates a monitor', async (t) => {
      const page = await open(t, '/');
      await page.getByRole('heading', { name: 'Monitors', exact: true }).waitFor();
      const focused = async () => String(await page.evaluate("document.activeElement?.outerHTML ?? ''"));
      const tabTo = async (text: RegExp) => {
        for (let i = 0; i < 40 && !text.test(await focused()); i++) await page.keyboard.press('Tab');
        t.match(await focused(), text);
      };
      await tabTo(/^<a [^>]*>New monitor<\/a>$/);
      await page.keyboard.press('Enter');
      await page.waitForURL(`${origin}/monitors/new`);
      await tabTo(/^<input id="name"/);
      await page.keyboard.type('typed job');
      await tabTo(/^<input type="radio" name="kind"/);
      await page.keyboard.press('ArrowRight');
      await tabTo(/^<input id="cron"/);
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type('15 2 * * 1');
      await page.getByText('At 02:15, only on Monday').waitFor();
      await page.keyboard.press('Enter');
      await page.waitForURL(`${origin}/monitors/typed-job`);
      t.match((await get('typed-job')).body, { schedule: { cron: '15 2 * * 1', timezone: 'Europe/Berlin' } });
    });

    t.test('at 375 px in dark mode the form, the preview and the dialog fit and read', async (t) => {
      const page = await open(t, '/monitors/new', { viewport: { width: 375, height: 740 }, colorScheme: 'dark' });
      await page.getByLabel('Cron schedule').check();
      await page.getByLabel('Cron expression').fill('*/15 9-17 * * 1-5');
      await waitFor(async () => (await expectedRows(page).count()) === 5, { what: 'five expected times' });
      t.equal(await overflow(page), 0, 'the new monitor page does not scroll sideways');
      const style = (selector: string, property: string) =>
        page.evaluate(`getComputedStyle(document.querySelector('${selector}')).${property}`) as Promise<string>;
      const text = await style('.preview .words', 'color');
      const background = await style('body', 'backgroundColor');
      t.not(text, background, `${text} on ${background}`);
      t.match(background, /^rgb\((1[0-9]|[0-9]), /, 'a dark page');
      await create({ name: 'narrow job', slug: 'narrow-job' });
      await page.goto(`${origin}/monitors/narrow-job`);
      await page.getByRole('button', { name: 'Delete…' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      const box = await dialog.boundingBox();
      t.ok(box && box.x >= 0 && box.x + box.width <= 375, `the dialog fits (${JSON.stringify(box)})`);
      t.equal(await overflow(page), 0, 'and nothing scrolls sideways');
    });

    t.test('a monitor whose slug is "new" is still reached from the monitors page', async (t) => {
      await create({ name: 'the new one', slug: 'new' });
      const page = await open(t, '/');
      await page.getByRole('link', { name: 'the new one', exact: true }).click();
      await page.getByRole('heading', { name: 'the new one' }).waitFor();
      await page.getByRole('link', { name: 'Edit' }).click();
      await page.getByRole('heading', { name: 'Edit the new one' }).waitFor();
      t.equal(await page.getByLabel('Slug').inputValue(), 'new', 'its edit page, not the page of a new monitor');
    });

    t.test('a name with markup is shown as text, in the form and the dialog', async (t) => {
      const { monitorId } = await create({ name: MARKUP, slug: 'markup' });
      const page = await open(t, `/monitors/${monitorId}/edit`);
      await page.getByRole('heading', { name: `Edit ${MARKUP}` }).waitFor();
      t.equal(await page.getByLabel('Name').inputValue(), MARKUP);
      await page.goto(`${origin}/monitors/markup`);
      await page.getByRole('button', { name: 'Delete…' }).click();
      await page.getByRole('dialog', { name: `Delete ${MARKUP}?` }).waitFor();
      t.equal(await page.locator('main b, main img').count(), 0, 'no element was made of it');
      t.equal(await page.evaluate('typeof window.__xss'), 'undefined', 'no script ran');
    });
  });
