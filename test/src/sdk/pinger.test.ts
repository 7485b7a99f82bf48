import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inspect } from 'node:util';
import t from 'tap';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPinger, PingmonError, Spool, SPOOL_MAX_PINGS } from '@pingmon/sdk';
import type { Request } from '@hapi/hapi';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { databaseOutage } from '../helpers/outage.js';
import { TestServer } from '../helpers/server.js';
import { deadUrl, json, startReceiver } from '../helpers/receiver.js';
import { waitFor } from '../helpers/wait.js';

// Pingers here keep what they cannot deliver in a spool of this test's own, never the user's.
process.env.XDG_STATE_HOME = t.testdir();

const ACK = (status: string) => ({
  success: true,
  data: { received: true, monitorId: 'mon_x', runId: 'r', status, timestamp: new Date().toISOString() },
});

t.test('the pinger against a real server', async (t) => {
  const api = await TestServer.start(t, 'sqlite', { bodyLimitBytes: 64 * 1024 });
  const account = await api.account('unlimited');
  const runOf = (runId: string) => api.query((knex) => knex('runs').where({ id: runId }).first());
  const logOf = (monitorId: string, runId: string) =>
    api.request(`/monitors/${monitorId}/runs/${runId}/log`, { token: account.token });
  const pinger = (monitorId: string, extra = {}) =>
    createPinger({ monitorId, apiKey: account.apiKey, baseUrl: api.url.replace('/api/v1', ''), ...extra });

  t.test('start then success records one finished run with its meta', async (t) => {
    const monitorId = await api.monitor(account);
    const mon = pinger(monitorId);
    const started = await mon.start();
    t.equal(started.status, 'running');
    t.equal(mon.runId, started.runId);
    t.match(started.runId, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'a UUIDv7');
    const done = await mon.success({ meta: { rowsProcessed: 42 } });
    t.equal(done.runId, started.runId);
    t.equal(done.status, 'success');
    t.equal(mon.runId, undefined, 'the run is finished');
    const row = await runOf(started.runId);
    t.equal(row.status, 'success');
    t.same(JSON.parse(row.meta), { rowsProcessed: 42 });
    t.ok(Number(row.duration_ms) >= 0);
  });

  t.test('fail sends message and log as errorMessage and logOutput, cut on the client side', async (t) => {
    const monitorId = await api.monitor(account);
    const mon = pinger(monitorId);
    await mon.start();
    // 200 KB of log would be refused by this server (64 KB limit): the client must cut it first.
    const ack = await mon.fail({ message: 'm'.repeat(800), log: 'L'.repeat(200_000), meta: { exitCode: 3 } });
    t.equal(ack.status, 'failed');
    const row = await runOf(ack.runId);
    t.equal(row.error_message, 'm'.repeat(500));
    t.same(JSON.parse(row.meta), { exitCode: 3 });
    t.same((await logOf(monitorId, ack.runId)).body, { hasLog: true, content: 'L'.repeat(10_000) });
  });

  t.test('a result without start creates a finished run, and the same call is never recorded twice', async (t) => {
    const monitorId = await api.monitor(account);
    const ack = await pinger(monitorId).success();
    t.equal(ack.status, 'success');
    t.equal((await runOf(ack.runId)).duration_ms, null);
  });

  t.test('wrap returns what fn returned and records a success', async (t) => {
    const monitorId = await api.monitor(account);
    const value = await pinger(monitorId).wrap(async () => ({ rows: 7 }));
    t.same(value, { rows: 7 });
    const runs = await api.query((knex) => knex('runs').where({ monitor_id: monitorId }));
    t.equal(runs.length, 1);
    t.equal(runs[0].status, 'success');
    t.ok(runs[0].duration_ms !== null, 'start and success paired');
  });

  t.test('wrap reports a throw as a failure with the stack as log, and rethrows the same error', async (t) => {
    const monitorId = await api.monitor(account);
    const boom = new Error('connection refused by warehouse');
    const thrown = await pinger(monitorId)
      .wrap(() => {
        throw boom;
      })
      .catch((err: unknown) => err);
    t.equal(thrown, boom, 'the very same error');
    const [run] = await api.query((knex) => knex('runs').where({ monitor_id: monitorId }));
    t.equal(run.status, 'failed');
    t.equal(run.error_message, 'connection refused by warehouse');
    const log = (await logOf(monitorId, run.id)).body;
    t.equal(log.hasLog, true);
    t.match(log.content, /^Error: connection refused by warehouse\n\s+at /);
  });

  t.test("overlapping wraps on one pinger each finish their own run, and leave start()'s run alone", async (t) => {
    const monitorId = await api.monitor(account);
    const mon = pinger(monitorId);
    const remembered = await mon.start();
    let finishFirst!: (value: string) => void;
    const first = mon.wrap(() => new Promise<string>((resolve) => (finishFirst = resolve)));
    t.equal(await mon.wrap(async () => 'second'), 'second');
    finishFirst('first');
    t.equal(await first, 'first');
    t.equal(mon.runId, remembered.runId, 'the remembered run is still the one start() opened');
    await mon.success();
    const runs = await api.query((knex) => knex('runs').where({ monitor_id: monitorId }));
    t.equal(runs.length, 3, 'three runs, no stray fourth');
    t.ok(
      runs.every(
        (run: { status: string; duration_ms: unknown }) => run.status === 'success' && run.duration_ms !== null,
      ),
      'each paired with its own start',
    );
  });

  t.test('401 and 404 come back as PingmonError, without the key', async (t) => {
    const monitorId = await api.monitor(account);
    const bad = createPinger({ monitorId, apiKey: 'pm_wrongwrongwrong', baseUrl: api.url });
    const err = (await bad.start().catch((e: unknown) => e)) as PingmonError;
    t.ok(err instanceof PingmonError);
    t.match(err, { status: 401, code: 'invalid_api_key', method: 'POST' });
    t.match(err.url, /\/api\/v1\/ping\/mon_.*\/start$/);
    const missing = (await pinger('mon_missing')
      .start()
      .catch((e: unknown) => e)) as PingmonError;
    t.match(missing, { status: 404, code: 'monitor_not_found' });
    t.notOk(inspect(missing, { depth: 10 }).includes(account.apiKey), 'the key is nowhere in the error');
  });

  t.test('429 is retried after the Retry-After the server asked for', async (t) => {
    const limited = await TestServer.start(t, 'sqlite', {
      planIntervalsMs: { free: 2_000, pro: 0, business: 0, unlimited: 0 },
    });
    const free = await limited.account('free');
    const monitorId = await limited.monitor(free);
    const mon = createPinger({ monitorId, apiKey: free.apiKey, baseUrl: limited.url });
    await mon.success();
    const before = Date.now();
    const ack = await mon.success();
    t.equal(ack.status, 'success');
    t.ok(Date.now() - before >= 1_000, `waited ${Date.now() - before} ms as asked`);
    // A budget shorter than any Retry-After (1 s at least): the 429 is final, and its one attempt has a whole
    // second to be answered (a 100 ms budget could time out first on a loaded machine).
    const impatient = createPinger({
      spool: false,
      monitorId,
      apiKey: free.apiKey,
      baseUrl: limited.url,
      retryBudgetMs: 1_000,
    });
    const err = (await impatient.success().catch((e: unknown) => e)) as PingmonError;
    t.match(err, { status: 429, code: 'rate_limited' });
    t.ok(err.retryAfter! >= 1);
  });
});

