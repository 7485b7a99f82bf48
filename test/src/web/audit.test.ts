import t from 'tap';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { TestServer } from '../helpers/server.js';
import { requireTools } from '../helpers/system-tools.js';
import { waitFor } from '../helpers/wait.js';

// The dashboard's Audit page: a real Chromium against one real server (SQLite). What the dashboard itself changes is
// recorded like any other change, with the filters in the address and Newer/Older through the pages.

if (requireTools(t, 'chromium'))
  t.test("the Audit page shows the account's trail, filtered from its address", async (t) => {
    const api = await TestServer.start(t, 'sqlite');
    const origin = api.url.replace(/\/api\/v1$/, '');
    const account = await api.account();
    for (let i = 0; i < 55; i++) await api.monitor(account, `job ${i}`);

    const browser = await launchBrowser(t);
    const page = await openPage(t, browser);
    await page.goto(`${origin}/audit`);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Audit', exact: true }).waitFor();
    const rows = page.locator('table.audit tbody tr');
    await rows.first().waitFor();
    t.equal(await rows.count(), 50, 'a page of 50');
    t.match(await rows.first().textContent(), /user\.signed_in/, "newest first: this page's own sign-in");
    t.ok((await rows.first().textContent())?.includes(account.email), 'who, by e-mail');
    t.match(await rows.nth(1).textContent(), /monitor\.created.*job 54/);

    await page.getByRole('button', { name: 'Older' }).click();
    await page.locator('table.audit tbody tr', { hasText: 'job 0' }).waitFor();
    t.equal(await rows.count(), 7, "the rest: 6 monitors and the test account's own sign-in");
    await page.getByRole('button', { name: 'Newer' }).click();
    await page.locator('table.audit tbody tr', { hasText: 'job 54' }).waitFor();

    await page.getByLabel('Monitor').fill('job-7');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/\/audit\?monitor=job-7$/);
    await waitFor(async () => (await rows.count()) === 1, { what: 'the one entry of that monitor' });
    t.match(await rows.first().textContent(), /monitor\.created.*job 7/);

    await page.goto(`${origin}/audit?action=user.signed_out`);
    await page.getByText('No audit entries match.').waitFor();
    t.equal(await page.getByLabel('Action').inputValue(), 'user.signed_out', 'the filter read from the address');
  });
