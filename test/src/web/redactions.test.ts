import t from 'tap';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { TestServer } from '../helpers/server.js';
import { requireTools } from '../helpers/system-tools.js';

// docs/dashboard.md: the run page says how many secrets were redacted before the run left its host, when any were.

if (requireTools(t, 'chromium'))
  t.test("the run page's Redacted line", async (t) => {
    const api = await TestServer.start(t, 'sqlite');
    const origin = api.url.replace(/\/api\/v1$/, '');
    const account = await api.account();
    const m = await api.monitor(account, 'leaky job');
    await api.ping(account, m, 'fail', { runId: 'run-redacted-3', errorMessage: 'password=[redacted]', redactions: 3 });
    await api.ping(account, m, 'fail', { runId: 'run-redacted-0', errorMessage: 'exit code 1' });
    const browser = await launchBrowser(t);
    const page = await openPage(t, browser);
    await page.goto(`${origin}/monitors/${m}/runs/run-redacted-3`);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const detail = page.getByRole('article', { name: 'Run detail' });
    await detail.waitFor();
    t.equal(await detail.locator('dt:text-is("Redacted") + dd').innerText(), '3 values');
    await page.goto(`${origin}/monitors/${m}/runs/run-redacted-0`);
    await detail.waitFor();
    await detail.locator('dt:text-is("Host")').waitFor();
    t.equal(await detail.locator('dt:text-is("Redacted")').count(), 0, 'no line when nothing was redacted');
  });
