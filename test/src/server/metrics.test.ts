import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import t from 'tap';
import { createServer, loadConfig } from '@pingmon/server';
import { TestClock } from '../helpers/clock.js';
import { CLI, cliEnv, createAccountCli, finished, waitForLine } from '../helpers/cli.js';
import { createTestDatabase, DATABASE_KINDS, knexOf, POSTGRES_URL } from '../helpers/databases.js';
import { request } from '../helpers/http.js';
import { databaseOutage } from '../helpers/outage.js';
import { json, startReceiver } from '../helpers/receiver.js';
import type { Received } from '../helpers/receiver.js';
import { TestServer } from '../helpers/server.js';
import { waitFor } from '../helpers/wait.js';

const TOKEN = 'metrics-token-0123456789';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition, comments left out. */
function parse(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
      );
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

/** The value of the one sample with exactly these labels; undefined when there is none. */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter(
    (s) =>
      s.name === name &&
      Object.keys(s.labels).length === Object.keys(labels).length &&
      Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

/** GET /metrics on the server's root (not under /api/v1). */
function scrapeUrl(api: TestServer): string {
  return `${api.server.info.uri}/metrics`;
}

async function scrape(url: string, token?: string): Promise<Sample[]> {
  const reply = await request(url, { token });
  if (reply.status !== 200) throw new Error(`scrape answered ${reply.status}: ${reply.text}`);
  return parse(reply.text);
}

for (const kind of DATABASE_KINDS) {
  t.test(`metrics on ${kind}`, async (t) => {
    const clock = new TestClock(Date.now());
    const api = await TestServer.start(t, kind, {
      metrics: true,
      metricsToken: TOKEN,
      clock: clock.read,
      sweepIntervalMs: 3_600_000,
      alertPollMs: 50,
      alertTimeoutMs: 30_000,
    });
    const url = scrapeUrl(api);
    const now = () => scrape(url, TOKEN);

    t.test('the token: 401 without it or with a wrong one, in the error shape; 200 with it', async (t) => {
      const none = await request(url);
      t.equal(none.status, 401);
      t.match(none.body, { success: false, statusCode: 401, code: 'missing_metrics_token' });
      t.match(none.body.message, /PINGMON_METRICS_TOKEN/);
      t.equal(none.headers.get('www-authenticate'), 'Bearer realm="pingmon metrics"');
      const wrong = await request(url, { token: `${TOKEN}x` });
      t.equal(wrong.status, 401);
      t.match(wrong.body, { code: 'invalid_metrics_token' });
      t.equal((await request(url, { token: TOKEN.slice(0, -1) })).status, 401, 'a prefix of the token is wrong too');
      const right = await request(url, { token: TOKEN });
      t.equal(right.status, 200);
      t.match(right.headers.get('content-type'), /^text\/plain; version=0\.0\.4; charset=utf-8/);
      t.match(right.text, /^# TYPE pingmon_pings_total counter$/m);
      t.match(right.text, /^# TYPE pingmon_http_request_duration_seconds histogram$/m);
      t.match(right.text, /^process_cpu_user_seconds_total \d/m, "the process's own metrics");
    });

    t.test('pings by kind and outcome, and the runs they failed', async (t) => {
      const alice = await api.account('unlimited');
      const m = await api.monitor(alice, 'backup');
      const before = await now();
      t.equal(
        value(before, 'pingmon_pings_total', { kind: 'fail', outcome: 'error' }),
        0,
        'every series is there, at 0',
      );

      t.equal((await api.ping(alice, m, 'start', { runId: 'run-metrics-1' })).status, 200);
      t.equal((await api.ping(alice, m, 'start', { runId: 'run-metrics-1' })).status, 200, 'replayed');
      t.equal((await api.ping(alice, m, 'success', { runId: 'run-metrics-1' })).status, 200);
      t.equal((await api.ping(alice, m, 'success', { runId: 'run-metrics-1' })).status, 200, 'replayed');
      t.equal((await api.ping(alice, m, 'fail', { errorMessage: 'exit 2' })).status, 200);
      t.equal((await api.ping(alice, 'mon_nonexistent', 'start')).status, 404);
      t.equal((await api.ping(alice, m, 'success', { meta: { size: 'big' } })).status, 400);
      t.equal((await api.ping(alice, m, 'fail', '{not json', { 'content-type': 'application/json' })).status, 400);
      const free = await api.account('free');
      const f = await api.monitor(free, 'hourly');
      t.equal((await api.ping(free, f, 'start')).status, 200);
      t.equal((await api.ping(free, f, 'start')).status, 429);
      const early = new Date(clock.now - 5_000).toISOString();
      t.equal((await api.ping(free, f, 'start', { timestamp: early })).status, 409);

      const after = await now();
      const moved = (ping: string, outcome: string) =>
        (value(after, 'pingmon_pings_total', { kind: ping, outcome }) ?? NaN) -
        (value(before, 'pingmon_pings_total', { kind: ping, outcome }) ?? NaN);
      t.same(
        {
          startRecorded: moved('start', 'recorded'),
          startReplay: moved('start', 'replay'),
          startNotFound: moved('start', 'not_found'),
          startRateLimited: moved('start', 'rate_limited'),
          startTooClose: moved('start', 'too_close'),
          successRecorded: moved('success', 'recorded'),
          successReplay: moved('success', 'replay'),
          successInvalid: moved('success', 'invalid'),
          failRecorded: moved('fail', 'recorded'),
          failInvalid: moved('fail', 'invalid'),
          failReplay: moved('fail', 'replay'),
        },
        {
          startRecorded: 2,
          startReplay: 1,
          startNotFound: 1,
          startRateLimited: 1,
          startTooClose: 1,
          successRecorded: 1,
          successReplay: 1,
          successInvalid: 1,
          failRecorded: 1,
          failInvalid: 1,
          failReplay: 0,
        },
      );
      const failed = (cause: string, s: Sample[]) => value(s, 'pingmon_runs_failed_total', { cause }) ?? NaN;
      t.equal(failed('fail', after) - failed('fail', before), 1, 'the fail ping failed one run');

      // A replayed fail ping fails nothing more.
      t.equal((await api.ping(alice, m, 'fail', { runId: 'run-metrics-2' })).status, 200);
      t.equal((await api.ping(alice, m, 'fail', { runId: 'run-metrics-2' })).status, 200);
      const again = await now();
      t.equal(failed('fail', again) - failed('fail', after), 1);
      t.equal(
        (value(again, 'pingmon_pings_total', { kind: 'fail', outcome: 'replay' }) ?? NaN) -
          (value(after, 'pingmon_pings_total', { kind: 'fail', outcome: 'replay' }) ?? NaN),
        1,
      );
    });

    t.test('a run timed out by the sweeper is a failed run', async (t) => {
      const bob = await api.account();
      const reply = await api.request('/monitors', { token: bob.token, body: { name: 'slow', maxRuntime: 60 } });
      t.equal(reply.status, 201, reply.text);
      const before = await now();
      t.equal((await api.ping(bob, reply.body.monitorId, 'start')).status, 200);
      clock.advance(61_000);
      const swept = await api.server.app.sweeper.sweepNow();
      t.equal(swept.timedOut, 1);
      const after = await now();
      const timedOut = (s: Sample[]) => value(s, 'pingmon_runs_failed_total', { cause: 'timed_out' }) ?? NaN;
      t.equal(timedOut(after) - timedOut(before), 1);
    });

    t.test('alert deliveries by channel type, and the outbox while one waits', async (t) => {
      const carol = await api.account();
      const held: Array<() => void> = [];
      const receiver = await startReceiver(t, (req: Received, _n, res) => {
        if (req.url === '/refuse') json(res, 400, { error: 'no such hook' });
        else held.push(() => json(res, 200, {}));
      });
      // Each channel serves a monitor of its own: an alert then goes to one channel.
      const addChannel = async (type: string, path: string, monitorId: string) => {
        const reply = await api.request('/channels', {
          token: carol.token,
          body: { type, name: path, url: `${receiver.url}${path}`, monitorIds: [monitorId] },
        });
        t.equal(reply.status, 201, reply.text);
      };
      const m = await api.monitor(carol, 'nightly');
      const m2 = await api.monitor(carol, 'weekly');
      await addChannel('webhook', '/hook', m);
      await addChannel('discord', '/refuse', m2);
      const deliveries = (s: Sample[], type: string, outcome: string) =>
        value(s, 'pingmon_alert_deliveries_total', { channel_type: type, outcome }) ?? NaN;
      const before = await now();
      t.equal(value(before, 'pingmon_alert_outbox_deliveries'), 0);

      t.equal((await api.ping(carol, m, 'fail', { errorMessage: 'disk full' })).status, 200);
      await waitFor(() => held.length === 1, { what: 'the webhook, held' });
      const waiting = await now();
      t.equal(value(waiting, 'pingmon_alert_outbox_deliveries'), 1, 'the held delivery is still in the outbox');
      t.equal(deliveries(waiting, 'webhook', 'delivered'), deliveries(before, 'webhook', 'delivered'));
      held[0]!();
      const delivered = await waitFor(
        async () => {
          const s = await now();
          return deliveries(s, 'webhook', 'delivered') - deliveries(before, 'webhook', 'delivered') === 1
            ? s
            : undefined;
        },
        { what: 'the delivery counted' },
      );
      t.equal(value(delivered, 'pingmon_alert_outbox_deliveries'), 0, 'the outbox is empty again');

      t.equal((await api.ping(carol, m2, 'fail', { errorMessage: 'disk full' })).status, 200);
      const failed = await waitFor(
        async () => {
          const s = await now();
          return deliveries(s, 'discord', 'failed') - deliveries(before, 'discord', 'failed') === 1 ? s : undefined;
        },
        { what: 'the refused delivery counted' },
      );
      t.equal(deliveries(failed, 'discord', 'delivered'), deliveries(before, 'discord', 'delivered'));
      t.equal(deliveries(failed, 'webhook', 'failed'), deliveries(before, 'webhook', 'failed'));
    });

    t.test('a delivery given up without an attempt (its channel disabled meanwhile) counts as failed', async (t) => {
      const dave = await api.account();
      const held: Array<() => void> = [];
      const receiver = await startReceiver(t, (_req: Received, _n, res) => {
        held.push(() => json(res, 503, { error: 'busy' }));
      });
      const m = await api.monitor(dave, 'hourly');
      const channel = await api.request('/channels', {
        token: dave.token,
        body: { type: 'slack', name: 'busy', url: `${receiver.url}/busy`, monitorIds: [m] },
      });
      t.equal(channel.status, 201, channel.text);
      const failedCount = (s: Sample[]) =>
        value(s, 'pingmon_alert_deliveries_total', { channel_type: 'slack', outcome: 'failed' }) ?? NaN;
      const before = failedCount(await now());

      t.equal((await api.ping(dave, m, 'fail', { errorMessage: 'disk full' })).status, 200);
      await waitFor(() => held.length === 1, { what: 'the first attempt, held' });
      // Disabled while its first attempt is under way: that attempt fails (503), and the next is not made.
      const disabled = await api.request(`/channels/${channel.body.channelId}`, {
        method: 'PATCH',
        token: dave.token,
        body: { enabled: false },
      });
      t.equal(disabled.status, 200, disabled.text);
      held[0]!();
      const alerts = async () => (await api.request(`/alerts?monitorId=${m}`, { token: dave.token })).body.alerts;
      await waitFor(async () => (await alerts())[0]?.deliveries[0]?.lastError?.includes('503'), {
        what: 'the first attempt recorded',
      });
      t.equal(failedCount(await now()), before, 'not failed yet: to be tried again');
      clock.advance(3_600_000); // past any retry delay
      await waitFor(async () => failedCount(await now()) - before === 1, { what: 'the given-up delivery counted' });
      t.match(await alerts(), [
        { deliveries: [{ state: 'failed', attemptCount: 1, lastError: /channel was disabled/ }] },
      ]);
      t.equal(held.length, 1, 'no second attempt');
    });

    t.test('request latency: a histogram by route pattern, method and status, never by path', async (t) => {
      const dave = await api.account();
      const ids = [await api.monitor(dave, 'a'), await api.monitor(dave, 'b'), await api.monitor(dave, 'c')];
      const labels = { method: 'GET', route: '/api/v1/monitors/{monitorId}', status_code: '200' };
      const count = (s: Sample[]) => value(s, 'pingmon_http_request_duration_seconds_count', labels) ?? 0;
      const before = await now();
      for (const id of ids) t.equal((await api.request(`/monitors/${id}`, { token: dave.token })).status, 200);
      const after = await waitFor(
        async () => {
          const s = await now();
          return count(s) - count(before) === 3 ? s : undefined;
        },
        { what: 'three requests measured' },
      );
      const bucket = (le: string) =>
        value(after, 'pingmon_http_request_duration_seconds_bucket', { ...labels, le }) ?? NaN;
      t.equal(bucket('+Inf'), count(after), 'every request in the +Inf bucket');
      t.ok(bucket('0.001') <= bucket('10'), 'buckets are cumulative');
      t.ok((value(after, 'pingmon_http_request_duration_seconds_sum', labels) ?? NaN) > 0);
      const routes = new Set(after.filter((s) => s.labels.route !== undefined).map((s) => s.labels.route));
      t.notOk(
        [...routes].some((route) => route.includes('mon_')),
        `no raw path among the routes: ${[...routes].join(' ')}`,
      );
      t.ok(routes.has('/api/v1/ping/{monitorId}/start'), 'pings are measured too');
    });
  });

  t.test(`monitors by status, as the API shows them, on ${kind}`, async (t) => {
    const clock = new TestClock(Date.now());
    const api = await TestServer.start(t, kind, { metrics: true, clock: clock.read, sweepIntervalMs: 3_600_000 });
    const url = scrapeUrl(api);
    const erin = await api.account();
    const create = async (name: string, body: object = {}) => {
      const reply = await api.request('/monitors', { token: erin.token, body: { name, ...body } });
      t.equal(reply.status, 201, reply.text);
      return reply.body.monitorId as string;
    };
    await create('new');
    const up = await create('up');
    await api.ping(erin, up, 'success');
    await api.ping(erin, await create('running'), 'start');
    await api.ping(erin, await create('down'), 'fail');
    const paused = await create('paused');
    await api.request(`/monitors/${paused}`, { method: 'PATCH', token: erin.token, body: { paused: true } });
    const late = await create('late', { schedule: { every: 3600 } });
    await api.ping(erin, late, 'success');
    clock.advance(3_601_000);

    const samples = await scrape(url);
    const shown = (await api.request('/monitors?limit=100', { token: erin.token })).body.monitors as Array<{
      name: string;
      status: string;
    }>;
    t.same(
      shown.map((m) => [m.name, m.status]).sort(),
      ['down', 'late', 'new', 'paused', 'running', 'up'].map((s) => [s, s]),
      'the API shows each status once',
    );
    for (const status of ['new', 'up', 'late', 'down', 'running', 'paused'])
      t.equal(value(samples, 'pingmon_monitors', { status }), 1, status);
    t.equal(value(samples, 'pingmon_alert_outbox_deliveries'), 0);

    t.test('thousands of monitors are counted a page at a time, the last page full or not', async (t) => {
      const total = (s: Sample[]) =>
        s.filter((x) => x.name === 'pingmon_monitors').reduce((sum, x) => sum + x.value, 0);
      const add = (from: number, count: number) =>
        api.query((knex) =>
          knex.batchInsert(
            'monitors',
            Array.from({ length: count }, (_, i) => ({
              id: `mon_bulk${String(from + i).padStart(5, '0')}`,
              slug: `bulk-${from + i}`,
              account_id: erin.accountId,
              name: 'bulk',
              created_at: clock.now,
              start_grace: 300,
              failure_threshold: 1,
              recovery_threshold: 1,
              paused: false,
              fail_streak: 0,
              ok_streak: 0,
            })),
            200,
          ),
        );
      // Pages of 2,000: 4,000 monitors end on a full page, 4,101 on a part of one.
      await add(0, 3_994);
      const even = await scrape(url);
      t.equal(total(even), 4_000);
      t.equal(value(even, 'pingmon_monitors', { status: 'new' }), 3_995);
      t.equal(value(even, 'pingmon_monitors', { status: 'running' }), 1);
      await add(3_994, 101);
      const odd = await scrape(url);
      t.equal(total(odd), 4_101);
      t.equal(value(odd, 'pingmon_monitors', { status: 'new' }), 4_096);
    });

    // A read that fails otherwise than by an outage (that one is below, through helpers/outage.ts).
    t.test('a scrape whose read fails answers all the same, without that gauge', async (t) => {
      await api.query((knex) => knex.schema.renameTable('alert_deliveries', 'alert_deliveries_away'));
      const broken = await request(url);
      await api.query((knex) => knex.schema.renameTable('alert_deliveries_away', 'alert_deliveries'));
      t.equal(broken.status, 200, broken.text);
      const samples = parse(broken.text);
      t.equal(value(samples, 'pingmon_alert_outbox_deliveries'), undefined, 'the outbox is left out');
      t.equal(value(samples, 'pingmon_monitors', { status: 'up' }), 1, 'what could be read is there');
      t.equal(value(await scrape(url), 'pingmon_alert_outbox_deliveries'), 0, 'and back at the next scrape');
    });
  });
}

t.test('metrics are off unless enabled: /metrics is a 404 saying how to turn them on', async (t) => {
  const api = await TestServer.start(t, 'sqlite');
  t.equal(api.config.metrics, false);
  const reply = await request(scrapeUrl(api));
  t.equal(reply.status, 404);
  t.match(reply.body, { success: false, statusCode: 404, code: 'metrics_off' });
  t.match(reply.body.message, /PINGMON_METRICS=true/);
  t.equal((await request(scrapeUrl(api), { token: TOKEN })).status, 404);
  t.equal((await request(`${api.url}/health`)).status, 200);
});

t.test('the settings: PINGMON_METRICS; a token without metrics, or with a blank in it, refused', async (t) => {
  t.equal(loadConfig({}).metrics, false);
  t.equal(loadConfig({ PINGMON_METRICS: 'true' }).metrics, true);
  t.equal(loadConfig({ PINGMON_METRICS: '1', PINGMON_METRICS_TOKEN: TOKEN }).metricsToken, TOKEN);
  t.equal(loadConfig({ PINGMON_METRICS: '1', PINGMON_METRICS_TOKEN: '' }).metricsToken, undefined);
  t.throws(() => loadConfig({ PINGMON_METRICS: 'yes please' }), {
    message: 'PINGMON_METRICS must be true, false, 1 or 0 (got "yes please")',
  });
  for (const env of [{ PINGMON_METRICS_TOKEN: TOKEN }, { PINGMON_METRICS: 'false', PINGMON_METRICS_TOKEN: TOKEN }]) {
    t.throws(() => loadConfig(env), {
      message:
        'PINGMON_METRICS_TOKEN is set but metrics are off: set PINGMON_METRICS=true to serve /metrics ' +
        'behind this token, or unset PINGMON_METRICS_TOKEN',
    });
  }
  // A scrape could never send it: Authorization: Bearer <token> ends at the first blank.
  for (const token of [`${TOKEN} x`, ` ${TOKEN}`, `${TOKEN}\t`, ' ']) {
    t.throws(() => loadConfig({ PINGMON_METRICS: 'true', PINGMON_METRICS_TOKEN: token }), {
      message:
        'PINGMON_METRICS_TOKEN must not contain spaces or other blanks: a scrape sends it as ' +
        '"Authorization: Bearer <token>", which ends at the first one (make one with: openssl rand -hex 32)',
    });
  }
});

t.test(
  'a database outage on PostgreSQL: a scrape answers without the gauges, logged as the outage; pings 503 are errors',
  { skip: POSTGRES_URL ? false : 'no test PostgreSQL' },
  async (t) => {
    const database = await createTestDatabase('postgres');
    t.teardown(() => database.drop());
    const outage = await databaseOutage(t, 'postgres');
    const api = await TestServer.on(t, database, {
      databaseUrl: outage.databaseUrl,
      metrics: true,
      // Nothing of the server's own reads the database meanwhile: the scrape's failure is the outage's first.
      sweepIntervalMs: 3_600_000,
      pruneIntervalMs: 3_600_000,
      alertPollMs: 3_600_000,
    });
    const logged: string[] = [];
    api.server.events.on('log', (event) => logged.push(`${event.tags.join(',')}: ${String(event.data)}`));
    const url = scrapeUrl(api);
    const alice = await api.account();
    const m = await api.monitor(alice, 'backup');
    t.equal((await api.ping(alice, m, 'start')).status, 200, 'the key is in the server cache from now on');
    // A key never used before the outage: its check reads the database, and fails before the ping route runs.
    const fresh = (await api.request('/api-keys', { token: alice.token, body: { name: 'fresh' } })).body.key as string;
    const errors = (s: Sample[]) => value(s, 'pingmon_pings_total', { kind: 'start', outcome: 'error' }) ?? NaN;
    const before = await scrape(url);

    await outage.begin(api.database);
    const broken = await request(url);
    t.equal(broken.status, 200, 'a scrape answers all the same');
    const samples = parse(broken.text);
    t.equal(value(samples, 'pingmon_alert_outbox_deliveries'), undefined, 'the outbox is left out');
    t.same(
      samples.filter((s) => s.name === 'pingmon_monitors'),
      [],
      'so are the monitors',
    );
    t.equal(value(samples, 'pingmon_pings_total', { kind: 'start', outcome: 'recorded' }), 1, 'the counters are there');
    t.match(
      logged[0],
      /^database,warn: .*\(a scrape of \/metrics could not read the database; more failures are counted/,
    );
    t.notOk(
      logged.some((line) => line.startsWith('metrics')),
      `no line of its own per failed read: ${logged.join(' | ')}`,
    );

    t.equal((await api.ping(alice, m, 'start')).status, 503, 'the ping itself failed');
    t.equal((await api.ping({ apiKey: fresh }, m, 'start')).status, 503, 'the key check failed');
    t.equal((await api.ping({ apiKey: fresh }, m, 'start')).status, 503);
    // Counted once the response is sent, which the client may see first.
    const during = await waitFor(
      async () => {
        const s = await scrape(url);
        return errors(s) - errors(before) >= 3 ? s : undefined;
      },
      { what: 'three pings counted as errors' },
    );
    t.equal(errors(during) - errors(before), 3, 'each counted once');
    await outage.end();
    await waitFor(async () => value(await scrape(url), 'pingmon_monitors', { status: 'running' }) === 1, {
      what: 'the gauges back once the database is',
    });
  },
);

t.test('a stopped server with metrics on can be garbage collected, however many ran before it', async (t) => {
  // gc() without --expose-gc on the command line: the flag set now holds for contexts made after it.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const database = await createTestDatabase('sqlite');
  t.teardown(() => database.drop());
  const config = loadConfig(
    {},
    { host: '127.0.0.1', port: 0, dataDir: database.dataDir, logLevel: 'silent', metrics: true },
  );
  const startAndStop = async () => {
    const server = await createServer(config);
    await server.start();
    t.equal((await request(`${server.info.uri}/metrics`)).status, 200);
    await server.stop();
    return new WeakRef(server);
  };
  let last: WeakRef<object> | undefined;
  for (let i = 0; i < 4; i++) last = await startAndStop();
  await waitFor(
    async () => {
      // A WeakRef holds its target until the current job ends: collect on a later turn.
      await new Promise(setImmediate);
      gc();
      return last!.deref() === undefined;
    },
    { what: 'the last stopped server to be collected', intervalMs: 50 },
  );
});

/** A request on a connection of its own: node's cluster hands each connection to a worker in turn. */
function once(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'GET', agent: false, headers: options.headers });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const LISTENING = /pingmon server listening on (http:\/\/127\.0\.0\.1:\d+)\/api\/v1 \(2 workers\)\n/;

t.test(
  'pingmon server --workers 2: any worker a scrape reaches answers for both',
  { skip: POSTGRES_URL ? false : 'no test PostgreSQL' },
  async (t) => {
    const db = await createTestDatabase('postgres');
    t.teardown(() => db.drop());
    const account = await createAccountCli(db.env);
    const env = { ...db.env, PINGMON_METRICS: 'true', PINGMON_METRICS_TOKEN: TOKEN, PINGMON_LOG_LEVEL: 'warn' };
    const primary = spawn(process.execPath, [CLI, 'server', '--workers', '2', '--port', '0'], {
      env: cliEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const output = finished(primary);
    const exited = new Promise((resolve) => primary.on('exit', resolve));
    t.teardown(async () => {
      if (primary.exitCode === null) process.kill(-primary.pid!, 'SIGINT');
      await exited;
    });
    const [, root] = await waitForLine(primary, LISTENING);
    const login = await request(`${root}/api/v1/auth/login`, {
      body: { email: 'ops@example.com', password: 'hunter2hunter2' },
    });
    const monitor = await request(`${root}/api/v1/monitors`, { token: login.body.token, body: { name: 'nightly' } });
    const headers = { 'x-api-key': account.apiKey, 'content-type': 'application/json' };
    for (let i = 0; i < 20; i++) {
      const body = JSON.stringify({ runId: `run-workers-${i}` });
      const reply = await once(`${root}/api/v1/ping/${monitor.body.monitorId}/start`, {
        method: 'POST',
        headers,
        body,
      });
      t.equal(reply.status, 200, reply.text);
    }
    for (let i = 0; i < 6; i++) {
      const reply = await once(`${root}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      t.equal(reply.status, 200, reply.text);
      const samples = parse(reply.text);
      t.equal(value(samples, 'pingmon_pings_total', { kind: 'start', outcome: 'recorded' }), 20, 'summed');
      t.equal(value(samples, 'pingmon_monitors', { status: 'running' }), 1, 'read from the database, not summed');
    }
    t.equal((await once(`${root}/metrics`)).status, 401, 'the token still holds');

    // The worker a scrape reaches reads the gauges alone: with the outbox's table gone, one read fails, not two.
    const outbox = knexOf(db);
    t.teardown(() => outbox.destroy());
    await outbox.schema.renameTable('alert_deliveries', 'alert_deliveries_away');
    const broken = await once(`${root}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    await outbox.schema.renameTable('alert_deliveries_away', 'alert_deliveries');
    t.equal(broken.status, 200);
    t.equal(value(parse(broken.text), 'pingmon_alert_outbox_deliveries'), undefined);
    t.equal(value(parse(broken.text), 'pingmon_monitors', { status: 'running' }), 1);
    process.kill(-primary.pid!, 'SIGINT');
    const { stdout } = await output;
    const reads = stdout.split('\n').filter((line) => line.includes('reading the alert outbox for /metrics failed'));
    t.equal(reads.length, 1, `one worker read it, not each: ${reads.join('\n')}`);
  },
);
