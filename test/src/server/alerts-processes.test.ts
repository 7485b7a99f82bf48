import type { ChildProcess } from 'node:child_process';
import t from 'tap';
import { DATABASE_KINDS, createTestDatabase } from '../helpers/databases.js';
import type { TestDatabase } from '../helpers/databases.js';
import { createAccountCli, spawnCli, waitForLine } from '../helpers/cli.js';
import { request } from '../helpers/http.js';
import { closedPort, json, startReceiver } from '../helpers/receiver.js';
import { waitFor } from '../helpers/wait.js';

// Real `pingmon server` processes: killed for real, restarted on the same database.

const LISTENING = /pingmon server listening on (http:\/\/127\.0\.0\.1:\d+\/api\/v1)\n/;
// One-second attempts (so a lease lasts 4 s), retries from 0.2 s: the schedule a test can wait for.
const ALERT_ENV = { PINGMON_ALERT_TIMEOUT: '1', PINGMON_ALERT_RETRY_BASE: '0.2', PINGMON_LOG_LEVEL: 'silent' };

interface Teardown {
  teardown(fn: () => unknown): void;
}

interface Running {
  child: ChildProcess;
  url: string;
  kill(): Promise<void>;
}

async function startServer(t: Teardown, db: TestDatabase, env: Record<string, string> = {}): Promise<Running> {
  const child = spawnCli(['server', '--port', '0', '--host', '127.0.0.1'], { ...db.env, ...ALERT_ENV, ...env });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  t.teardown(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  const [, url] = await waitForLine(child, LISTENING);
  return {
    child,
    url: url!,
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** An account with a user token and an API key, made by `pingmon admin create-account` on the database. */
async function setUp(db: TestDatabase, url: string) {
  const email = `ops-${Math.random().toString(36).slice(2)}@example.com`;
  const { apiKey } = await createAccountCli(db.env, { email });
  const login = await request(`${url}/auth/login`, { body: { email, password: 'hunter2hunter2' } });
  return { apiKey, token: login.body.token as string };
}

for (const kind of DATABASE_KINDS) {
  t.test(`alerts survive a killed pingmon server on ${kind}`, async (t) => {
    const db = await createTestDatabase(kind);
    t.teardown(() => db.drop());
    const first = await startServer(t, db);
    const { apiKey, token } = await setUp(db, first.url);
    const alertsOf = async (url: string, monitorId: string) =>
      (await request(`${url}/alerts?monitorId=${monitorId}`, { token })).body.alerts;

    t.test('a fail ping accepted while the receiver was down is delivered by the restarted server', async (t) => {
      // The receiver's port, closed: connections to it are refused until it comes back.
      const port = await closedPort();
      const monitorId = (await request(`${first.url}/monitors`, { token, body: { name: 'backup' } })).body.monitorId;
      await request(`${first.url}/channels`, {
        token,
        body: { type: 'webhook', url: `http://127.0.0.1:${port}/hook`, monitorIds: [monitorId] },
      });
      const ack = await request(`${first.url}/ping/${monitorId}/fail`, {
        apiKey,
        body: { errorMessage: 'disk full', logOutput: 'No space left on device' },
      });
      t.equal(ack.status, 200);
      const [tried] = await waitFor(
        async () => {
          const alerts = await alertsOf(first.url, monitorId);
          return alerts[0]?.deliveries[0]?.attempts.length > 0 && alerts;
        },
        { what: 'a first attempt' },
      );
      t.match(tried.deliveries[0], { state: 'pending', attempts: [{ statusCode: null, error: /ECONNREFUSED/ }] });
      await first.kill();

      const back = await startReceiver(t, (_req, _n, res) => json(res, 200, {}), { port });
      const second = await startServer(t, db);
      await waitFor(() => back.received.length > 0, { what: 'the alert, after the restart' });
      const payload = JSON.parse(back.received[0]!.body);
      t.match(payload, {
        event: 'fail',
        monitorId,
        runId: ack.body.data.runId,
        errorMessage: 'disk full',
        logSnippet: 'No space left on device',
      });
      const [alert] = await waitFor(
        async () => {
          const alerts = await alertsOf(second.url, monitorId);
          return alerts[0]?.deliveries[0]?.state === 'delivered' && alerts;
        },
        { what: 'the delivery recorded' },
      );
      const attempts = alert.deliveries[0].attempts;
      t.match(attempts.at(-1), { statusCode: 200, error: null });
      t.ok(
        attempts.slice(0, -1).every((a: { error: string }) => /ECONNREFUSED/.test(a.error)),
        'the attempts before were refused',
      );
      t.equal(back.received.length, 1, 'delivered once');

      t.test('an attempt cut short by the kill is made again once its lease runs out', async (t) => {
        const held = await startReceiver(t, (_req, n, res) => {
          if (n > 1) json(res, 200, {});
          // the first request is held unanswered until the process sending it is killed
        });
        const m = (await request(`${second.url}/monitors`, { token, body: { name: 'etl' } })).body.monitorId;
        await request(`${second.url}/channels`, { token, body: { type: 'slack', url: held.url, monitorIds: [m] } });
        // The lease is taken once the ping is stored, so it cannot run out before 4 s from here. (From the kill
        // the time left depends on how long the attempt took to be seen: a race on a loaded machine.)
        const pingedAt = Date.now();
        await request(`${second.url}/ping/${m}/fail`, { apiKey, body: { errorMessage: 'boom' } });
        await waitFor(() => held.received.length === 1, { what: 'the attempt in flight' });
        await second.kill();
        const third = await startServer(t, db);
        await waitFor(() => held.received.length === 2, { what: 'the attempt made again', timeoutMs: 30_000 });
        t.ok(Date.now() - pingedAt >= 4_000, 'not before the lease (4 s) ran out');
        t.equal(held.received[1]!.body, held.received[0]!.body, 'the same message: delivery is at least once');
        const [alert] = await waitFor(
          async () => {
            const alerts = await alertsOf(third.url, m);
            return alerts[0]?.deliveries[0]?.state === 'delivered' && alerts;
          },
          { what: 'the delivery recorded' },
        );
        t.match(alert.deliveries[0], { attemptCount: 2, attempts: [{ attempt: 2, statusCode: 200 }] });
        t.equal(alert.deliveries[0].attempts.length, 1, 'the attempt cut short left no result');
      });
    });
  });
}

for (const kind of DATABASE_KINDS) {
  t.test(
    `a pingmon server on ${kind} stopped by a signal finishes its alert attempts in flight; ` +
      'a second signal leaves them to the next start',
    async (t) => {
      const db = await createTestDatabase(kind);
      t.teardown(() => db.drop());
      const env = { PINGMON_ALERT_TIMEOUT: '30' };
      const held: Array<() => void> = [];
      const receiver = await startReceiver(t, (_req, _n, res) => held.push(() => json(res, 200, {})));
      const server = await startServer(t, db, env);
      const { apiKey, token } = await setUp(db, server.url);
      const monitorId = (await request(`${server.url}/monitors`, { token, body: { name: 'nightly' } })).body.monitorId;
      await request(`${server.url}/channels`, { token, body: { type: 'webhook', url: receiver.url } });
      const deliveriesOf = async (url: string) =>
        (await request(`${url}/alerts?monitorId=${monitorId}`, { token })).body.alerts.map(
          (a: { deliveries: Array<{ state: string; attempts: unknown[] }> }) => a.deliveries[0],
        );
      const stopping = (running: Running) => {
        let stderr = '';
        running.child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
        const exit = new Promise<number | null>((resolve) => running.child.once('exit', (code) => resolve(code)));
        running.child.kill('SIGTERM');
        return {
          exit,
          said: () =>
            waitFor(() => /stopping after 1 alert delivery attempt\(s\) in flight .*Ctrl-C again/.test(stderr), {
              what: 'the stop message',
            }),
        };
      };

      await request(`${server.url}/ping/${monitorId}/fail`, { apiKey, body: { errorMessage: 'first' } });
      await waitFor(() => held.length === 1, { what: 'the first attempt in flight' });
      const first = stopping(server);
      await first.said();
      held[0]!();
      t.equal(await first.exit, 0, 'the server stops once the attempt is answered');

      const second = await startServer(t, db, env);
      t.same(
        (await deliveriesOf(second.url)).map((d: { state: string; attempts: unknown[] }) => [
          d.state,
          d.attempts.length,
        ]),
        [['delivered', 1]],
        'the attempt finished during the stop was recorded',
      );
      await request(`${second.url}/ping/${monitorId}/fail`, { apiKey, body: { errorMessage: 'second' } });
      await waitFor(() => held.length === 2, { what: 'the second attempt in flight' });
      const hurried = stopping(second);
      await hurried.said();
      second.child.kill('SIGTERM');
      t.equal(await hurried.exit, 0, 'a second signal stops it without waiting');

      const third = await startServer(t, db, env);
      await waitFor(() => held.length === 3, { what: 'the given-back attempt made again by the next start' });
      held[2]!();
      const delivered = await waitFor(
        async () => {
          const deliveries = await deliveriesOf(third.url);
          return deliveries.every((d: { state: string }) => d.state === 'delivered') && deliveries;
        },
        { what: 'both deliveries recorded' },
      );
      t.same(
        delivered.map((d: { attempts: unknown[] }) => d.attempts.length),
        [1, 1],
        'the abandoned attempt left no result',
      );
      t.equal(receiver.received.length, 3);
    },
  );
}

t.test(
  'two pingmon servers on one PostgreSQL deliver each alert to each channel exactly once',
  { skip: !DATABASE_KINDS.includes('postgres') && 'needs PINGMON_TEST_DATABASE_URL' },
  async (t) => {
    const db = await createTestDatabase('postgres');
    t.teardown(() => db.drop());
    // A generous timeout: an attempt that timed out while its answer was on the way would be a legitimate resend.
    const env = { PINGMON_ALERT_TIMEOUT: '10' };
    const [a, b] = [await startServer(t, db, env), await startServer(t, db, env)];
    const { apiKey, token } = await setUp(db, a!.url);
    // Each receiver refuses the first request for every alert (503), so every delivery is retried too:
    // both servers claim new deliveries and retries from one outbox.
    const receivers = await Promise.all(
      [0, 1].map(() => {
        const inFlight = new Set<string>();
        const overlaps: string[] = [];
        const oks = new Map<string, number>();
        const seen = new Map<string, number>();
        const receiver = startReceiver(t, (req, _n, res) => {
          const { alertId } = JSON.parse(req.body) as { alertId: string };
          if (inFlight.has(alertId)) overlaps.push(alertId);
          inFlight.add(alertId);
          const count = (seen.get(alertId) ?? 0) + 1;
          seen.set(alertId, count);
          setImmediate(() => {
            inFlight.delete(alertId);
            if (count === 1) return json(res, 503, { error: 'busy' });
            oks.set(alertId, (oks.get(alertId) ?? 0) + 1);
            json(res, 200, {});
          });
        });
        return receiver.then((r) => ({ ...r, overlaps, oks, seen }));
      }),
    );
    const monitors: string[] = [];
    for (let i = 0; i < 4; i++)
      monitors.push((await request(`${a!.url}/monitors`, { token, body: { name: `job ${i}` } })).body.monitorId);
    const channelIds: string[] = [];
    for (const r of receivers)
      channelIds.push(
        (await request(`${a!.url}/channels`, { token, body: { type: 'webhook', url: r.url } })).body.channelId,
      );

    const ALERTS = 60;
    const pings = Array.from({ length: ALERTS }, (_, i) =>
      request(`${(i % 2 ? a : b)!.url}/ping/${monitors[i % 4]}/fail`, {
        apiKey,
        body: { errorMessage: `failure ${i}` },
      }),
    );
    t.same(new Set((await Promise.all(pings)).map((p) => p.status)), new Set([200]));

    type Listed = Array<{
      alertId: string;
      deliveries: Array<{ channelId: string; state: string; attemptCount: number; attempts: unknown[] }>;
    }>;
    const alerts = await waitFor(
      async () => {
        const list = (await request(`${b!.url}/alerts?limit=200`, { token })).body.alerts as Listed;
        const done =
          list.length === ALERTS &&
          list.every((al) => al.deliveries.length === 2 && al.deliveries.every((d) => d.state === 'delivered'));
        return done ? list : undefined;
      },
      { what: `${ALERTS} alerts delivered to both channels`, timeoutMs: 60_000 },
    );

    for (const [i, r] of receivers.entries()) {
      t.equal(r.oks.size, ALERTS, `channel ${i}: every alert arrived`);
      t.same([...new Set(r.oks.values())], [1], `channel ${i}: each alert was accepted exactly once`);
      t.same(
        [...new Set(r.seen.values())],
        [2],
        `channel ${i}: one refused attempt and one retry per alert, nothing more`,
      );
      t.same(r.overlaps, [], `channel ${i}: never two attempts of one alert at once`);
    }
    const unrecorded = alerts.flatMap((al) =>
      al.deliveries
        .filter((d) => d.attempts.length !== receivers[channelIds.indexOf(d.channelId)]!.seen.get(al.alertId))
        .map((d) => `${al.alertId} → ${d.channelId}`),
    );
    t.same(unrecorded, [], 'every request a channel received is an attempt recorded once');
  },
);
