import t from 'tap';
import { TestClock } from '../helpers/clock.js';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { request } from '../helpers/http.js';
import { TestServer } from '../helpers/server.js';

// A status page of 50 public monitors over 90 days, each with a run every two hours (54,000 runs), is read in a
// few statements whatever its days and monitors: it answers well within a second on a quiet machine.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MONITORS = 50;
const RUNS_A_DAY = 12;
/** Far above what it takes (about 0.1 s on SQLite), far below a statement per monitor and day. */
const LIMIT_MS = 2_000;

for (const kind of DATABASE_KINDS) {
  t.test(`a page of ${MONITORS} monitors × 90 days on ${kind}`, async (t) => {
    const now = Date.parse('2027-03-27T12:00:00.000Z');
    const clock = new TestClock(now - 95 * DAY);
    const api = await TestServer.start(t, kind, { clock: clock.read, sweepIntervalMs: 3_600_000 });
    const account = await api.account();
    const ids: string[] = [];
    for (let i = 0; i < MONITORS; i++) ids.push(await api.monitor(account, `job ${i}`));
    clock.set(new Date(now).toISOString());
    const runs = ids.flatMap((monitorId, m) =>
      Array.from({ length: 90 * RUNS_A_DAY }, (_, n) => {
        const startedAt = now - 90 * DAY + n * 2 * HOUR;
        // Each monitor fails on a day of its own (its index), once.
        const failed = n === (m + 1) * RUNS_A_DAY;
        return {
          monitor_id: monitorId,
          id: `run-${String(n).padStart(6, '0')}`,
          account_id: account.accountId,
          status: failed ? 'failed' : 'success',
          started_at: startedAt,
          finished_at: startedAt + 1000,
          duration_ms: 1000,
          meta: '{}',
          has_log: false,
        };
      }),
    );
    await api.query((knex) => knex.batchInsert('runs', runs, 500));
    const set = await api.request('/status-page', {
      method: 'PUT',
      token: account.token,
      body: { slug: 'big', monitorIds: ids },
    });
    t.equal(set.status, 200, set.text);

    const origin = api.url.replace(/\/api\/v1$/, '');
    const started = performance.now();
    const page = await request(`${origin}/status/big`);
    const took = performance.now() - started;
    t.equal(page.status, 200);
    t.comment(`${MONITORS} monitors × 90 days from ${runs.length} runs: ${took.toFixed(0)} ms`);
    t.ok(took < LIMIT_MS, `answered in ${took.toFixed(0)} ms`);
    t.equal(page.text.match(/<li class="day-/g)?.length, MONITORS * 90, 'a bar per monitor and day');
    t.equal(page.text.match(/<li class="day-failed"/g)?.length, MONITORS, "each monitor's failed day, once");
  });
}