for (const kind of DATABASE_KINDS) {
  t.test(`on ${kind}, a server's 503 for want of its database is retried after its Retry-After`, async (t) => {
    const outage = await databaseOutage(t, kind);
    const api = await TestServer.start(t, kind, outage.databaseUrl ? { databaseUrl: outage.databaseUrl } : {});
    const account = await api.account();
    const monitorId = await api.monitor(account);
    const answers: Array<{ status: number; receivedAt: number; respondedAt: number }> = [];
    api.server.events.on('response', (request: Request) => {
      if (!request.path.includes('/ping/')) return;
      const { received: receivedAt, responded: respondedAt } = request.info;
      answers.push({ status: request.raw.res.statusCode, receivedAt, respondedAt });
      // The database is back as soon as the first attempt has been refused.
      if (answers.length === 1) void outage.end();
    });
    await outage.begin(api.database);
    const ack = await createPinger({ monitorId, apiKey: account.apiKey, baseUrl: api.url }).start();
    t.equal(ack.status, 'running');
    t.same(
      answers.map((a) => a.status),
      [503, 200],
    );
    const waitedMs = answers[1]!.receivedAt - answers[0]!.respondedAt;
    t.ok(waitedMs >= 4_900, `the second attempt came ${waitedMs} ms after the 503 asked for 5 s`);
    const runs = await api.query((knex) => knex('runs').where({ monitor_id: monitorId }));
    t.same(
      runs.map((r: { id: string }) => r.id),
      [ack.runId],
      'one run, the acknowledged one',
    );
  });
}

