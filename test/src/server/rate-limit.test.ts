import t from 'tap';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { TestServer } from '../helpers/server.js';

for (const kind of DATABASE_KINDS) {
  t.test(`rate limit on ${kind}`, async (t) => {
    const api = await TestServer.start(t, kind);

    t.test('20 concurrent starts on a fresh free monitor: exactly one 200 and nineteen 429s', async (t) => {
      const account = await api.account('free');
      const monitorId = await api.monitor(account);
      const replies = await Promise.all(Array.from({ length: 20 }, () => api.ping(account, monitorId, 'start')));
      const statuses = replies.map((r) => r.status).sort();
      t.same(statuses, [200, ...Array(19).fill(429)]);
      const limited = replies.find((r) => r.status === 429)!;
      t.equal(limited.body.code, 'rate_limited');
      const retryAfter = Number(limited.headers.get('retry-after'));
      t.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter} is within the free plan's minute`);
      t.equal(limited.body.retryAfter, retryAfter);
      t.match(limited.body.message, new RegExp(`wait ${retryAfter} seconds?`, 'i'));
      const count = await api.query((knex) => knex('runs').where({ monitor_id: monitorId }).count({ n: '*' }).first());
      t.equal(Number(count!.n), 1, 'one run was opened');
    });

    t.test('the result that finishes an open run is never limited, nor is a replay', async (t) => {
      const account = await api.account('free');
      const monitorId = await api.monitor(account);
      const runId = 'limited-run-0001';
      t.equal((await api.ping(account, monitorId, 'start', { runId })).status, 200);
      t.equal((await api.ping(account, monitorId, 'start', { runId })).status, 200, 'start replay');
      t.equal(
        (await api.ping(account, monitorId, 'fail', { runId, logOutput: 'boom' })).status,
        200,
        "the job's result",
      );
      t.equal((await api.ping(account, monitorId, 'fail', { runId })).status, 200, 'result replay');
      const another = await api.ping(account, monitorId, 'success');
      t.equal(another.status, 429, 'a result that opens a new run within the minute is limited');
      t.equal((await api.ping(account, monitorId, 'start')).status, 429);
    });

    t.test('each monitor has its own limit', async (t) => {
      const account = await api.account('free');
      const a = await api.monitor(account, 'a');
      const b = await api.monitor(account, 'b');
      t.equal((await api.ping(account, a, 'start')).status, 200);
      t.equal((await api.ping(account, b, 'start')).status, 200);
    });

    t.test('unlimited plans are never limited', async (t) => {
      const account = await api.account('unlimited');
      const monitorId = await api.monitor(account);
      const replies = await Promise.all(Array.from({ length: 10 }, () => api.ping(account, monitorId, 'start')));
      t.same(
        replies.map((r) => r.status),
        Array(10).fill(200),
      );
    });
  });

  t.test(`plan intervals can be overridden by server config, on ${kind}`, async (t) => {
    const api = await TestServer.start(t, kind, {
      planIntervalsMs: { free: 0, pro: 10_000, business: 1_000, unlimited: 0 },
    });
    const account = await api.account('free');
    const monitorId = await api.monitor(account);
    t.equal((await api.ping(account, monitorId, 'start')).status, 200);
    t.equal((await api.ping(account, monitorId, 'start')).status, 200);
    const pro = await api.account('pro');
    const proMonitor = await api.monitor(pro);
    t.equal((await api.ping(pro, proMonitor, 'start')).status, 200);
    const limited = await api.ping(pro, proMonitor, 'start');
    t.equal(limited.status, 429);
    t.ok(limited.body.retryAfter <= 10);
  });
}
