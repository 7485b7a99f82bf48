import t from 'tap';
import type { Page } from 'playwright-core';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { TestClock } from '../helpers/clock.js';
import { json, startReceiver } from '../helpers/receiver.js';
import { TestServer } from '../helpers/server.js';
import { requireTools } from '../helpers/system-tools.js';
import { TEST_TIME } from '../helpers/test-time.js';
import { waitFor } from '../helpers/wait.js';

// A monitor's timeline and duration chart in a real Chromium, on a server whose clock the test moves: real pings
// make the runs (a success, a failure, a silent failure through a rule), a sweep finds a missed slot, and the alerts
// go to a real local receiver (one that takes them, one that refuses them).

const MINUTE = 60_000;
/** When set (a directory), the run also saves pictures of the monitor's page there, to look at. */
const SCREENSHOTS = process.env.PINGMON_SCREENSHOTS;
const XSS = '<img src=x onerror="window.__xss = 1"> <b>bold</b>';

if (requireTools(t, 'chromium'))
  t.test("a monitor's timeline and duration chart", async (t) => {
    // An hour ago on the server's clock: the runs are in the browser's recent past.
    const clock = new TestClock(Date.now() - 60 * MINUTE);
    const api = await TestServer.start(t, 'sqlite', { ...TEST_TIME, clock: clock.read });
    const origin = api.url.replace(/\/api\/v1$/, '');
    const account = await api.account();
    const good = await startReceiver(t, (_req, _n, res) => json(res, 200, {}));
    const bad = await startReceiver(t, (_req, _n, res) => json(res, 400, { error: 'no such hook' }));
    const post = async (path: string, body: unknown) => {
      const reply = await api.request(path, { token: account.token, body });
      t.equal(reply.status, 201, `POST ${path}: ${reply.text}`);
      return reply.body;
    };
    await post('/channels', { name: 'ops hook', type: 'webhook', url: `${good.url}/hook` });
    await post('/channels', { name: 'broken hook', type: 'webhook', url: `${bad.url}/hook` });
    const { monitorId } = await post('/monitors', {
      name: 'etl job',
      schedule: { every: 600 },
      startGrace: 60,
    });
    await post(`/monitors/${monitorId}/rules`, { metric: 'rows', op: 'lt', value: 1 });

    /** A run of `seconds`, starting now on the server's clock; the clock then moves on a minute. */
    const run = async (runId: string, seconds: number, kind: 'success' | 'fail', body: object) => {
      t.equal((await api.ping(account, monitorId, 'start', { runId })).status, 200);
      clock.advance(seconds * 1000);
      t.equal((await api.ping(account, monitorId, kind, { runId, ...body })).status, 200);
      clock.advance(MINUTE);
    };
    await run('run-ok-1', 2, 'success', { meta: { rows: 10 } });
    await run('run-failed', 5, 'fail', { errorMessage: `exit code 3: ${XSS}\nsecond line` });
    await run('run-silent', 1, 'success', { meta: { rows: 0 } });
    await run('run-ok-2', 3, 'success', { meta: { rows: 12 } });
    // run-ok-2 started at t; the next slot is t + 10m, missed once its grace of 60s is over.
    clock.advance(10 * MINUTE);
    t.match(await api.server.app.sweeper.sweepNow(), { missed: 1 });
    const patch = (body: object) =>
      api.request(`/monitors/${monitorId}`, { method: 'PATCH', token: account.token, body });
    clock.advance(MINUTE);
    t.equal((await patch({ paused: true })).status, 200);
    clock.advance(MINUTE);
    t.equal((await patch({ paused: false })).status, 200);
    clock.advance(MINUTE);
    t.equal((await patch({ snoozedUntil: new Date(clock.now + 60 * MINUTE).toISOString() })).status, 200);
    await run('run-ok-3', 2, 'success', { meta: { rows: 11 } });
    // Every alert's deliveries settled: one delivered, one refused for good, per alert.
    await waitFor(
      async () => {
        const alerts = (await api.request(`/alerts?monitorId=${monitorId}`, { token: account.token })).body.alerts;
        return (
          alerts.length >= 3 &&
          alerts.every((a: { deliveries: Array<{ state: string }> }) =>
            a.deliveries.every((d) => d.state !== 'pending'),
          )
        );
      },
      { what: 'the alerts delivered or failed' },
    );
    const events = good.received.map((r) => JSON.parse(r.body).event);
    t.same(events.sort(), ['fail', 'missed', 'recovered', 'silent_failure'], 'the receiver got each alert');

    const browser = await launchBrowser(t);
    const signIn = async (page: Page, path: string) => {
      await page.goto(`${origin}${path}`);
      await page.getByLabel('Email').fill(account.email);
      await page.getByLabel('Password').fill(account.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
    };
    const items = (page: Page) => page.locator('ol.timeline > li');
    const times = async (page: Page) => {
      const script = "[...document.querySelectorAll('ol.timeline > li time')].map((e) => e.getAttribute('datetime'))";
      return ((await page.evaluate(script)) as string[]).map((at) => Date.parse(at));
    };
    const pager = (page: Page, name: string) =>
      page.getByRole('navigation', { name: 'Pages of events' }).getByRole('button', { name });
    const newestFirst = (list: number[]) => list.every((at, i) => i === 0 || list[i - 1]! >= at);

    t.test('the timeline lists what happened, newest first, each alert with its deliveries', async (t) => {
      const page = await openPage(t, browser);
      await signIn(page, `/monitors/${monitorId}`);
      await waitFor(async () => (await items(page).count()) === 20, { what: 'a first page of 20 events' });
      const shown = await times(page);
      t.ok(newestFirst(shown), 'newest first');
      t.match(
        await items(page).first().innerText(),
        /^✓ run succeeded.*\n.*run-ok-3, took 2\.000s/s,
        'the last run on top',
      );
      const text = await page.locator('ol.timeline').innerText();
      for (const kind of ['● run started', '✗ run failed', '✗ missed', '✗ down', '✓ up again', '» alert'])
        t.match(text, kind, kind);
      t.match(text, /· snoozed.*\n+Until \d{4}-/, 'the snooze, with its end');
      t.match(text, /· paused/);
      t.match(text, /· resumed/);
      t.match(text, /Closed by resuming the monitor/, 'the incident the resumption closed');
      t.match(text, /A run was expected at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d and did not start/);
      const failAlert = items(page)
        .filter({ hasText: /^» alert/ })
        .filter({ hasText: 'fail run run-failed' });
      const delivered = await failAlert.innerText();
      t.match(delivered, /ops hook \(webhook\): delivered \d{4}-.*, 1 attempt/, 'delivered to the good hook');
      t.match(delivered, /broken hook \(webhook\): failed after 1 attempt: HTTP 400/, 'refused by the other, with why');
      t.ok(text.includes(`exit code 3: ${XSS}`), "the failed run's error, markup as text");
      t.notMatch(text, /second line/, 'its first line only');
      t.equal(await page.locator('main img, main b').count(), 0, 'no element made of the markup');
      t.equal(await page.evaluate('typeof window.__xss'), 'undefined', 'no script ran');

      await pager(page, 'Older').focus();
      await page.keyboard.press('Enter');
      await waitFor(async () => (await times(page))[0]! <= shown.at(-1)!, { what: 'the next page, older' });
      t.ok(newestFirst(await times(page)), 'newest first there too');
      t.match(await page.locator('ol.timeline').innerText(), /run-ok-1/, 'down to the first run');
      await pager(page, 'Newer').focus();
      await page.keyboard.press('Enter');
      await waitFor(async () => (await times(page))[0] === shown[0], { what: 'the first page again' });
    });

    t.test('the filter by kind is in the address, and survives a reload', async (t) => {
      const page = await openPage(t, browser);
      await signIn(page, `/monitors/${monitorId}`);
      // From the keyboard: Everything, Runs, Failed runs, Missed slots.
      await page.getByLabel('Show').focus();
      for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
      await waitFor(() => /\?kind=missed$/.test(page.url()), { what: 'the filter in the address' });
      await waitFor(
        async () => {
          const shown = await items(page).allInnerTexts();
          return shown.length > 0 && shown.every((s) => s.startsWith('✗ missed'));
        },
        { what: 'missed slots only' },
      );
      t.equal(await items(page).count(), 1, 'the one missed slot');
      await page.reload();
      await page.locator('ol.timeline').waitFor();
      t.equal(await page.getByLabel('Show').inputValue(), 'missed', 'the filter after a reload');
      t.equal(await items(page).count(), 1);
      await page.goto(`${origin}/monitors/${monitorId}?kind=run_failed`);
      await waitFor(async () => (await items(page).count()) === 1, { what: 'the failed run alone' });
      t.match(await items(page).innerText(), /^✗ run failed/, 'a link with a filter opens filtered');
    });

    t.test('the chart: axes, median, missed slot; the keyboard shows a run and opens it', async (t) => {
      const page = await openPage(t, browser);
      await signIn(page, `/monitors/${monitorId}`);
      const chart = page.locator('.duration-plot');
      await chart.waitFor();
      const axis = await page.locator('.duration-plot .chart-axis text').allTextContents();
      t.ok(axis.includes('0'), 'the duration axis starts at zero');
      t.ok(
        axis.some((s) => /^\d+s$/.test(s)),
        `durations in seconds (${axis.join(' ')})`,
      );
      t.ok(
        axis.some((s) => /^\d\d:\d\d$/.test(s)),
        'times of day',
      );
      t.match(await page.locator('.chart-median text').textContent(), /^median 2s$/, 'the median of 2, 5, 1, 3, 2s');
      t.equal(await page.locator('.chart-missed').count(), 1, 'the missed slot marked');
      if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/timeline-1100.png`, fullPage: true });
      t.match(await page.locator('.chart-summary').innerText(), /5 runs.*1 failed.*1 silent failure.*1 missed slot/);

      const focused = () => page.evaluate("document.activeElement?.className ?? ''");
      for (let i = 0; i < 40 && (await focused()) !== 'duration-frame'; i++) await page.keyboard.press('Tab');
      t.equal(await focused(), 'duration-frame', 'Tab reaches the chart');
      const detail = page.locator('.chart-detail');
      await waitFor(async () => /success/.test(await detail.innerText()), { what: 'the newest run shown' });
      t.match(await detail.innerText(), /2\.000s · ✓ success/, 'its duration and status');
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowLeft');
      await waitFor(async () => /failed/.test(await detail.innerText()), { what: 'the failed run shown' });
      t.match(await detail.innerText(), /5\.000s · ✗ failed · exit code 3: <img/, 'time, duration, status, error');
      t.notMatch(await detail.innerText(), /second line/, 'the first line of the error');
      await page.keyboard.press('Enter');
      await page.waitForURL(`${origin}/monitors/${monitorId}/runs/run-failed`);
      t.pass('Enter opened the run');

      await page.goBack();
      const bar = await page.locator('.duration-plot path.bar-silent').boundingBox();
      await page.mouse.move(bar!.x + bar!.width / 2, bar!.y + bar!.height / 2);
      await waitFor(async () => /✓ success ▲/.test(await detail.innerText()), { what: 'the pointed-at run shown' });
      t.match(await detail.innerText(), /1\.000s · ✓ success ▲/, 'pointing shows the silent failure');
      await page.mouse.click(bar!.x + bar!.width / 2, bar!.y + bar!.height / 2);
      await page.waitForURL(`${origin}/monitors/${monitorId}/runs/run-silent`);
      t.pass('a click opened it');
    });

    t.test('the small chart on the monitors page says its scale', async (t) => {
      const page = await openPage(t, browser);
      await signIn(page, '/');
      const label = await page.locator('svg.chart').getAttribute('aria-label');
      t.match(label, /^Last 5 runs: 1 failed; durations 1s to 5s, bars scaled from 0 to 6s$/);
      t.equal(await page.locator('svg.chart title').textContent(), label, 'its title says the same');
    });

    t.test('at 375 px nothing scrolls sideways, and dark mode draws the chart in dark colours', async (t) => {
      const page = await openPage(t, browser, { viewport: { width: 375, height: 740 }, colorScheme: 'dark' });
      await signIn(page, `/monitors/${monitorId}`);
      await page.locator('ol.timeline').waitFor();
      await page.locator('.duration-plot').waitFor();
      const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
      t.equal(overflow, 0, 'no sideways scroll');
      const width = Number(
        await page.evaluate("document.querySelector('.duration-plot').getBoundingClientRect().width"),
      );
      t.ok(width <= 375 - 32, `the chart fits (${width} px)`);
      const colours = async () =>
        (await page.evaluate(
          "[getComputedStyle(document.querySelector('.duration-frame')).backgroundColor, " +
            "getComputedStyle(document.querySelector('.duration-plot .chart-axis text')).fill]",
        )) as string[];
      if (SCREENSHOTS) {
        await page.locator('.duration-chart').screenshot({ path: `${SCREENSHOTS}/chart-375-dark.png` });
        await page.locator('ol.timeline').screenshot({ path: `${SCREENSHOTS}/timeline-375-dark.png` });
      }
      const dark = await colours();
      await page.emulateMedia({ colorScheme: 'light' });
      const light = await colours();
      t.not(dark[0], light[0], `the chart's background: dark ${dark[0]}, light ${light[0]}`);
      t.not(dark[1], light[1], `its labels: dark ${dark[1]}, light ${light[1]}`);
    });
  });
