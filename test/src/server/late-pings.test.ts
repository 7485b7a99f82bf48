import t from 'tap';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { TestServer } from '../helpers/server.js';

// A ping may carry its own `timestamp` (a job host's spool delivering it late, DESIGN §14): the run keeps the
// times it really had, and a late opening is rate limited by the runs around its own time.

const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

for (const kind of DATABASE_KINDS) {
  t.test(`late pings on ${kind}`, async (t) => {
    const api = await TestServer.start(t, kind);
    const account = await api.account('free');
    const run = async (monitorId: string, runId: string) =>
      (await api.request(`/monitors/${monitorId}/runs/${runId}`, { token: account.token })).body;
    const runs = async (monitorId: string) =>
      (await api.request(`/monitors/${monitorId}/runs`, { token: account.token })).body.runs;

    t.test('a run keeps the start, end and duration its pings carry, and a replay changes nothing', async (t) => {
      const m = await api.monitor(account, 'late run');
      const startedAt = Date.now() - 30 * MINUTE;
      const finishedAt = startedAt + 95_250;
      const runId = 'late-run-0001';
      const start = await api.ping(account, m, 'start', { runId, timestamp: iso(startedAt) });
      t.equal(start.status, 200, start.text);
      t.equal(start.body.data.timestamp, iso(startedAt), 'the ack says the time the ping stands for');
      const fail = { runId, timestamp: iso(finishedAt), errorMessage: 'exit code 3', logOutput: 'boom' };
      t.equal((await api.ping(account, m, 'fail', fail)).status, 200);
      t.match(await run(m, runId), {
        status: 'failed',
        startedAt: iso(startedAt),
        finishedAt: iso(finishedAt),
        durationMs: 95_250,
        errorMessage: 'exit code 3',
      });
      // Delivered again (a flush that died before removing its files): the same answers, still one run.
      t.equal((await api.ping(account, m, 'start', { runId, timestamp: iso(startedAt) })).status, 200);
      t.equal((await api.ping(account, m, 'fail', fail)).status, 200);
      t.equal((await runs(m)).length, 1);
      const alerts = await api.request(`/alerts?monitorId=${m}`, { token: account.token });
      t.equal(alerts.body.alerts.length, 1, 'one fail alert');
    });

    t.test('a timestamp ahead of the server is taken as the time of arrival', async (t) => {
      const m = await api.monitor(account, 'fast clock');
      const before = Date.now();
      const ack = await api.ping(account, m, 'success', { runId: 'ahead-0001', timestamp: iso(before + 3_600_000) });
      t.equal(ack.status, 200);
      const at = Date.parse(ack.body.data.timestamp);
      t.ok(at >= before && at <= Date.now(), 'recorded at its arrival, never in the future');
    });

    t.test('a timestamp that is not ISO 8601, or older than 7 days, is refused and says why', async (t) => {
      const m = await api.monitor(account, 'bad times');
      for (const timestamp of ['yesterday', '2026-11-22 03:20:00', 1_795_000_000_000, '2026-13-01T00:00:00Z']) {
        const reply = await api.ping(account, m, 'start', { runId: 'bad-time-01', timestamp });
        t.equal(reply.status, 400, String(timestamp));
        t.match(reply.body, { code: 'invalid_timestamp', message: /ISO 8601/ });
      }
      const old = await api.ping(account, m, 'fail', { timestamp: iso(Date.now() - 8 * 24 * 3_600_000) });
      t.equal(old.status, 400);
      t.match(old.body, { code: 'invalid_timestamp', message: /more than 7 days old/ });
      t.same(await runs(m), [], 'nothing recorded');
    });

    t.test('late openings are limited by the runs around their own time, in any order', async (t) => {
      const m = await api.monitor(account, 'catching up');
      const t0 = Date.now() - 20 * MINUTE;
      // Three runs a minute apart (free plan: one opening a minute), delivered late and out of order.
      for (const [i, at] of [
        [2, t0 + 2 * MINUTE],
        [0, t0],
        [1, t0 + MINUTE],
      ] as const) {
        const reply = await api.ping(account, m, 'success', { runId: `catch-up-${i}0`, timestamp: iso(at) });
        t.equal(reply.status, 200, `run ${i}: ${reply.text}`);
      }
      // 20 s after one of them: the plan would have refused it then, and refuses it now, for good.
      const close = await api.ping(account, m, 'start', { runId: 'too-close-1', timestamp: iso(t0 + 20_000) });
      t.equal(close.status, 409);
      t.match(close.body, { code: 'too_close', message: /not recorded; sending the ping again will not change/ });
      t.notOk(close.headers.get('retry-after'), 'no Retry-After: waiting would not change the answer');
      // A live ping now is limited by the latest opening as always: ten minutes on, it opens.
      t.equal((await api.ping(account, m, 'start')).status, 200);
      t.equal((await runs(m)).length, 4);
    });

    t.test('a late opening older than the schedule’s last does not move the next expected time back', async (t) => {
      const created = await api.request('/monitors', {
        token: account.token,
        body: { name: 'scheduled', schedule: { every: 3600 } },
      });
      const m = created.body.monitorId as string;
      t.equal((await api.ping(account, m, 'success', { runId: 'sched-now-1' })).status, 200);
      const expected = (await api.request(`/monitors/${m}`, { token: account.token })).body.nextExpectedAt;
      const late = await api.ping(account, m, 'success', {
        runId: 'sched-late-1',
        timestamp: iso(Date.now() - 2 * 3_600_000),
      });
      t.equal(late.status, 200);
      const after = await api.request(`/monitors/${m}`, { token: account.token });
      t.equal(after.body.nextExpectedAt, expected);
      t.equal(after.body.status, 'up');
    });
  });
}
