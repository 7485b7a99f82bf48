import { inspect } from 'node:util';
import t from 'tap';
import type { PingmonError } from '@pingmon/sdk';
import { createClient, createPinger } from '@pingmon/sdk';
import { deadUrl, json, startReceiver } from '../helpers/receiver.js';

const ACK = {
  success: true,
  data: { received: true, monitorId: 'mon_x', runId: 'r', status: 'running', timestamp: new Date().toISOString() },
};
const MONITOR = { monitorId: 'mon_x', name: 'etl', createdAt: new Date().toISOString(), lastRun: null };
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (err: unknown) => err as PingmonError,
  );

t.test('the retry budget bounds a call, every attempt and wait included', async (t) => {
  t.test("an attempt's timeout is cut to what is left of the budget", async (t) => {
    const silent = await startReceiver(t, () => undefined);
    const before = Date.now();
    const pinger = createPinger({
      spool: false,
      monitorId: 'mon_x',
      apiKey: 'pm_k',
      baseUrl: silent.url,
      timeoutMs: 10_000,
      retryBudgetMs: 400,
    });
    const err = await rejection(pinger.start());
    const tookMs = Date.now() - before;
    t.match(err, { status: 0, code: 'timeout' });
    t.match(err!.message, /did not answer POST .*\/start in time/);
    // The upper bound only tells the 400 ms budget from the 10 s attempt, with room for a loaded machine.
    t.ok(tookMs >= 350 && tookMs < 5_000, `gave up after ${tookMs} ms, not the 10 s of one attempt`);
    t.equal(silent.received.length, 1);
  });

  t.test('retries go on while the wait before the next attempt ends within the budget', async (t) => {
    // Waits of 1 s then 2 s (each plus up to 0.1 s): a second attempt at ~1 s fits in 2.9 s, a third, at 3 s
    // at the earliest, never does; the first answer has 1.8 s to come back, however loaded the machine.
    const busy = await startReceiver(t, (_req, _n, res) => json(res, 503, { code: 'unavailable', message: 'busy' }));
    const pinger = createPinger({
      spool: false,
      monitorId: 'mon_x',
      apiKey: 'pm_k',
      baseUrl: busy.url,
      timeoutMs: 10_000,
      retryBudgetMs: 2_900,
    });
    const err = await rejection(pinger.start());
    t.match(err, { status: 503, code: 'unavailable' });
    t.equal(busy.received.length, 2);
  });

  t.test('the wait a 503 or 429 asks for is kept, longer than an attempt, while it fits the budget', async (t) => {
    // got's backoff alone would wait ~1 s: 2 s is the server's, from the Retry-After header or else the body.
    // Attempts of 1 s: shorter than the wait asked for, and long enough for a loaded machine to answer.
    const busy = { code: 'unavailable', message: 'busy' };
    const byHeader = await startReceiver(t, (_req, n, res) => {
      json(res, n === 1 ? 503 : 200, n === 1 ? busy : ACK, { 'retry-after': '2' });
    });
    const limited = { code: 'rate_limited', message: 'wait', retryAfter: 2 };
    const byBody = await startReceiver(t, (_req, n, res) => json(res, n === 1 ? 429 : 200, n === 1 ? limited : ACK));
    const before = Date.now();
    const tookMs = await Promise.all(
      [byHeader, byBody].map(async (receiver) => {
        await createPinger({
          spool: false,
          monitorId: 'mon_x',
          apiKey: 'pm_k',
          baseUrl: receiver.url,
          timeoutMs: 1_000,
          retryBudgetMs: 5_000,
        }).start();
        return Date.now() - before;
      }),
    );
    t.ok(
      tookMs.every((ms) => ms >= 2_000),
      `waited ${tookMs.join(' and ')} ms as asked`,
    );
    t.same([byHeader.received.length, byBody.received.length], [2, 2]);
  });

  t.test('the management client retries a read with its default settings, never a creation', async (t) => {
    const flaky = await startReceiver(t, (req, n, res) =>
      n === 1 || req.method === 'POST'
        ? json(res, 503, { code: 'unavailable', message: 'busy' })
        : json(res, 200, MONITOR),
    );
    const client = createClient({ baseUrl: flaky.url, token: 'tok' });
    t.same(await client.getMonitor('mon_x'), MONITOR);
    t.same(
      flaky.received.map((r) => r.method),
      ['GET', 'GET'],
    );
    t.match(await rejection(client.createMonitor({ name: 'etl' })), { status: 503 });
    t.same(
      flaky.received.map((r) => r.method),
      ['GET', 'GET', 'POST'],
    );
  });
});

