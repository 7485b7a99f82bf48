// The README's screenshots of the dashboard, taken in Chromium from a server holding a few days of plausible runs
// (on a test clock, so that runs have real durations). `npm run screenshots -w test` writes them to docs/images/.
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { TestClock } from '../helpers/clock.js';
import { TestServer } from '../helpers/server.js';
import { toolMissing } from '../helpers/system-tools.js';

const OUT = fileURLToPath(new URL('../../../docs/images/', import.meta.url));
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const BACKUP_LOG = [
  'pg_dump: dumping contents of table "public.orders"',
  'pg_dump: dumping contents of table "public.order_items"',
  'pg_dump: dumping contents of table "public.invoices"',
  'pg_dump: dumping contents of table "public.customers"',
  'pg_dump: dumping contents of table "public.events" (41,882,113 rows)',
  'pg_dump: error: Dumping the contents of table "events" failed: PQgetResult() failed.',
  'pg_dump: error: Error message from server: ERROR:  canceling statement due to conflict with recovery',
  'DETAIL:  User query might have needed to see row versions that must be removed.',
  'pg_dump: error: The command was: COPY public.events (id, kind, payload, created_at) TO stdout;',
  'upload: skipped, no dump file',
  'backup.sh: pg_dump exited with status 1 after 47m12s',
].join('\n');

const teardowns: Array<() => unknown> = [];
let failed = false;
const t = {
  teardown: (fn: () => unknown) => void teardowns.push(fn),
  passing: () => !failed,
  fullname: 'screenshots',
};

async function main(): Promise<void> {
  const missing = toolMissing('chromium');
  if (missing) throw new Error(missing);
  // The last run ends a few minutes before the real now, so that what the browser shows as "ago" is right, and the
  // server's clock stops a few minutes after it, before the next runs are due.
  const clock = new TestClock(Date.now() - 19 * DAY - 19 * HOUR - 50 * MINUTE);
  const api = await TestServer.start(t, 'sqlite', { clock: clock.read, sweepIntervalMs: 3_600_000 });
  const origin = api.url.replace(/\/api\/v1$/, '');
  const account = await api.account();
  const create = async (name: string, body: Record<string, unknown> = {}) =>
    (await api.request('/monitors', { token: account.token, body: { name, ...body } })).body.monitorId as string;
  const start = clock.now;
  const run = async (monitorId: string, at: number, ms: number, end: 'success' | 'fail', body = {}) => {
    clock.set(new Date(at).toISOString());
    const runId = `run_${randomBytes(6).toString('hex')}`;
    await api.ping(account, monitorId, 'start', { runId });
    clock.advance(ms);
    await api.ping(account, monitorId, end, { runId, ...body });
    return runId;
  };

  const backup = await create('nightly-backup', { schedule: { cron: '0 3 * * *', timezone: 'Europe/Berlin' } });
  const sync = await create('hourly-sync', { schedule: { every: 3600 } });
  const invoices = await create('invoice-export', { schedule: { cron: '0 6 * * *', timezone: 'UTC' } });
  const warmup = await create('cache-warmup', { schedule: { every: 900 } });
  const mailer = await create('report-mailer', { schedule: { cron: '0 8 * * 1', timezone: 'UTC' } });
  await create('cleanup-tmp');
  await api.request(`/monitors/${sync}/rules`, {
    token: account.token,
    body: { metric: 'rowsProcessed', op: 'lt', value: 1 },
  });

  let failedBackup = '';
  for (let day = 0; day < 20; day++) {
    const at = start + day * DAY;
    const last = day === 19;
    const minutes = 38 + ((day * 7) % 11);
    if (last)
      failedBackup = await run(backup, at, 47 * MINUTE + 12_000, 'fail', {
        errorMessage: 'exit code 1: pg_dump: error: Dumping the contents of table "events" failed',
        logOutput: BACKUP_LOG,
        meta: { exitCode: 1 },
      });
    else await run(backup, at, minutes * MINUTE, 'success', { meta: { exitCode: 0, sizeBytes: 8_400_000_000 + day } });
    const flap = day % 4 === 1 || day > 16;
    await run(invoices, at + 3 * HOUR, (50 + day * 9) * 1000, flap && day !== 18 ? 'fail' : 'success', {
      errorMessage: flap ? 'exit code 2: SMTP relay refused the connection' : undefined,
    });
    await run(mailer, at + 5 * HOUR, 12_000 + day * 300, 'success');
  }
  for (let hour = 0; hour < 20; hour++) {
    const at = start + 19 * DAY + hour * HOUR;
    await run(sync, at, (20 + ((hour * 13) % 25)) * 1000, 'success', {
      meta: { rowsProcessed: hour === 14 ? 0 : 5000 + hour },
    });
    for (let quarter = 0; quarter < 4; quarter++)
      await run(warmup, at + quarter * 15 * MINUTE, 1800 + ((hour + quarter) % 5) * 150, 'success');
  }
  await api.request(`/monitors/${mailer}`, { method: 'PATCH', token: account.token, body: { paused: true } });
  clock.set(new Date(start + 19 * DAY + 19 * HOUR + 58 * MINUTE).toISOString());
  await api.server.app.sweeper.sweepNow();

  const browser = await launchBrowser(t);
  const page = await openPage(t, browser, { viewport: { width: 1100, height: 560 }, colorScheme: 'light' });
  await page.goto(`${origin}/monitors/${backup}/runs/${failedBackup}`);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Expand' }).waitFor();
  await page.screenshot({ path: `${OUT}dashboard-run-collapsed.png`, fullPage: true });
  await page.getByRole('button', { name: 'Expand' }).click();
  await page.screenshot({ path: `${OUT}dashboard-run-expanded.png`, fullPage: true });
  await page.getByRole('link', { name: 'Monitors' }).first().click();
  await page.locator('table.monitors tbody tr').nth(5).waitFor();
  await page.screenshot({ path: `${OUT}dashboard-monitors.png`, fullPage: true });
  await page.goto(`${origin}/monitors/${backup}`);
  const durations = page.locator('section[aria-labelledby="durations-title"]');
  await durations.locator('.chart-median').waitFor();
  await durations.screenshot({ path: `${OUT}dashboard-durations.png` });
  const timeline = page.locator('section[aria-labelledby="timeline-title"]');
  await timeline.locator('ol.timeline > li').first().waitFor();
  await timeline.screenshot({ path: `${OUT}dashboard-timeline.png` });
  await page.goto(`${origin}/monitors/${backup}/edit`);
  await page.locator('table.expected tbody tr').nth(4).waitFor();
  await page.screenshot({ path: `${OUT}dashboard-edit.png`, fullPage: true });
  console.log(`screenshots written to ${OUT}`);
}

try {
  await main();
} catch (err) {
  failed = true;
  console.error(err);
  process.exitCode = 1;
} finally {
  for (const fn of teardowns.reverse()) await fn();
}
