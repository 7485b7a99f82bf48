import t from 'tap';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { TestServer } from '../helpers/server.js';
import { requireTools } from '../helpers/system-tools.js';

// The public status page (docs/dashboard.md#status-page) in a real browser with JavaScript off, on a phone's width:
// it is all there without a script, nothing overflows, and each day's bar says what it stands for.

if (requireTools(t, 'chromium'))
  t.test('the status page reads without JavaScript, at 375 px', async (t) => {
    const api = await TestServer.start(t, 'sqlite');
    const origin = api.url.replace(/\/api\/v1$/, '');
    const account = await api.account();
    const names = ['Nightly backup of the customer database', 'Invoices', 'Search index rebuild'];
    const ids: string[] = [];
    for (const name of names) ids.push(await api.monitor(account, name));
    t.equal((await api.ping(account, ids[0]!, 'success')).status, 200);
    t.equal((await api.ping(account, ids[1]!, 'fail', { errorMessage: 'disk full' })).status, 200);
    const set = await api.request('/status-page', {
      method: 'PUT',
      token: account.token,
      body: { slug: 'acme', title: 'Acme jobs', monitorIds: ids, showErrorMessages: true },
    });
    t.equal(set.status, 200, set.text);

    const browser = await launchBrowser(t);
    const page = await openPage(t, browser, { javaScriptEnabled: false, viewport: { width: 375, height: 800 } });
    const response = await page.goto(`${origin}/status/acme`);
    t.equal(response?.status(), 200);
    t.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Acme jobs');
    t.equal(await page.locator('.summary').textContent(), '1 of 3 monitors down');
    for (const name of names) t.ok(await page.getByRole('heading', { name, level: 2 }).isVisible(), `${name} shown`);
    t.equal(await page.locator('.error').textContent(), 'disk full');

    const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
    t.equal(overflow, 0, 'nothing wider than the screen');
    const lists = page.locator('ol.bars');
    t.equal(await lists.count(), 3);
    const today = new Date().toISOString().slice(0, 10);
    for (let i = 0; i < 3; i++) {
      const bars = lists.nth(i).locator('li');
      t.equal(await bars.count(), 90, `${names[i]}: 90 bars`);
      const box = await bars.last().boundingBox();
      t.ok(box && box.width >= 2 && box.height >= 20, `${names[i]}: today's bar is drawn (${JSON.stringify(box)})`);
      t.ok(box && box.x + box.width <= 375, `${names[i]}: today's bar fits on the screen`);
    }
    const month = new Date(`${today}T00:00:00Z`).toLocaleString('en', { month: 'short', timeZone: 'UTC' });
    const date = `${Number(today.slice(8))} ${month} ${today.slice(0, 4)}`;
    t.equal(await lists.nth(0).locator('li').last().getAttribute('title'), `${date}: 1 run, no failure`);
    t.equal(
      await lists.nth(1).locator('li').last().textContent(),
      `${date}: 1 of 1 run failed`,
      'read by screen readers',
    );
    t.equal(await lists.nth(2).locator('li').last().textContent(), `${date}: no runs recorded`);
    t.equal(await lists.nth(0).getAttribute('aria-label'), 'Nightly backup of the customer database, the last 90 days');
  });

if (requireTools(t, 'chromium'))
  t.test("an admin chooses the page's address and public monitors in the dashboard", async (t) => {
    const api = await TestServer.start(t, 'sqlite');
    const origin = api.url.replace(/\/api\/v1$/, '');
    const account = await api.account();
    await api.monitor(account, 'Nightly backup');
    await api.monitor(account, 'Secret payroll');

    const browser = await launchBrowser(t);
    const page = await openPage(t, browser);
    await page.goto(`${origin}/status-page`);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Status page', level: 1 }).waitFor();
    await page.getByLabel('Address: /status/…').fill('acme');
    await page.getByLabel('Title').fill('Acme jobs');
    await page.getByRole('checkbox', { name: /Nightly backup/ }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const link = page.getByRole('link', { name: `${origin}/status/acme` });
    await link.waitFor();
    t.equal(await link.getAttribute('href'), '/status/acme');
    const badge = page.getByRole('img', { name: 'Nightly backup badge' });
    await badge.waitFor();
    const drawn = await badge.evaluate((img) => {
      const image = img as unknown as { complete: boolean; naturalWidth: number };
      return image.complete && image.naturalWidth > 0;
    });
    t.ok(drawn, 'the badge is drawn');

    const reply = await api.request('/status-page', { token: account.token });
    t.match(reply.body, { slug: 'acme', title: 'Acme jobs', monitors: [{ name: 'Nightly backup' }] });
    t.equal(reply.body.monitors.length, 1);
    await link.click();
    await page.getByRole('heading', { name: 'Acme jobs', level: 1 }).waitFor();
    t.notOk((await page.content()).includes('Secret payroll'), 'the private monitor is not on the public page');
  });
