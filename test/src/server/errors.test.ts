import type { LogEvent } from '@hapi/hapi';
import t from 'tap';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { TestServer } from '../helpers/server.js';

const SHAPE = ['code', 'error', 'message', 'statusCode', 'success'];

for (const kind of DATABASE_KINDS) {
  t.test(`error responses on ${kind}`, async (t) => {
    const api = await TestServer.start(t, kind);
    const account = await api.account();

    t.test('unknown routes and methods have the common shape', async (t) => {
      const unknown = await api.request('/nothing/here');
      t.equal(unknown.status, 404);
      t.same(Object.keys(unknown.body).sort(), SHAPE);
      t.match(unknown.body, { success: false, statusCode: 404, error: 'Not Found', code: 'not_found' });
      t.match(unknown.body.message, /GET \/api\/v1\/nothing\/here/);
      // Outside /api, a GET is the web dashboard's page; any other method has the error shape.
      const outside = await fetch(api.url.replace('/api/v1', '/v2/ping'), { method: 'POST' });
      t.equal(outside.status, 404);
      t.equal(((await outside.json()) as { success: boolean }).success, false);
      const page = await fetch(api.url.replace('/api/v1', '/v2/ping'));
      t.match(page.headers.get('content-type'), /text\/html/);
      const otherVersion = await fetch(api.url.replace('/api/v1', '/api/v2/ping'));
      t.equal(otherVersion.status, 404, 'another API version is not the page');
      t.equal(((await otherVersion.json()) as { code: string }).code, 'not_found');
      const wrongMethod = await api.request('/ping/mon_x/start');
      t.equal(wrongMethod.status, 404);
      t.equal(wrongMethod.body.success, false);
    });

    t.test('malformed JSON on a validated route is invalid_json', async (t) => {
      const reply = await api.request('/auth/login', {
        body: '{"email":',
        headers: { 'content-type': 'application/json' },
      });
      t.equal(reply.status, 400);
      t.equal(reply.body.code, 'invalid_json');
    });

    t.test('errors from below (a broken gzip body) get our codes, not theirs', async (t) => {
      const reply = await api.request('/auth/login', {
        body: Buffer.from('not gzip at all'),
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      });
      t.equal(reply.status, 400);
      t.equal(reply.body.code, 'bad_request');
    });

    t.test('a body nested deeper than 32 levels is a 400 on every endpoint that takes one, never a 500', async (t) => {
      const monitorId = await api.monitor(account);
      const channel = await api.request('/channels', {
        token: account.token,
        body: { type: 'webhook', name: 'hook', url: 'http://127.0.0.1:9/hook' },
      });
      const endpoints: Array<[string, string]> = [
        ['POST', '/monitors'],
        ['PATCH', `/monitors/${monitorId}`],
        ['POST', `/monitors/${monitorId}/rules`],
        ['POST', '/channels'],
        ['PATCH', `/channels/${channel.body.channelId}`],
        ['POST', `/channels/${channel.body.channelId}/test`],
        ['POST', '/api-keys'],
        ['POST', '/auth/login'],
        ['POST', '/auth/session'],
        ['DELETE', '/auth/session'],
      ];
      // 100,000 deep: past what any recursive walk of the body survives (the text guard's was a 500).
      const deepArray = '['.repeat(100_000) + ']'.repeat(100_000);
      const deepObject = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);
      const bodies = [deepArray, deepObject, `{"name":${deepArray}}`, `{"email":"a@b.c","password":${deepObject}}`];
      for (const [method, path] of endpoints) {
        for (const body of bodies) {
          const reply = await api.request(path, {
            method,
            token: account.token,
            body,
            headers: { 'content-type': 'application/json' },
          });
          const name = `${method} ${path.replace(/\/(mon|ch)_\w+/g, '/:id')} ${body.slice(0, 12)}…`;
          t.equal(reply.status, 400, name);
          t.match(reply.body, { success: false, code: 'invalid_request', message: /more than 32 levels deep/ }, name);
        }
      }
      const keyNested = (depth: number) =>
        api.request('/api-keys', {
          token: account.token,
          body: `{"name":"nested","extra":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`,
          headers: { 'content-type': 'application/json' },
        });
      t.equal((await keyNested(32)).status, 201, '32 levels are taken');
      t.equal((await keyNested(33)).status, 400, '33 are not');
    });

    t.test('every API response, answer or error, is no-store and nosniff', async (t) => {
      const monitorId = await api.monitor(account);
      const session = { 'x-pingmon-request': '1' };
      const key = await api.request('/api-keys', { token: account.token, body: { name: 'short-lived' } });
      const replies: Array<[string, Promise<{ status: number; headers: Headers }>]> = [
        ['GET /me', api.request('/me', { token: account.token })],
        ['GET /monitors', api.request('/monitors', { token: account.token })],
        [
          'POST /auth/login',
          api.request('/auth/login', { body: { email: account.email, password: account.password } }),
        ],
        [
          'POST /auth/session',
          api.request('/auth/session', {
            body: { email: account.email, password: account.password },
            headers: session,
          }),
        ],
        ['DELETE /auth/session', api.request('/auth/session', { method: 'DELETE', headers: session })],
        [
          'DELETE /api-keys/:keyId',
          api.request(`/api-keys/${key.body.keyId}`, { method: 'DELETE', token: account.token }),
        ],
        ['a ping', api.ping(account, monitorId, 'start')],
        ['a 401', api.request('/me')],
        ['a 404', api.request('/nothing/here')],
      ];
      for (const [name, reply] of replies) {
        const { status, headers } = await reply;
        t.ok(status < 300 || name.startsWith('a 4'), `${name}: ${status}`);
        t.equal(headers.get('cache-control'), 'no-store', `${name}: cache-control`);
        t.equal(headers.get('x-content-type-options'), 'nosniff', `${name}: x-content-type-options`);
      }
    });

    t.test('health answers without credentials', async (t) => {
      const reply = await api.request('/health');
      t.same(reply.body, { status: 'ok', database: kind });
    });

    t.test('a failure inside the server is a 500 that leaks nothing, and its cause is logged', async (t) => {
      const monitorId = await api.monitor(account);
      const runId = (await api.ping(account, monitorId, 'fail', { logOutput: 'log' })).body.data.runId;
      const logged: Error[] = [];
      api.server.events.on('log', (event: LogEvent) => {
        if (event.error instanceof Error) logged.push(event.error);
      });
      // Break the storage under the running server for real: the log table disappears.
      await api.query((knex) => knex.schema.dropTable('run_logs'));
      const reply = await api.request(`/monitors/${monitorId}/runs/${runId}/log`, { token: account.token });
      t.equal(reply.status, 500);
      t.same(Object.keys(reply.body).sort(), SHAPE);
      t.equal(reply.body.code, 'internal_error');
      t.notMatch(reply.text, /run_logs|sqlite|select|relation|stack|at /i);
      t.equal(logged.length, 1, 'the cause is logged once');
      t.match(logged[0]?.message, /run_logs/);
    });
  });
}