t.test('maxRetries bounds the attempts: with 0 a refused connection is an error at once', async (t) => {
  const dead = await deadUrl();
  const before = Date.now();
  const err = await rejection(createClient({ baseUrl: dead, token: 'tok', maxRetries: 0 }).listMonitors());
  const tookMs = Date.now() - before;
  t.match(err, { status: 0, code: 'network_error' });
  t.ok(tookMs < 900, `answered after ${tookMs} ms, before got's first wait of 1 s`);

  const busy = await startReceiver(t, (_req, _n, res) => json(res, 503, { code: 'unavailable', message: 'busy' }));
  const once = createClient({ baseUrl: busy.url, token: 'tok', maxRetries: 1, retryBudgetMs: 10_000 });
  t.match(await rejection(once.getMonitor('mon_x')), { status: 503 });
  t.equal(busy.received.length, 2, 'the first attempt and one retry, although the budget had room for more');
  for (const bad of [-1, 1.5, Number.NaN]) {
    t.throws(() => createClient({ baseUrl: dead, maxRetries: bad }), /^maxRetries must be a whole number, 0 or more/);
  }
});

t.test('durations must be positive finite numbers of milliseconds', async (t) => {
  for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
    for (const name of ['timeoutMs', 'retryBudgetMs'] as const) {
      t.throws(
        () =>
          createPinger({
            spool: false,
            monitorId: 'mon_x',
            apiKey: 'pm_k',
            baseUrl: 'http://127.0.0.1:1',
            [name]: bad,
          }),
        new RegExp(`^${name} must be a positive number of milliseconds \\(got ${bad}\\)`),
        `createPinger ${name}: ${bad}`,
      );
      t.throws(
        () => createClient({ baseUrl: 'http://127.0.0.1:1', [name]: bad }),
        new RegExp(`^${name} must be a positive`),
        `createClient ${name}: ${bad}`,
      );
    }
  }
});

t.test('redirects are not followed: the credentials stay with the configured server', async (t) => {
  const elsewhere = await startReceiver(t, (_req, _n, res) => json(res, 200, ACK));
  const redirecting = await startReceiver(t, (req, _n, res) => {
    res.writeHead(req.method === 'GET' ? 307 : 302, { location: `${elsewhere.url}${req.url}` }).end();
  });
  const pingErr = await rejection(
    createPinger({ spool: false, monitorId: 'mon_x', apiKey: 'pm_secret', baseUrl: redirecting.url }).start(),
  );
  t.match(pingErr, { status: 302, code: 'redirect', method: 'POST' });
  t.match(
    pingErr!.message,
    /redirects POST to http:\/\/127\.0\.0\.1:\d+\/api\/v1\/ping\/mon_x\/start \(HTTP 302\); redirects are not followed/,
  );
  const readErr = await rejection(createClient({ baseUrl: redirecting.url, token: 'tok_secret' }).getMonitor('mon_x'));
  t.match(readErr, { status: 307, code: 'redirect', method: 'GET' });
  t.equal(redirecting.received.length, 2, 'neither is retried');
  t.equal(elsewhere.received.length, 0, 'nothing reached the other origin');
});

t.test('no user:password from the base URL in errors or warnings', async (t) => {
  const withPassword = (url: string) => url.replace('http://', 'http://alice:s3cr%40t@');
  const silent = await startReceiver(t, () => undefined);
  const broken = await startReceiver(t, (_req, _n, res) => res.writeHead(500).end('<html>oops</html>'));
  const redirecting = await startReceiver(t, (_req, _n, res) =>
    res.writeHead(301, { location: 'http://bob:hunter2@example.com/api/v1' }).end(),
  );
  const cases: Array<[string, string]> = [
    ['server down', await deadUrl()],
    ['no answer', silent.url],
    ['500 without a JSON body', broken.url],
    ['redirect', redirecting.url],
  ];
  for (const [name, url] of cases) {
    const warnings: PingmonError[] = [];
    const mon = createPinger({
      spool: false,
      monitorId: 'mon_x',
      apiKey: 'pm_k',
      baseUrl: withPassword(url),
      timeoutMs: 300,
      retryBudgetMs: 300,
      onError: (err) => warnings.push(err),
    });
    const err = await rejection(mon.success());
    t.equal(err!.url, `${url}/api/v1/ping/mon_x/success`, `${name}: url`);
    t.ok(err!.message.includes(`${url}/api/v1/ping/mon_x/`), `${name}: the message names the server: ${err!.message}`);
    t.equal(await mon.wrap(() => 'done'), 'done');
    t.equal(warnings.length, 2, `${name}: start and success reported`);
    for (const shown of [inspect(err, { depth: 10 }), ...warnings.map((w) => `[pingmon] ${w.message} ${w.url}`)]) {
      t.notMatch(shown, /alice|s3cr|hunter2/, `${name}: no userinfo in ${shown.split('\n')[0]}`);
    }
  }
});

t.test('a baseUrl without http:// or https:// is refused when the client or pinger is made, saying so', async (t) => {
  for (const baseUrl of ['notaurl', '127.0.0.1:8080', 'ftp://example.com', 'http://']) {
    const message = `baseUrl must be http(s)://host[:port], e.g. http://127.0.0.1:8080 (got "${baseUrl}")`;
    t.throws(() => createClient({ baseUrl, token: 'eyJx' }), new TypeError(message), baseUrl);
    t.throws(() => createPinger({ monitorId: 'mon_x', apiKey: 'pm_x', baseUrl }), new TypeError(message), baseUrl);
  }
  t.doesNotThrow(() => createClient({ baseUrl: 'HTTPS://pingmon.example.com/api/v1/', token: 'eyJx' }));
});