t.test('retries: network errors, 5xx and 429 are retried; 4xx are not', async (t) => {
  t.test('503 then 200', async (t) => {
    const receiver = await startReceiver(t, (_req, n, res) =>
      n < 3 ? json(res, 503, { code: 'unavailable', message: 'busy' }) : json(res, 200, ACK('running')),
    );
    const ack = await createPinger({ spool: false, monitorId: 'mon_x', apiKey: 'pm_k', baseUrl: receiver.url }).start();
    t.equal(ack.status, 'running');
    t.equal(receiver.received.length, 3);
    const runIds = receiver.received.map((r) => JSON.parse(r.body).runId);
    t.equal(new Set(runIds).size, 1, 'every attempt names the same run');
  });

  for (const status of [400, 401, 404]) {
    t.test(`${status} is final`, async (t) => {
      const receiver = await startReceiver(t, (_req, _n, res) =>
        json(res, status, { success: false, statusCode: status, code: `c${status}`, message: `m${status}` }),
      );
      const pinger = createPinger({ spool: false, monitorId: 'mon_x', apiKey: 'pm_k', baseUrl: receiver.url });
      const err = (await pinger.start().catch((e: unknown) => e)) as PingmonError;
      t.match(err, { status, code: `c${status}`, message: `m${status}` });
      t.equal(receiver.received.length, 1);
    });
  }

  t.test('the API key travels in X-API-Key to /api/v1 whatever form the base URL has', async (t) => {
    const receiver = await startReceiver(t, (_req, _n, res) => json(res, 200, ACK('running')));
    await createPinger({
      spool: false,
      monitorId: 'mon_x',
      apiKey: 'pm_k',
      baseUrl: `${receiver.url}/api/v1/`,
    }).start();
    await createPinger({ spool: false, monitorId: 'mon_x', apiKey: 'pm_k', baseUrl: receiver.url }).start();
    t.same(
      receiver.received.map((r) => r.url),
      ['/api/v1/ping/mon_x/start', '/api/v1/ping/mon_x/start'],
    );
    t.equal(receiver.received[0]!.headers['x-api-key'], 'pm_k');
  });
});

t.test('fail replaces NUL with U+FFFD before sending, as the server stores it', async (t) => {
  const receiver = await startReceiver(t, (_req, _n, res) => json(res, 200, ACK('failed')));
  const pinger = createPinger({ spool: false, monitorId: 'mon_x', apiKey: 'pm_k', baseUrl: receiver.url });
  await pinger.fail({ message: 'exit\u00001', log: 'a\u0000b' });
  t.match(JSON.parse(receiver.received[0]!.body), { errorMessage: 'exit\uFFFD1', logOutput: 'a\uFFFDb' });
});

