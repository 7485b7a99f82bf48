import t from 'tap';
import { createPinger, newRunId } from '@pingmon/sdk';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { TestServer } from '../helpers/server.js';

// PostgreSQL refuses NUL in text: a fail ping carrying one used to end in a 500, and the run's result was lost.
for (const kind of DATABASE_KINDS) {
  t.test(`NUL bytes in a failure's message and log on ${kind}`, async (t) => {
    const api = await TestServer.start(t, kind);
    const account = await api.account();
    const stored = async (monitorId: string, runId: string) => ({
      run: await api.query((knex) => knex('runs').where({ monitor_id: monitorId, id: runId }).first()),
      log: await api.query((knex) => knex('run_logs').where({ monitor_id: monitorId, run_id: runId }).first()),
    });

    t.test('a JSON fail ping is recorded, each NUL stored as U+FFFD', async (t) => {
      const monitorId = await api.monitor(account);
      const runId = newRunId();
      const reply = await api.ping(account, monitorId, 'fail', {
        runId,
        errorMessage: 'exit\u00001',
        logOutput: 'line 1\u0000line 2\u0000',
      });
      t.equal(reply.status, 200, reply.text);
      const { run, log } = await stored(monitorId, runId);
      t.match(run, { status: 'failed', error_message: 'exit\uFFFD1' });
      t.equal(log.content, 'line 1\uFFFDline 2\uFFFD');
      const served = await api.request(`/monitors/${monitorId}/runs/${runId}/log`, { token: account.token });
      t.same(served.body, { hasLog: true, content: 'line 1\uFFFDline 2\uFFFD' });
    });

    t.test('a text/plain fail body is recorded the same way', async (t) => {
      const monitorId = await api.monitor(account);
      const reply = await api.ping(account, monitorId, 'fail', Buffer.from('binary\u0000output\n'), {
        'content-type': 'text/plain',
      });
      t.equal(reply.status, 200, reply.text);
      t.equal((await stored(monitorId, reply.body.data.runId)).log.content, 'binary\uFFFDoutput\n');
    });

    t.test('NUL anywhere else is a 400, never a 500', async (t) => {
      const monitorId = await api.monitor(account);
      const cases: Array<[string, Parameters<typeof api.request>[1]]> = [
        ['/auth/login', { body: { email: 'a\u0000b@example.com', password: 'whatever' } }],
        ['/monitors', { token: account.token, body: { name: 'nightly\u0000backup' } }],
        ['/api-keys', { token: account.token, body: { name: 'key\u0000' } }],
        [`/monitors/${monitorId}/rules`, { token: account.token, body: { metric: 'rows\u0000', op: 'lt', value: 1 } }],
        [`/monitors/${monitorId}/runs?cursor=%00`, { token: account.token }],
        ['/monitors/mon_%00x', { token: account.token }],
      ];
      for (const [path, options] of cases) {
        const reply = await api.request(path, options);
        t.equal(reply.status, 400, path);
        t.equal(reply.body.code, 'invalid_request', path);
      }
      const ping = await api.ping(account, 'mon_%00x', 'success');
      t.equal(ping.status, 400);
    });

    t.test("the SDK's fail() is recorded, as the server would store it", async (t) => {
      const monitorId = await api.monitor(account);
      const mon = createPinger({ monitorId, apiKey: account.apiKey, baseUrl: api.url });
      await mon.start();
      const ack = await mon.fail({ message: 'bad\u0000byte', log: 'out\u0000put' });
      t.equal(ack.status, 'failed');
      const { run, log } = await stored(monitorId, ack.runId);
      t.equal(run.error_message, 'bad\uFFFDbyte');
      t.equal(log.content, 'out\uFFFDput');
      t.ok(run.duration_ms !== null, 'paired with its start');
    });
  });
}
