import t from 'tap';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { TestServer } from '../helpers/server.js';
import { requireTools } from '../helpers/system-tools.js';
import { waitFor } from '../helpers/wait.js';

// docs/dashboard.md#live-output: a running run's page shows its output as it arrives, read once a second, and its
// stored log once it ends; in a real Chromium, the output sent as pingmon run sends it.

if (requireTools(t, 'chromium'))
  t.test("the run page shows a running run's output live, then its log", async (t) => {
    const api = await TestServer.start(t, 'sqlite');
    const origin = api.url.replace(/\/api\/v1$/, '');
    const account = await api.account();
    const monitorId = await api.monitor(account, 'live job');
    const runId = 'run-live-web-01';
    const send = async (offset: number, text: string) => {
      const reply = await api.request(`/ping/${monitorId}/output`, {
        method: 'POST',
        apiKey: account.apiKey,
        body: { runId, offset, text },
      });
      t.equal(reply.status, 200, reply.text);
    };
    t.equal((await api.ping(account, monitorId, 'start', { runId })).status, 200);
    await send(0, 'copying part 1\n');

    const browser = await launchBrowser(t);
    const page = await openPage(t, browser);
    await page.goto(`${origin}/monitors/${monitorId}/runs/${runId}`);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const live = page.getByRole('region', { name: 'Live output' });
    const shown = async (want: string) => {
      let last = '';
      await waitFor(async () => ((last = await live.locator('pre').innerText()), last.trimEnd() === want), {
        what: `the live output ${JSON.stringify(want)}`,
        show: () => `shown: ${JSON.stringify(last)}`,
      });
    };
    await shown('copying part 1');
    await send(15, 'copying part 2\n');
    await shown('copying part 1\ncopying part 2');

    const fail = await api.ping(account, monitorId, 'fail', {
      runId,
      errorMessage: 'exit code 1',
      logOutput: 'copying part 1\ncopying part 2\ndisk full\n',
    });
    t.equal(fail.status, 200);
    const log = page.getByRole('region', { name: 'Log' });
    await log.waitFor();
    t.match(await log.locator('pre').innerText(), /disk full/, 'the stored log replaces it when the run ends');
    t.equal(await live.count(), 0, 'and the live output is gone');
  });