t.test('a result and its start in flight', async (t) => {
  t.test("success waits for its run's start still in flight, so that the server gets them in order", async (t) => {
    let startSettled = false;
    // start is never answered: success goes once start has given up (one attempt of 1 s), not before. Success
    // then has one attempt of 1 s too: a shorter one could run out before a loaded machine answers it.
    const receiver = await startReceiver(t, (req, _n, res) => {
      if (!req.url.endsWith('/success')) return;
      t.ok(startSettled, 'success sent only once start was over');
      json(res, 200, ACK('success'));
    });
    const mon = createPinger({
      spool: false,
      monitorId: 'mon_x',
      apiKey: 'pm_k',
      baseUrl: receiver.url,
      timeoutMs: 1_000,
      retryBudgetMs: 2_000,
    });
    const started = mon.start().catch((err: unknown) => {
      startSettled = true;
      return err;
    });
    t.equal((await mon.success()).status, 'success');
    t.match(await started, { code: 'timeout' });
    const [start, success] = receiver.received.map((r) => ({
      kind: r.url.split('/').pop(),
      runId: JSON.parse(r.body).runId,
    }));
    t.same([start?.kind, success?.kind], ['start', 'success']);
    t.equal(success?.runId, start?.runId);
  });

  t.test('a start given up while it waits to be sent again reports the answer it had, not a timeout', async (t) => {
    // start is answered 503 asking for 2 s, which fits its 2.5 s; success gives it up at 1.5 s (2.5 s - 1 s).
    const receiver = await startReceiver(t, (req, _n, res) =>
      req.url.endsWith('/start')
        ? json(res, 503, { code: 'unavailable', message: 'busy' }, { 'retry-after': '2' })
        : json(res, 200, ACK('success')),
    );
    const mon = createPinger({
      spool: false,
      monitorId: 'mon_x',
      apiKey: 'pm_k',
      baseUrl: receiver.url,
      timeoutMs: 1_000,
      retryBudgetMs: 2_500,
    });
    const started = mon.start().catch((err: unknown) => err);
    t.equal((await mon.success()).status, 'success');
    t.match(await started, { status: 503, code: 'unavailable', message: 'busy' });
    t.same(
      receiver.received.map((r) => r.url.split('/').pop()),
      ['start', 'success'],
    );
  });

  t.test('wrap against a server that never answers ends within one budget of fn, start included', async (t) => {
    const silent = await startReceiver(t, () => undefined);
    const errors: PingmonError[] = [];
    // A start alone could use the whole 2 s (attempts at 0 and ~1.05 s); it is given up at 1.6 s so that
    // success still has one whole attempt of 400 ms before the 2 s are over.
    const mon = createPinger({
      spool: false,
      monitorId: 'mon_x',
      apiKey: 'pm_k',
      baseUrl: silent.url,
      timeoutMs: 400,
      retryBudgetMs: 2_000,
      onError: (err) => errors.push(err),
    });
    const before = Date.now();
    t.equal(await mon.wrap(() => 'done'), 'done');
    const tookMs = Date.now() - before;
    // Within one budget takes ~2 s; start's budget and then success's would take ~4 s. The bound sits between
    // the two, clear of what a loaded machine adds to the first.
    t.ok(tookMs < 3_000, `wrap took ${tookMs} ms, within the 2 s budget (not start's 2 s plus success's)`);
    t.same(
      errors.map((e) => [e.code, e.url.split('/').pop()]),
      [
        ['timeout', 'start'],
        ['timeout', 'success'],
      ],
    );
    const runIds = new Set(silent.received.map((r) => JSON.parse(r.body).runId));
    t.equal(runIds.size, 1, 'start and success name the same run');
    t.equal(silent.received.at(-1)!.url, '/api/v1/ping/mon_x/success');
  });
});

t.test('when the server is down', async (t) => {
  const url = await deadUrl();
  const errors: PingmonError[] = [];
  const mon = createPinger({
    spool: false,
    monitorId: 'mon_x',
    apiKey: 'pm_secretkey',
    baseUrl: url,
    retryBudgetMs: 300,
    onError: (err) => errors.push(err),
  });

  t.test('calls reject with status 0 and no secret', async (t) => {
    const err = (await mon.start().catch((e: unknown) => e)) as PingmonError;
    t.match(err, { status: 0, code: 'network_error', method: 'POST' });
    t.match(err.message, /cannot reach the pingmon server/);
    t.notOk(inspect(err, { depth: 10 }).includes('pm_secretkey'));
  });

  t.test("wrap still returns fn's value, and reports the pings it could not deliver", async (t) => {
    errors.length = 0;
    t.equal(await mon.wrap(() => 42), 42);
    t.equal(errors.length, 2, 'start and success');
    t.equal(errors[0]!.status, 0);
  });

  t.test("wrap still rethrows fn's error", async (t) => {
    const boom = new TypeError('bad input');
    t.equal(await mon.wrap(() => Promise.reject(boom)).catch((e: unknown) => e), boom);
  });

  t.test('a throwing onError changes nothing', async (t) => {
    const loud = createPinger({
      spool: false,
      monitorId: 'mon_x',
      apiKey: 'pm_k',
      baseUrl: url,
      retryBudgetMs: 300,
      onError: () => {
        throw new Error('oops');
      },
    });
    t.equal(await loud.wrap(() => 'ok'), 'ok');
  });
});

