import t from 'tap';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { TestServer } from '../helpers/server.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

for (const kind of DATABASE_KINDS) {
  t.test(`pings on ${kind}`, async (t) => {
    const api = await TestServer.start(t, kind, { bodyLimitBytes: 64 * 1024 });
    const account = await api.account('unlimited');
    const monitorId = await api.monitor(account);
    const runOf = (runId: string) => api.query((knex) => knex('runs').where({ id: runId }).first());

    t.test('start answers the envelope with all five ack fields', async (t) => {
      const reply = await api.ping(account, monitorId, 'start');
      t.equal(reply.status, 200);
      t.same(Object.keys(reply.body).sort(), ['data', 'success']);
      t.equal(reply.body.success, true);
      const ack = reply.body.data;
      t.same(Object.keys(ack).sort(), ['monitorId', 'received', 'runId', 'status', 'timestamp']);
      t.equal(ack.received, true);
      t.equal(ack.monitorId, monitorId);
      t.match(ack.runId, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'a UUIDv7');
      t.equal(ack.status, 'running');
      t.match(ack.timestamp, ISO_MS);
      t.ok(Math.abs(Date.parse(ack.timestamp) - Date.now()) < 60_000, 'timestamp is now');
    });

    t.test('success finishes the run opened by start, with its duration', async (t) => {
      const started = (await api.ping(account, monitorId, 'start')).body.data;
      const finished = (await api.ping(account, monitorId, 'success', { meta: { rows: 12, seconds: 1.5 } })).body.data;
      t.equal(finished.runId, started.runId);
      t.equal(finished.status, 'success');
      const row = await runOf(started.runId);
      t.equal(row.status, 'success');
      t.same(JSON.parse(row.meta), { rows: 12, seconds: 1.5 });
      t.equal(Number(row.finished_at), Date.parse(finished.timestamp));
      t.equal(Number(row.duration_ms), Date.parse(finished.timestamp) - Date.parse(started.timestamp));
    });

    t.test('a result without an open run creates a finished run with no duration', async (t) => {
      const other = await api.monitor(account, 'lonely');
      const ack = (await api.ping(account, other, 'fail', { errorMessage: 'disk full' })).body.data;
      t.equal(ack.status, 'failed');
      const row = await runOf(ack.runId);
      t.equal(row.status, 'failed');
      t.equal(row.error_message, 'disk full');
      t.equal(Number(row.started_at), Number(row.finished_at));
      t.equal(row.duration_ms, null);
    });

    t.test('a result finishes the most recently started open run', async (t) => {
      const m = await api.monitor(account, 'overlapping');
      const first = (await api.ping(account, m, 'start')).body.data.runId;
      const second = (await api.ping(account, m, 'start')).body.data.runId;
      t.equal((await api.ping(account, m, 'success')).body.data.runId, second);
      t.equal((await api.ping(account, m, 'success')).body.data.runId, first);
    });

    t.test('runId makes start and results idempotent', async (t) => {
      const m = await api.monitor(account, 'idempotent');
      const runId = 'c0ffee00-1234-4abc-9def-000000000001';
      const a = await api.ping(account, m, 'start', { runId });
      const b = await api.ping(account, m, 'start', { runId });
      t.equal(a.status, 200);
      t.same(b.body, a.body, 'a repeated start returns the same ack');
      const done = await api.ping(account, m, 'fail', { runId, errorMessage: 'first' });
      t.equal(done.body.data.status, 'failed');
      const replay = await api.ping(account, m, 'success', { runId, meta: { rows: 1 } });
      t.same(replay.body, done.body, 'a result for a finished run changes nothing and returns its ack');
      const row = await runOf(runId);
      t.equal(row.status, 'failed');
      t.equal(row.error_message, 'first');
      t.same(JSON.parse(row.meta), {});
      const count = await api.query((knex) => knex('runs').where({ monitor_id: m }).count({ n: '*' }).first());
      t.equal(Number(count!.n), 1);
    });

    t.test('a result with an unknown runId creates that run already finished', async (t) => {
      const m = await api.monitor(account, 'late');
      const reply = await api.ping(account, m, 'success', { runId: 'late-run-0001' });
      t.equal(reply.body.data.runId, 'late-run-0001');
      t.equal(reply.body.data.status, 'success');
      t.equal((await runOf('late-run-0001')).status, 'success');
    });

    t.test('the fail log is stored apart and truncated to its first 10,000 characters', async (t) => {
      const m = await api.monitor(account, 'logs');
      const log = 'x'.repeat(9_999) + '😀' + 'tail';
      const ack = (await api.ping(account, m, 'fail', { errorMessage: 'e'.repeat(600), logOutput: log })).body.data;
      const row = await runOf(ack.runId);
      t.equal(row.error_message, 'e'.repeat(500), 'errorMessage keeps its first 500 characters');
      t.ok(row.has_log);
      t.notOk('log' in row || 'content' in row, 'the run row holds no log');
      const stored = await api.request(`/monitors/${m}/runs/${ack.runId}/log`, { token: account.token });
      t.equal(stored.body.content, 'x'.repeat(9_999), 'a surrogate pair at the cut is dropped whole');
      const exact = 'y'.repeat(10_500);
      const ack2 = (await api.ping(account, m, 'fail', { logOutput: exact })).body.data;
      const stored2 = await api.request(`/monitors/${m}/runs/${ack2.runId}/log`, { token: account.token });
      t.equal(stored2.body.content, 'y'.repeat(10_000));
    });

    t.test('a text/plain fail body is the log', async (t) => {
      const m = await api.monitor(account, 'plain');
      const reply = await api.ping(account, m, 'fail', 'line 1\nline 2\n{not json', { 'content-type': 'text/plain' });
      t.equal(reply.status, 200);
      const log = await api.request(`/monitors/${m}/runs/${reply.body.data.runId}/log`, { token: account.token });
      t.same(log.body, { hasLog: true, content: 'line 1\nline 2\n{not json' });
    });

    t.test('JSON is read whatever the content type says (curl -d)', async (t) => {
      const reply = await api.ping(account, monitorId, 'success', '{"meta":{"rows":3}}', {
        'content-type': 'application/x-www-form-urlencoded',
      });
      t.equal(reply.status, 200);
      t.same(JSON.parse((await runOf(reply.body.data.runId)).meta), { rows: 3 });
    });

    t.test('unknown fields are ignored', async (t) => {
      const reply = await api.ping(account, monitorId, 'success', { meta: { a: 1 }, color: 'blue' });
      t.equal(reply.status, 200);
    });

    t.test('bad bodies get 400 with a code and a message naming the problem', async (t) => {
      const cases: Array<[unknown, string, RegExp]> = [
        [{ meta: { rows: 'many' } }, 'invalid_meta', /meta\.rows must be a finite number/],
        [{ meta: { nested: { a: 1 } } }, 'invalid_meta', /meta\.nested/],
        [{ meta: [1, 2] }, 'invalid_meta', /object of numbers/],
        [
          { meta: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) },
          'invalid_meta',
          /at most 50/,
        ],
        [{ meta: { ['k'.repeat(65)]: 1 } }, 'invalid_meta', /1 to 64 characters/],
        [{ runId: 'short' }, 'invalid_run_id', /8 to 64/],
        [{ runId: 'has spaces in it' }, 'invalid_run_id', /8 to 64/],
        [[1, 2], 'invalid_body', /JSON object/],
        ['{"meta": ', 'invalid_json', /not valid JSON/],
      ];
      for (const [body, code, message] of cases) {
        const reply = await api.ping(account, monitorId, 'success', typeof body === 'string' ? body : body, {
          'content-type': 'application/json',
        });
        t.equal(reply.status, 400, JSON.stringify(body).slice(0, 60));
        t.equal(reply.body.code, code);
        t.match(reply.body.message, message);
        t.equal(reply.body.success, false);
      }
      const wrongType = await api.ping(account, monitorId, 'fail', { errorMessage: 42 });
      t.equal(wrongType.body.code, 'invalid_body');
      t.match(wrongType.body.message, /errorMessage must be a string/);
    });

    t.test('a body nested 10,000 deep is a 400 naming the field, whichever field holds it', async (t) => {
      // Within this server's 64 KiB body limit, and deeper than a recursive JSON.stringify goes (a 500 before).
      const deepArray = '['.repeat(10_000) + ']'.repeat(10_000);
      const deepObject = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
      for (const deep of [deepArray, deepObject]) {
        const cases: Array<['start' | 'success' | 'fail', string, string]> = [
          ['success', `{"meta":{"a":${deep}}}`, 'invalid_meta'],
          ['fail', `{"meta":{"a":${deep}}}`, 'invalid_meta'],
          ['success', `{"meta":${deep}}`, 'invalid_meta'],
          ['fail', `{"errorMessage":${deep}}`, 'invalid_body'],
          ['fail', `{"logOutput":${deep}}`, 'invalid_body'],
          ['start', `{"runId":${deep}}`, 'invalid_run_id'],
          ['fail', `{"timestamp":${deep}}`, 'invalid_timestamp'],
        ];
        // A deep object is an object whose unknown field is ignored, as any unknown field is.
        if (deep === deepArray) cases.push(['success', deep, 'invalid_body']);
        for (const [kind, body, code] of cases) {
          const reply = await api.ping(account, monitorId, kind, body, { 'content-type': 'application/json' });
          const name = `${kind} ${body.slice(0, 16)}…`;
          t.equal(reply.status, 400, name);
          t.match(reply.body, { success: false, statusCode: 400, code, message: String }, name);
        }
      }
    });

    t.test('API keys: missing or invalid → 401; Authorization: Bearer <key> is accepted', async (t) => {
      const none = await api.request(`/ping/${monitorId}/start`, { method: 'POST' });
      t.equal(none.status, 401);
      t.equal(none.body.code, 'missing_api_key');
      const bad = await api.ping({ apiKey: 'pm_nope' }, monitorId, 'start');
      t.equal(bad.status, 401);
      t.equal(bad.body.code, 'invalid_api_key');
      const bearer = await api.request(`/ping/${monitorId}/start`, {
        method: 'POST',
        headers: { authorization: `Bearer ${account.apiKey}` },
      });
      t.equal(bearer.status, 200);
    });

    t.test('a monitor of another account, or none, is 404 and the two look the same', async (t) => {
      const stranger = await api.account('unlimited');
      const theirs = await api.monitor(stranger, 'theirs');
      const foreign = await api.ping(account, theirs, 'start');
      const missing = await api.ping(account, 'mon_doesnotexist', 'start');
      t.equal(foreign.status, 404);
      t.equal(missing.status, 404);
      t.equal(foreign.body.code, 'monitor_not_found');
      t.equal(missing.body.code, foreign.body.code);
      const count = await api.query((knex) => knex('runs').where({ monitor_id: theirs }).count({ n: '*' }).first());
      t.equal(Number(count!.n), 0, 'nothing was recorded on their monitor');
    });

    t.test('a start on a monitor with the longest maxRuntime (31 days) gets its deadline', async (t) => {
      const created = await api.request('/monitors', {
        token: account.token,
        body: { name: 'monthly', maxRuntime: 31 * 86_400 },
      });
      t.equal(created.status, 201, created.text);
      const start = await api.ping(account, created.body.monitorId, 'start', { runId: 'run-monthly-0001' });
      t.equal(start.status, 200, start.text);
      const row = await api.query((knex) =>
        knex('runs').where({ monitor_id: created.body.monitorId, id: 'run-monthly-0001' }).first(),
      );
      t.equal(Number(row.timeout_at) - Number(row.started_at), 31 * 86_400_000);
    });

    t.test('a monitor id longer than any stored one is a 404 too, whatever the kind and however many', async (t) => {
      // Sent together, so that on PostgreSQL they share batches (db/batch.ts) as well as go alone.
      const long = `mon_${'x'.repeat(300)}`;
      const replies = await Promise.all(
        (['start', 'success', 'success', 'fail'] as const).flatMap((kind, i) => [
          api.ping(account, long, kind),
          api.ping(account, long, kind, { runId: `run-long-id-${i}` }),
        ]),
      );
      t.same(
        replies.map((r) => `${r.status} ${r.body.code}`),
        Array(8).fill('404 monitor_not_found'),
      );
    });

    t.test('an oversized body is 413 after authentication', async (t) => {
      const big = JSON.stringify({ logOutput: 'z'.repeat(70 * 1024) });
      const unauthenticated = await api.request(`/ping/${monitorId}/fail`, {
        method: 'POST',
        body: big,
        headers: { 'content-type': 'application/json' },
      });
      t.equal(unauthenticated.status, 401);
      const reply = await api.ping(account, monitorId, 'fail', big, { 'content-type': 'application/json' });
      t.equal(reply.status, 413);
      t.equal(reply.body.code, 'payload_too_large');
      t.match(reply.body.message, /larger than this server accepts/);
    });
  });
}
