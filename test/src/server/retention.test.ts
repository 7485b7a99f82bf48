import t from 'tap';
import { TestClock } from '../helpers/clock.js';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { json, startReceiver } from '../helpers/receiver.js';
import { TestServer } from '../helpers/server.js';

const MINUTE = 60_000;
const DAY = 86_400_000;

for (const kind of DATABASE_KINDS) {
  t.test(`retention on ${kind}: the oldest runs go, with their logs, alerts and deliveries`, async (t) => {
    const clock = new TestClock();
    const api = await TestServer.start(t, kind, {
      clock: clock.read,
      // Nothing runs by itself: each sweep and each retention pass is asked for.
      sweepIntervalMs: 3_600_000,
      pruneIntervalMs: 3_600_000,
      retentionMs: DAY,
      retentionRuns: 5,
    });
    const account = await api.account();
    const receiver = await startReceiver(t, (_req, _n, res) => json(res, 200, {}));
    const hook = { type: 'webhook', name: 'hook', url: `${receiver.url}/hook` };
    t.equal((await api.request('/channels', { token: account.token, body: hook })).status, 201);
    const busy = await api.monitor(account, 'busy');
    const hung = await api.monitor(account, 'hung');
    const count = (table: string, where: Record<string, string>) =>
      api.query(async (knex) => Number((await knex(table).where(where).count({ n: '*' }))[0]!.n));

    // 8 runs a minute apart; the first fails, with a log and an alert to the hook.
    for (let i = 0; i < 8; i++) {
      const runId = `busy-run-${i}`;
      await api.ping(account, busy, 'start', { runId });
      clock.advance(MINUTE);
      const result = i === 0 ? { runId, errorMessage: 'exit 1', logOutput: 'the log' } : { runId };
      await api.ping(account, busy, i === 0 ? 'fail' : 'success', result);
    }
    await api.ping(account, hung, 'start', { runId: 'hung-run-1' });
    t.equal(await count('run_logs', { run_id: 'busy-run-0' }), 1);
    const alertIds = (await api.query((knex) => knex('alerts').where({ run_id: 'busy-run-0' }).select('id'))).map(
      (a: { id: string }) => a.id,
    );
    t.equal(alertIds.length, 1, 'a fail alert');
    t.equal(await count('alert_deliveries', { alert_id: alertIds[0]! }), 1, 'with its delivery');

    const first = await api.server.app.pruner.pruneNow();
    t.match(first, { runs: 3, alerts: 0, more: false }, 'the 3 runs beyond the newest 5 of a monitor');
    t.equal(await count('runs', { monitor_id: busy }), 5);
    t.equal(await count('runs', { monitor_id: busy, id: 'busy-run-0' }), 0, 'the oldest went first');
    t.equal(await count('run_logs', { run_id: 'busy-run-0' }), 0, 'its log with it');
    t.equal(await count('alerts', { id: alertIds[0]! }), 0, 'its alert');
    t.equal(await count('alert_deliveries', { alert_id: alertIds[0]! }), 0, "and the alert's delivery");
    t.equal(await count('runs', { monitor_id: hung }), 1, 'a monitor under the limit keeps its runs');
    const listed = await api.request(`/monitors/${busy}/runs`, { token: account.token });
    t.same(
      listed.body.runs.map((r: { runId: string }) => r.runId),
      ['busy-run-7', 'busy-run-6', 'busy-run-5', 'busy-run-4', 'busy-run-3'],
    );

    // A scheduled monitor's missed alert has no run: it goes by its own age.
    const late = await api.request('/monitors', {
      token: account.token,
      body: { name: 'late', schedule: { every: 60 }, startGrace: 60 },
    });
    clock.advance(5 * MINUTE);
    await api.server.app.sweeper.sweepNow();
    t.equal(await count('alerts', { monitor_id: late.body.monitorId, event: 'missed' }), 1, 'a missed alert');

    clock.advance(2 * DAY);
    const second = await api.server.app.pruner.pruneNow();
    t.equal(second.runs, 5, 'a day later, the finished runs older than a day');
    t.equal(await count('runs', { monitor_id: busy }), 0);
    t.equal(await count('runs', { monitor_id: hung, id: 'hung-run-1' }), 1, 'a run still running is kept');
    t.equal(await count('alerts', { monitor_id: late.body.monitorId, event: 'missed' }), 0, 'the missed alert too');
    t.ok(second.alerts >= 1);
    const result = await api.ping(account, hung, 'success', { runId: 'hung-run-1' });
    t.match(result.body.data, { runId: 'hung-run-1', status: 'success' }, 'its result still finds it');
  });
}

t.test('retention settings are read from the environment, 0 keeping everything', async (t) => {
  const { loadConfig } = await import('@pingmon/server');
  const defaults = loadConfig({});
  t.equal(defaults.retentionMs, 90 * DAY);
  t.equal(defaults.retentionRuns, 10_000);
  t.equal(defaults.pruneIntervalMs, 60_000);
  const off = loadConfig({ PINGMON_RETENTION_DAYS: '0', PINGMON_RETENTION_RUNS: '0' });
  t.equal(off.retentionMs, null);
  t.equal(off.retentionRuns, null);
  t.throws(() => loadConfig({ PINGMON_RETENTION_RUNS: '-1' }), {
    message: 'PINGMON_RETENTION_RUNS must be a whole number of runs, or 0 to keep everything (got "-1")',
  });
});