t.test('a pinger keeps what the server cannot take in its spool, and delivers it before its next ping', async (t) => {
  const spoolDir = t.testdir();
  let up = false;
  const receiver = await startReceiver(t, (req, _n, res) => {
    if (!up) return json(res, 503, { code: 'database_unavailable', message: 'no database' });
    json(res, 200, ACK(req.url.endsWith('/start') ? 'running' : 'success'));
  });
  const errors: PingmonError[] = [];
  const mon = createPinger({
    ...{ monitorId: 'mon_x', apiKey: 'pm_k', baseUrl: receiver.url, spool: spoolDir },
    // The next ping's delivery, not the retry timer's (tested below).
    ...{ retryBudgetMs: 300, onError: (err: PingmonError) => errors.push(err), retrySpool: false },
  });
  t.equal(await mon.wrap(() => 'done'), 'done');
  t.same(
    errors.map((e) => [e.code, e.status]),
    [
      ['spooled', 503],
      ['spooled', 0],
    ],
    'the start, then its success, which follows it into the spool',
  );
  t.match(errors[1]!.message, /success of run .* follows its start, which could not be delivered/);
  const sentWhileDown = receiver.received.length;
  up = true;
  await mon.start();
  const delivered = receiver.received.slice(sentWhileDown).map((r) => [r.url.split('/').pop(), JSON.parse(r.body)]);
  t.same(
    delivered.map(([kind]) => kind),
    ['start', 'success', 'start'],
    'the spool first, in order',
  );
  const [[, start], [, success], [, live]] = delivered as Array<[string, Record<string, string>]>;
  t.equal(start!.runId, success!.runId);
  t.ok(Date.parse(start!.timestamp!) <= Date.parse(success!.timestamp!), 'each with the time it was made');
  t.notOk(live!.timestamp, 'a ping delivered at once carries no timestamp');
});

t.test('a pinger tries its spool again by itself: kept pings arrive once the server is back', async (t) => {
  const spoolDir = t.testdir();
  let up = false;
  const receiver = await startReceiver(t, (req, _n, res) => {
    if (!up) return json(res, 503, { code: 'database_unavailable', message: 'no database' });
    json(res, 200, ACK(req.url.endsWith('/start') ? 'running' : 'success'));
  });
  const errors: PingmonError[] = [];
  const mon = createPinger({
    ...{ monitorId: 'mon_x', apiKey: 'pm_k', baseUrl: receiver.url, spool: spoolDir },
    ...{ retryBudgetMs: 300, onError: (err: PingmonError) => errors.push(err) },
  });
  await mon.wrap(() => 'done');
  t.match(errors[0]!.message, /the start is kept in the spool and will be sent as soon as the server answers again/);
  t.equal((await new Spool(spoolDir).files()).length, 2);
  const sentWhileDown = receiver.received.length;
  up = true;
  const upAt = Date.now();
  // No other ping: the retry timer delivers them (within its longest wait, 15 s, and the first waits are shorter).
  await waitFor(async () => (await new Spool(spoolDir).files()).length === 0, { timeoutMs: 20_000 });
  t.comment(`server back to spool empty: ${Date.now() - upAt} ms`);
  const delivered = receiver.received.slice(sentWhileDown);
  t.same(
    delivered.map((r) => [r.url.split('/').pop(), 'timestamp' in JSON.parse(r.body)]),
    [
      ['start', true],
      ['success', true],
    ],
    'in order, with their own times',
  );
});

