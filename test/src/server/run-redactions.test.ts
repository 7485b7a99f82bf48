import t from 'tap';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { TestServer } from '../helpers/server.js';

// A run's `redactions`: how many secrets the client replaced with [redacted] (docs/api.md#redactions).

for (const kind of DATABASE_KINDS) {
  t.test(`runs carry redactions, on ${kind}`, async (t) => {
    const api = await TestServer.start(t, kind);
    const account = await api.account('unlimited');
    const runOf = async (monitorId: string, runId: string) =>
      (await api.request(`/monitors/${monitorId}/runs/${runId}`, { token: account.token })).body;

    t.test('a result sets it, on a run it finishes or opens; a start and a result without it leave 0', async (t) => {
      const m = await api.monitor(account, 'counted');
      await api.ping(account, m, 'start', { runId: 'run-started-1', redactions: 9 });
      t.equal((await runOf(m, 'run-started-1')).redactions, 0, 'a start does not carry it');
      await api.ping(account, m, 'success', { runId: 'run-started-1', redactions: 2 });
      t.match(await runOf(m, 'run-started-1'), { status: 'success', redactions: 2 });
      await api.ping(account, m, 'fail', { runId: 'run-opened-1', redactions: 5, errorMessage: 'x' });
      t.match(await runOf(m, 'run-opened-1'), { status: 'failed', redactions: 5 });
      await api.ping(account, m, 'success', { runId: 'run-plain-1', redactions: null });
      t.equal((await runOf(m, 'run-plain-1')).redactions, 0);
      const listed = (await api.request(`/monitors/${m}/runs`, { token: account.token })).body.runs;
      t.same(
        listed.map((r: { redactions: number }) => r.redactions),
        [0, 5, 2],
      );
    });

    t.test('results arriving together keep each its own count (batched on PostgreSQL)', async (t) => {
      const m = await api.monitor(account, 'many at once');
      const ids = Array.from({ length: 30 }, (_, i) => `run-batch-${String(i).padStart(2, '0')}`);
      await Promise.all(ids.map((runId) => api.ping(account, m, 'start', { runId })));
      const done = await Promise.all(
        ids.map((runId, i) => api.ping(account, m, i % 2 ? 'fail' : 'success', { runId, redactions: i })),
      );
      t.same(
        done.map((r) => r.status),
        ids.map(() => 200),
      );
      const runs = await Promise.all(ids.map((runId) => runOf(m, runId)));
      t.same(
        runs.map((r) => r.redactions),
        ids.map((_, i) => i),
      );
    });

    t.test('a count that is no whole number from 0 is refused, saying what it must be', async (t) => {
      const m = await api.monitor(account, 'refused');
      for (const redactions of [-1, 1.5, '3', 2 ** 31, true]) {
        const reply = await api.ping(account, m, 'fail', { redactions });
        t.equal(reply.status, 400, String(redactions));
        t.equal(reply.body.code, 'invalid_body');
        t.match(reply.body.message, /^redactions must be a whole number from 0 to 2147483647 \(got .+\)/);
      }
    });

    t.test('the OpenAPI document shows it on the result bodies and on runs', async (t) => {
      const schemas = (await api.request('/openapi.json')).body.components.schemas;
      for (const name of ['SuccessPingBody', 'FailPingBody', 'Run', 'RunDetail']) {
        t.ok(schemas[name].properties.redactions, name);
      }
      t.notOk(schemas.StartPingBody.properties.redactions, 'not on a start');
    });
  });
}
