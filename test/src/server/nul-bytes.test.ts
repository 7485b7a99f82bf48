import t from 'tap';
import { createPinger, newRunId } from '@pingmon/sdk';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { TestServer } from '../helpers/server.js';

// PostgreSQL refuses NUL in text: a fail ping carrying one used to end in a 500, and the run's result was lost.
// A lone surrogate has no UTF-8 form: the drivers stored U+FFFD, so a name read back differed from the one sent.
for (const kind of DATABASE_KINDS) {
  t.test(`NUL bytes and lone surrogates on ${kind}`, async (t) => {
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

    t.test('a lone surrogate in a name is a 400 naming the field, on every endpoint that keeps one', async (t) => {
      const monitorId = await api.monitor(account);
      const channel = { type: 'webhook', url: 'https://example.com/h' };
      const { channelId } = (await api.request('/channels', { token: account.token, body: channel })).body;
      const cases: Array<[string, string, Record<string, unknown>, RegExp]> = [
        ['POST', '/monitors', { name: 'nightly \ud800 backup' }, /"name"/],
        ['PATCH', `/monitors/${monitorId}`, { name: '\udc00' }, /"name"/],
        ['POST', '/api-keys', { name: 'key \udbff' }, /"name"/],
        ['POST', `/monitors/${monitorId}/rules`, { metric: 'rows\ud83d', op: 'lt', value: 1 }, /"metric"/],
        ['POST', '/channels', { type: 'webhook', name: 'ops \ude00', url: 'https://example.com/h' }, /"name"/],
        ['PATCH', `/channels/${channelId}`, { secret: 'whsec_\ud800_0123' }, /"secret"/],
        ['PATCH', `/channels/${channelId}`, { monitorIds: [monitorId, 'mon_\udfff'] }, /"monitorIds\[1\]"/],
        ['POST', '/auth/login', { email: 'a\ud800@example.com', password: 'whatever' }, /"email"/],
      ];
      for (const [method, path, body, names] of cases) {
        const reply = await api.request(path, { method, token: account.token, body });
        t.equal(reply.status, 400, `${method} ${path} ${JSON.stringify(body)}`);
        t.equal(reply.body.code, 'invalid_request');
        t.match(reply.body.message, names);
        t.match(reply.body.message, /half of a surrogate pair/);
      }
      const names = await api.query((knex) => knex('monitors').pluck('name'));
      t.notOk(
        names.some((name: string) => name.includes('\uFFFD')),
        'nothing was stored with a replacement character',
      );
    });

    t.test('a whole surrogate pair is kept as sent, in names and meta keys alike', async (t) => {
      const monitorId = await api.monitor(account, 'backup 😀');
      t.equal((await api.request(`/monitors/${monitorId}`, { token: account.token })).body.name, 'backup 😀');
      const body = { metric: '📦', op: 'lt', value: 1 };
      const rule = await api.request(`/monitors/${monitorId}/rules`, { token: account.token, body });
      t.equal(rule.status, 201);
      const reply = await api.ping(account, monitorId, 'success', { meta: { '📦': 0 } });
      t.equal(reply.status, 200, reply.text);
      const run = await api.request(`/monitors/${monitorId}/runs/${reply.body.data.runId}`, { token: account.token });
      t.same(run.body.meta, { '📦': 0 });
      t.equal(run.body.silentFailure, true, 'the rule on the same key matched');
    });

    t.test('a meta key holding NUL or a lone surrogate is a 400 invalid_meta, and nothing is recorded', async (t) => {
      const monitorId = await api.monitor(account);
      for (const key of ['rows\u0000', 'rows\ud800', '\udc00']) {
        const reply = await api.ping(account, monitorId, 'success', { meta: { [key]: 1 } });
        t.equal(reply.status, 400, JSON.stringify(key));
        t.equal(reply.body.code, 'invalid_meta');
        t.match(reply.body.message, /must not contain NUL/);
      }
      t.equal((await api.query((knex) => knex('runs').where({ monitor_id: monitorId }))).length, 0);
    });

    t.test("lone surrogates in a failure's message and log are stored as U+FFFD, whole pairs as sent", async (t) => {
      const monitorId = await api.monitor(account);
      const runId = newRunId();
      const body = { runId, errorMessage: 'exit \ud8001 😀', logOutput: '\udc00line' };
      const reply = await api.ping(account, monitorId, 'fail', body);
      t.equal(reply.status, 200, reply.text);
      const { run, log } = await stored(monitorId, runId);
      t.equal(run.error_message, 'exit \uFFFD1 😀');
      t.equal(log.content, '\uFFFDline');
    });

    t.test("the SDK's fail() is recorded, as the server would store it", async (t) => {
      const monitorId = await api.monitor(account);
      const mon = createPinger({ monitorId, apiKey: account.apiKey, baseUrl: api.url });
      await mon.start();
      const ack = await mon.fail({ message: 'bad\u0000byte\ud800', log: 'out\u0000put\udfff' });
      t.equal(ack.status, 'failed');
      const { run, log } = await stored(monitorId, ack.runId);
      t.equal(run.error_message, 'bad\uFFFDbyte\uFFFD');
      t.equal(log.content, 'out\uFFFDput\uFFFD');
      t.ok(run.duration_ms !== null, 'paired with its start');
    });
  });
}