t.test("the pinger's retry timer never keeps a process alive", async (t) => {
  const dir = t.testdir();
  const script = [
    "const { createPinger } = await import('@pingmon/sdk');",
    "const mon = createPinger({ monitorId: 'mon_x', apiKey: 'pm_k', baseUrl: process.argv[1], spool: process.argv[2],",
    '  retryBudgetMs: 200, onError: () => {} });',
    "await mon.wrap(() => 'done');",
  ].join('\n');
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, await deadUrl(), dir], {
    cwd: fileURLToPath(new URL('.', import.meta.url)),
    stdio: 'ignore',
  });
  t.teardown(() => child.kill('SIGKILL'));
  // Kept for 30 minutes of tries, were the timer not unref()ed.
  await waitFor(() => child.exitCode !== null, { timeoutMs: 10_000, what: 'the script to end' });
  t.equal(child.exitCode, 0, 'the script ends, its pings kept');
  t.equal((await new Spool(dir).files()).length, 2);
});

t.test('a retry under way when a script is done tries a few pings, not the whole spool, and it exits', async (t) => {
  const dir = join(t.testdir(), 'spool');
  const done = join(dir, '..', 'script-done');
  let up = false;
  // A server that is back but slow: each ping takes 300 ms.
  const receiver = await startReceiver(t, (_req, _n, res) => {
    if (!up) return json(res, 503, { code: 'database_unavailable', message: 'down' });
    setTimeout(() => json(res, 200, ACK('running')), 300);
  });
  const spool = new Spool(dir);
  const old = Date.now() - 60_000;
  for (let i = 0; i < 40; i++) {
    const body = { runId: `backlog-${i}`, timestamp: new Date(old + i).toISOString() };
    await spool.add({ url: receiver.url, apiKey: 'pm_k', monitorId: 'mon_x', kind: 'start', body });
  }
  const script = [
    "const { existsSync } = await import('node:fs');",
    "const { createPinger } = await import('@pingmon/sdk');",
    "const mon = createPinger({ monitorId: 'mon_x', apiKey: 'pm_k', baseUrl: process.argv[1], spool: process.argv[2],",
    '  retryBudgetMs: 200, onError: () => {} });',
    'await mon.success().catch(() => undefined);',
    '// The rest of the script: it works until the test says it is done.',
    'while (!existsSync(process.argv[3])) await new Promise((resolve) => setTimeout(resolve, 20));',
  ].join('\n');
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, receiver.url, dir, done], {
    cwd: fileURLToPath(new URL('.', import.meta.url)),
    stdio: 'ignore',
  });
  t.teardown(() => child.kill('SIGKILL'));
  await waitFor(() => receiver.received.length === 1, { what: "the script's ping, answered 503" });
  up = true;
  await waitFor(() => receiver.received.length > 1, { timeoutMs: 5_000, what: 'the retry to begin' });
  writeFileSync(done, '');
  const doneAt = Date.now();
  // The whole spool at 300 ms a ping would keep it 12 s more.
  await waitFor(() => child.exitCode !== null, { timeoutMs: 5_000, what: 'the script to end' });
  t.comment(`script done to exit: ${Date.now() - doneAt} ms`);
  t.equal(child.exitCode, 0);
  t.ok((await spool.files()).length > 30, 'the rest waits for the next ping or flush');
});

t.test('a flush keeps what only a proxy answered, and takes over the lock of a flush that died', async (t) => {
  const dir = t.testdir();
  let answer: 'proxy' | 'pingmon-404' | 'ok' = 'proxy';
  const receiver = await startReceiver(t, (_req, _n, res) => {
    if (answer === 'ok') return json(res, 200, ACK('running'));
    if (answer === 'pingmon-404') return json(res, 404, { code: 'monitor_not_found', message: 'No monitor mon_x' });
    res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>');
  });
  const spool = new Spool(dir);
  const ping = (runId: string) => ({
    ...{ url: receiver.url, apiKey: 'pm_k', monitorId: 'mon_x', kind: 'start' as const },
    body: { runId, timestamp: new Date().toISOString() },
  });
  await spool.add(ping('kept-by-proxy'));
  t.match(await spool.flush(), { delivered: 0, dropped: [], left: 1 }, "a proxy's 404 page is not pingmon's answer");
  // A lock left by a process that is gone (pid 2^22 + 1 is above Linux's pid_max).
  writeFileSync(join(dir, '.lock'), `${2 ** 22 + 1} deadbeef`);
  answer = 'pingmon-404';
  const refused = await spool.flush();
  t.match(refused, { delivered: 0, left: 0, busy: false });
  t.match(refused.dropped, [{ reason: /the server refused it: No monitor mon_x/ }]);
  // A lock held by a live process (this one) is left alone.
  await spool.add(ping('waits-for-lock'));
  writeFileSync(join(dir, '.lock'), `${process.pid} cafebabe`);
  answer = 'ok';
  t.match(await spool.flush(), { busy: true, left: 1 });
  t.equal(readFileSync(join(dir, '.lock'), 'utf8'), `${process.pid} cafebabe`, 'and not removed');
  rmSync(join(dir, '.lock'));
  t.match(await spool.flush(), { delivered: 1, left: 0 });
  t.same(await spool.files(), []);
});

