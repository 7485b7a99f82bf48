import t from 'tap';
import type { Page } from 'playwright-core';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { TestClock } from '../helpers/clock.js';
import { seedFailures } from '../helpers/failure-fixtures.js';
import { TestServer } from '../helpers/server.js';
import { requireTools } from '../helpers/system-tools.js';
import { waitFor } from '../helpers/wait.js';

// docs/dashboard.md: a failed run says whether its failure is new or when it was first seen, and the monitor's runs
// filter by failure fingerprint (?fingerprint=), in a real Chromium against a server whose clock the test set.

if (requireTools(t, 'chromium'))
  t.test('failure fingerprints in the dashboard', async (t) => {
    // The runs end now by the browser's clock, so that "3d ago" is measured from the same time on both sides.
    const clock = new TestClock(Date.now());
    const api = await TestServer.start(t, 'sqlite', { clock: clock.read });
    const origin = api.url.replace(/\/api\/v1$/, '');
    const account = await api.account();
    const seeded = await seedFailures(api, account, clock);
    const { monitorId } = seeded;
    const fingerprintOf = async (runId: string) =>
      (await api.request(`/monitors/${monitorId}/runs/${runId}`, { token: account.token })).body.fingerprint as string;
    const refusedPrint = await fingerprintOf(seeded.refused[0]);
    const passwordPrint = await fingerprintOf(seeded.password);
    t.not(refusedPrint, passwordPrint, 'two causes, two fingerprints');

    const browser = await launchBrowser(t);
    const signIn = async (page: Page, path: string) => {
      await page.goto(`${origin}${path}`);
      await page.getByLabel('Email').fill(account.email);
      await page.getByLabel('Password').fill(account.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
    };
    /** The runs the monitor page lists, by the run ids their links name. */
    const listed = async (page: Page) => {
      const script =
        "[...document.querySelectorAll('table.runs tbody td[data-label=Status] a')]" +
        ".map((a) => a.getAttribute('aria-label').replace(/^Run /, ''))";
      return (await page.evaluate(script)) as string[];
    };
    const waitForRuns = async (page: Page, runIds: string[]) => {
      let last: string[] = [];
      await waitFor(async () => ((last = await listed(page)), last.join(' ') === runIds.join(' ')), {
        what: `the runs ${runIds.join(', ')}`,
        show: () => `listed: ${last.join(', ')}`,
      });
    };
    const filterNotice = (page: Page) => page.getByRole('status', { name: 'Failure filter' });
    const every = [seeded.success, seeded.refused[0], seeded.password, seeded.refused[1]];

    t.test('a failed run says when its failure was first seen, and links to the runs that failed so', async (t) => {
      const page = await openPage(t, browser);
      await signIn(page, `/monitors/${monitorId}/runs/${seeded.refused[0]}`);
      const detail = page.getByRole('article', { name: 'Run detail' });
      await detail.waitFor();
      const failure = detail.locator('dt:text-is("Failure") + dd');
      t.match(await failure.innerText(), /^first seen 3d ago, 2 times · runs with this failure$/);
      await failure.getByRole('link', { name: 'runs with this failure' }).click();
      await page.waitForURL(`${origin}/monitors/${monitorId}?fingerprint=${refusedPrint}`);
      await waitForRuns(page, seeded.refused);
      t.match(await filterNotice(page).textContent(), `fingerprint ${refusedPrint}`, 'which failure, said');
      t.equal(await page.locator('table.runs .same-failure').count(), 0, 'no "same failure" on the same failure');

      await page.reload();
      await waitForRuns(page, seeded.refused);
      t.pass('the filter after a reload');
      await filterNotice(page).getByRole('button', { name: 'Show all runs' }).click();
      await page.waitForURL(`${origin}/monitors/${monitorId}`);
      await waitForRuns(page, every);
      t.equal(await filterNotice(page).count(), 0, 'cleared: every run, no notice');

      await page.goto(`${origin}/monitors/${monitorId}/runs/${seeded.password}`);
      await detail.waitFor();
      t.match(await failure.innerText(), /^new failure · /, 'a failure seen once is new');
      await page.goto(`${origin}/monitors/${monitorId}/runs/${seeded.success}`);
      await detail.waitFor();
      t.equal(await detail.locator('dt:text-is("Failure")').count(), 0, 'a success has no failure');
    });

    t.test('each failed run in the list offers "same failure"; a shared link opens filtered', async (t) => {
      const page = await openPage(t, browser);
      await signIn(page, `/monitors/${monitorId}`);
      await waitForRuns(page, every);
      const offers = page.locator('table.runs .same-failure');
      t.equal(await offers.count(), 3, 'on the three failed runs, not on the success');
      await page.getByRole('link', { name: `same failure as ${seeded.password}` }).click();
      await page.waitForURL(`${origin}/monitors/${monitorId}?fingerprint=${passwordPrint}`);
      await waitForRuns(page, [seeded.password]);
      t.match(await filterNotice(page).textContent(), `fingerprint ${passwordPrint}`);
      await page.goBack();
      await waitForRuns(page, every);
      t.pass('Back: every run again');

      const shared = await openPage(t, browser);
      await signIn(shared, `/monitors/${monitorId}?fingerprint=${refusedPrint}`);
      await waitForRuns(shared, seeded.refused);
      t.pass('a link with the filter, opened elsewhere, lists the same runs');
      await shared.goto(`${origin}/monitors/${monitorId}?fingerprint=0000000000000000`);
      await shared.getByText('No runs with this failure.').waitFor();
      t.pass('a fingerprint no run has: said so');
    });
  });
