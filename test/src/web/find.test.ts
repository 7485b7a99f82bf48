import { readFileSync } from 'node:fs';
import t from 'tap';
import type { Page } from 'playwright-core';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { TestServer } from '../helpers/server.js';
import { requireTools } from '../helpers/system-tools.js';
import { waitFor } from '../helpers/wait.js';

// Finding things on the dashboard (summary, search, status filter, sort, all in the address), the tab's title and
// icon, breadcrumbs, the header on a phone, and the log's Copy and Download: one server, in a real Chromium.

const MARKUP = 'beta <b>export</b> <img src=x onerror="window.__xss = 1">';
/** 2,000 characters with colour codes: Download gives them as stored, Copy the text as shown. */
const LONG_LOG = `\x1b[31mERROR\x1b[0m starting backup\n${'copying files\n'.repeat(200)}`.slice(0, 1990) + 'END-OF-LOG';
/** 1,200 short lines: past the length at which an expanded log scrolls in a box of its own. */
const HUGE_LOG = Array.from({ length: 1200 }, (_, i) => String(i)).join('\n');
const RED = 'd1242f';
const GREEN = '1a7f37';

if (requireTools(t, 'chromium'))
  t.test('finding monitors, the tab title and icon, crumbs and the log buttons', async (t) => {
    const api = await TestServer.start(t, 'sqlite');
    const origin = api.url.replace(/\/api\/v1$/, '');
    const account = await api.account();
    const create = async (name: string, body: Record<string, unknown> = {}) => {
      const reply = await api.request('/monitors', { token: account.token, body: { name, ...body } });
      t.equal(reply.status, 201, `${name} created`);
      return reply.body.monitorId as string;
    };
    const ping = async (monitorId: string, kind: 'start' | 'success' | 'fail', body: Record<string, unknown> = {}) =>
      t.equal((await api.ping(account, monitorId, kind, body)).status, 200, `${kind} ping`);

    // Failed runs keep their log; the run after it succeeds, so that the monitor is up until the test fails it.
    const backup = await create('nightly backup');
    await ping(backup, 'start', { runId: 'huge-log-run' });
    await ping(backup, 'fail', { runId: 'huge-log-run', logOutput: HUGE_LOG });
    await ping(backup, 'success');
    await ping(await create('alpha sync', { schedule: { every: 3600 } }), 'success');
    const beta = await create(MARKUP, { schedule: { every: 600 } });
    await ping(beta, 'success');
    await ping(await create('gamma report'), 'start');
    await create('delta cleanup');
    const paused = await create('epsilon mailer');
    await api.request(`/monitors/${paused}`, { method: 'PATCH', token: account.token, body: { paused: true } });

    const browser = await launchBrowser(t);
    const signIn = async (page: Page, path: string) => {
      await page.goto(origin + path);
      await page.getByLabel('Email').fill(account.email);
      await page.getByLabel('Password').fill(account.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
    };
    const rows = (page: Page) => page.locator('table.monitors tbody tr:not([hidden])');
    const names = (page: Page) => rows(page).locator('td.name a').allInnerTexts();
    const icon = async (page: Page) =>
      decodeURIComponent(String(await page.evaluate('document.querySelector("link[rel=icon]").href')));

    t.test('the title and the icon say when a monitor goes down, on every page', async (t) => {
      const page = await openPage(t, browser);
      await signIn(page, '/');
      await waitFor(async () => (await rows(page).count()) === 6, { what: 'six monitors' });
      await waitFor(async () => (await icon(page)).includes(GREEN), { what: 'a green icon' });
      t.equal(await page.title(), 'Monitors · pingmon', 'nothing down');
      const other = await openPage(t, browser);
      await signIn(other, '/alerts');
      await waitFor(async () => (await icon(other)).includes(GREEN), { what: 'a green icon on the alerts page' });

      await ping(backup, 'start', { runId: 'long-log-run' });
      await ping(backup, 'fail', { runId: 'long-log-run', errorMessage: 'exit code 1', logOutput: LONG_LOG });
      for (const [p, title] of [
        [page, '(1 down) Monitors · pingmon'],
        [other, '(1 down) Alerts · pingmon'],
      ] as const) {
        await waitFor(async () => (await p.title()) === title, { what: title, timeoutMs: 20_000 });
        t.match(await icon(p), new RegExp(`^data:image/svg\\+xml,<svg .*fill="#${RED}"`), `${title}: a red icon`);
      }
    });

    t.test('the summary counts each status, and each count shows its monitors', async (t) => {
      const page = await openPage(t, browser);
      await signIn(page, '/');
      const summary = page.locator('.find .summary');
      await summary.getByRole('link').first().waitFor();
      t.equal(await summary.textContent(), '6 monitors: 1 down · 1 running · 2 up · 1 new · 1 paused');
      await summary.getByRole('link', { name: '2 up' }).click();
      await page.waitForURL(`${origin}/?status=up`);
      await waitFor(async () => (await rows(page).count()) === 2, { what: 'the two up' });
      t.equal(await summary.getByRole('link', { name: '2 up' }).getAttribute('aria-current'), 'true');
      t.equal(await page.getByLabel('Status').inputValue(), 'up', 'the filter shows it');
      t.equal(await page.getByRole('status').filter({ hasText: 'Showing' }).innerText(), 'Showing 2 of 6 monitors.');
      await page.getByRole('button', { name: 'Show all' }).click();
      await page.waitForURL(`${origin}/`);
      t.equal(await rows(page).count(), 6);
    });

    t.test('search by name or slug as one types, without reading the monitors again', async (t) => {
      const page = await openPage(t, browser);
      await signIn(page, '/');
      await waitFor(async () => (await rows(page).count()) === 6, { what: 'six monitors' });
      const reads: string[] = [];
      page.on('request', (r) => r.url().includes('/api/v1/monitors') && reads.push(r.url()));
      const search = page.getByLabel('Search');
      await search.pressSequentially('BACK');
      await page.waitForURL(`${origin}/?q=BACK`);
      t.same(await names(page), ['nightly backup'], 'by name, in any case');
      t.ok(reads.length <= 1, `at most the regular refresh read the monitors (${reads.length})`);
      await search.fill('alpha-s');
      await waitFor(async () => (await names(page)).join() === 'alpha sync', { what: 'found by its slug' });
      await search.fill('<b>');
      await waitFor(async () => (await rows(page).count()) === 1, { what: 'the name with markup' });
      t.equal(await rows(page).locator('td.name a').innerText(), MARKUP, 'markup in a name is text');
      t.equal(await page.locator('main img').count(), 0, 'no element made of it');
      t.equal(await page.evaluate('typeof window.__xss'), 'undefined', 'no script ran');
      await search.fill('nothing like it');
      await page.getByText('No monitor matches.').waitFor();
      t.equal(await rows(page).count(), 0);
    });

    t.test('filter and sort are in the address: reload, back and a shared link keep them', async (t) => {
      const page = await openPage(t, browser);
      await signIn(page, '/?sort=next');
      await waitFor(async () => (await rows(page).count()) === 6, { what: 'six monitors' });
      // every 10 min, every hour, then those without a schedule by name
      t.same((await names(page)).slice(0, 2), [MARKUP, 'alpha sync'], 'next expected first');
      t.equal(await page.getByLabel('Sort by').inputValue(), 'next');
      await page.getByLabel('Sort by').selectOption('name');
      await page.waitForURL(`${origin}/?sort=name`);
      t.same(await names(page), [
        'alpha sync',
        MARKUP,
        'delta cleanup',
        'epsilon mailer',
        'gamma report',
        'nightly backup',
      ]);
      await page.getByLabel('Status').selectOption('down');
      await page.waitForURL(`${origin}/?status=down&sort=name`);
      await waitFor(async () => (await names(page)).join() === 'nightly backup', { what: 'the down one' });
      await page.reload();
      await waitFor(async () => (await names(page)).join() === 'nightly backup', { what: 'still after a reload' });
      t.equal(await page.getByLabel('Status').inputValue(), 'down');
      await page.goBack();
      await page.waitForURL(`${origin}/?sort=name`);
      await waitFor(async () => (await rows(page).count()) === 6, { what: 'back: all of them' });
      t.equal(await page.getByLabel('Status').inputValue(), '');
      await page.goto(`${origin}/?q=a&sort=last-run`);
      await waitFor(async () => (await page.getByLabel('Search').inputValue()) === 'a', {
        what: 'the search restored',
      });
      t.equal((await names(page))[0], 'nightly backup', 'the latest run first');
      t.equal(await page.getByLabel('Sort by').inputValue(), 'last-run');
    });

    t.test('titles and crumbs on the monitor and run pages', async (t) => {
      const page = await openPage(t, browser);
      await signIn(page, '/monitors/nightly-backup');
      await page.getByRole('heading', { name: 'nightly backup', exact: true }).waitFor();
      await waitFor(async () => (await page.title()) === '(1 down) nightly backup · pingmon', { what: 'its title' });
      const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
      t.equal(await crumbs.innerText(), 'Monitors');
      await page.goto(`${origin}/monitors/nightly-backup/runs/long-log-run`);
      await page.getByRole('heading', { name: /^Failed run, \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/ }).waitFor();
      await waitFor(async () => /^\(1 down\) nightly backup · failed run .* · pingmon$/.test(await page.title()), {
        what: 'the run title',
      });
      t.match(await page.title(), /failed run (just now|\d+[smh] ago)/);
      t.equal(await crumbs.innerText(), 'Monitors / nightly backup', 'no dangling "/"');
      await crumbs.getByRole('link', { name: 'nightly backup' }).click();
      await page.waitForURL(`${origin}/monitors/nightly-backup`);
      await page.goto(`${origin}/monitors/${beta}`);
      await waitFor(async () => (await page.title()) === `(1 down) ${MARKUP} · pingmon`, { what: 'a name as text' });
    });

    t.test('at 375 px the header is one row and the expanded log grows with the page', async (t) => {
      const page = await openPage(t, browser, { viewport: { width: 375, height: 740 } });
      await signIn(page, '/monitors/nightly-backup/runs/long-log-run');
      await page.getByRole('button', { name: 'Expand' }).click();
      const header = await page.locator('header.top').boundingBox();
      t.ok(header && header.height <= 56, `header ${header?.height} px high`);
      t.equal(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth'), 0, 'no sideways scroll');
      const box = (selector: string) =>
        page.evaluate(
          `[document.querySelector('${selector}').clientHeight, document.querySelector('${selector}').scrollHeight]`,
        ) as Promise<[number, number]>;
      const [height, content] = await box('pre.log-text');
      t.ok(height >= content && height > 740, `the log is ${height} px high, no scroll of its own`);
      await page.goto(`${origin}/monitors/nightly-backup/runs/huge-log-run`);
      await page.getByRole('button', { name: 'Expand' }).click();
      const [hugeHeight, hugeContent] = await box('pre.log-text');
      t.ok(hugeHeight < hugeContent && hugeHeight <= 740, `a 1,200-line log scrolls in a ${hugeHeight} px box`);
      await page.getByRole('link', { name: 'API keys' }).click();
      await page.getByRole('heading', { name: 'API keys' }).waitFor();
      t.pass('the last section is reachable');
    });

    t.test('Download saves the stored log, named after monitor and run', async (t) => {
      const page = await openPage(t, browser);
      await signIn(page, '/monitors/nightly-backup/runs/long-log-run');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download' }).click(),
      ]);
      t.equal(download.suggestedFilename(), 'nightly-backup-long-log-run.txt');
      const stored = await api.request(`/monitors/${backup}/runs/long-log-run/log`, { token: account.token });
      t.equal(readFileSync(await download.path(), 'utf8'), stored.body.content);
      t.equal(stored.body.content, LONG_LOG);
    });

    t.test('Copy puts the log on the clipboard, by the keyboard alone, in dark mode', async (t) => {
      const page = await openPage(t, browser, {
        permissions: ['clipboard-read', 'clipboard-write'],
        colorScheme: 'dark',
      });
      await signIn(page, '/monitors/nightly-backup/runs/long-log-run');
      await page.getByRole('button', { name: 'Expand' }).click();
      const shown = await page.locator('pre.log-text').innerText();
      t.match(shown, /^ERROR starting backup\n/, 'shown without its colour codes');
      await page.locator('body').focus();
      const focused = () => page.evaluate('document.activeElement?.textContent ?? ""');
      for (let i = 0; i < 40 && (await focused()) !== 'Copy'; i++) await page.keyboard.press('Tab');
      t.equal(await focused(), 'Copy', 'reached by Tab');
      await page.keyboard.press('Enter');
      await page.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
      t.equal(await page.evaluate('navigator.clipboard.readText()'), shown, 'the text shown');
      const colour = (selector: string, property: string) =>
        page.evaluate(`getComputedStyle(document.querySelector('${selector}')).${property}`);
      const colours = [await colour('body', 'backgroundColor'), await colour('pre.log-text', 'color')];
      t.same(colours, ['rgb(15, 18, 22)', 'rgb(230, 233, 237)'], 'dark');
    });

    t.test('without the clipboard API (plain HTTP), Copy still copies', async (t) => {
      const page = await openPage(t, browser, { permissions: ['clipboard-read', 'clipboard-write'] });
      // The test reads the clipboard through the API kept aside; the page finds none.
      await page.addInitScript(`
        const clipboard = navigator.clipboard;
        window.readClipboard = () => clipboard.readText();
        Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined });
      `);
      await signIn(page, '/monitors/nightly-backup/runs/huge-log-run');
      await page.getByRole('button', { name: 'Copy' }).click();
      await page.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
      t.equal(await page.evaluate('window.readClipboard()'), HUGE_LOG);
    });
  });