t.test('the spool keeps at most 10,000 pings: past that, the oldest go, and the pinger says so', async (t) => {
  const dir = t.testdir();
  const old = Date.now() - 60_000;
  const body = (i: number) => ({ runId: `bounded-${i}`, timestamp: new Date(old + i).toISOString() });
  // 10,000 pings written as the spool writes them (one add() each would take a minute of listings).
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < SPOOL_MAX_PINGS; i++) {
    const ping = { url: 'http://127.0.0.1:9', apiKey: 'pm_k', monitorId: 'mon_x', kind: 'start', body: body(i) };
    writeFileSync(join(dir, `${String(old + i).padStart(15, '0')}-0-${i}.json`), JSON.stringify(ping));
  }
  const errors: PingmonError[] = [];
  const mon = createPinger({
    ...{ monitorId: 'mon_x', apiKey: 'pm_k', baseUrl: await deadUrl(), spool: dir, retryBudgetMs: 300 },
    // No retry timer reading 10,000 files again while the later tests run.
    ...{ onError: (err: PingmonError) => errors.push(err), retrySpool: false },
  });
  await mon.wrap(() => undefined);
  const files = await new Spool(dir).files();
  t.equal(files.length, SPOOL_MAX_PINGS, 'still 10,000');
  t.notOk(
    files.some((f) => f.endsWith('-0-0.json') || f.endsWith('-0-1.json')),
    'the two oldest went',
  );
  t.match(errors[0]!.message, /the spool was full: its oldest ping was dropped/);
});

t.test('a key with a character HTTP cannot carry is said as such, and never spooled', async (t) => {
  const dir = t.testdir();
  const receiver = await startReceiver(t, (_req, _n, res) => json(res, 200, ACK('running')));
  // A crontab with Windows line ends gives PINGMON_API_KEY a trailing \r.
  const mon = createPinger({ monitorId: 'mon_x', apiKey: 'pm_secret_key\r', baseUrl: receiver.url, spool: dir });
  const err = (await mon.start().catch((e: unknown) => e)) as PingmonError;
  t.match(err, { status: 0, code: 'unsendable', message: /stray characters/ });
  t.notOk(err.message.includes('pm_secret_key'), 'the key is not in the message');
  t.same(await new Spool(dir).files(), [], 'nothing kept: sending it again could not help');
  t.equal(receiver.received.length, 0);
});

t.test('createPinger refuses missing settings and falls back to PINGMON_* variables', async (t) => {
  const saved = { key: process.env.PINGMON_API_KEY, url: process.env.PINGMON_URL };
  t.teardown(() => {
    process.env.PINGMON_API_KEY = saved.key;
    process.env.PINGMON_URL = saved.url;
    if (saved.key === undefined) delete process.env.PINGMON_API_KEY;
    if (saved.url === undefined) delete process.env.PINGMON_URL;
  });
  delete process.env.PINGMON_API_KEY;
  delete process.env.PINGMON_URL;
  t.throws(() => createPinger({ monitorId: 'mon_x', baseUrl: 'http://x' }), /apiKey/);
  t.throws(() => createPinger({ monitorId: 'mon_x', apiKey: 'pm_k' }), /baseUrl/);
  const receiver = await startReceiver(t, (_req, _n, res) => json(res, 200, ACK('running')));
  process.env.PINGMON_API_KEY = 'pm_fromenv';
  process.env.PINGMON_URL = receiver.url;
  await createPinger({ monitorId: 'mon_x' }).start();
  t.equal(receiver.received[0]!.headers['x-api-key'], 'pm_fromenv');
});
