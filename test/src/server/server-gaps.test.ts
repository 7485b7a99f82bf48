import t from 'tap';
import type { Test } from 'tap';
import type { Alert, Monitor } from '@pingmon/sdk';
import { finished, spawnCli, waitForLine } from '../helpers/cli.js';
import { TestClock } from '../helpers/clock.js';
import { DATABASE_KINDS } from '../helpers/databases.js';
import type { DatabaseKind } from '../helpers/databases.js';
import { request } from '../helpers/http.js';
import { json, startReceiver } from '../helpers/receiver.js';
import type { Received } from '../helpers/receiver.js';
import { TestServer } from '../helpers/server.js';
import type { TestAccount } from '../helpers/server.js';
import { waitFor } from '../helpers/wait.js';

// A restart of pingmon is never the job's fault (docs/schedules.md#when-pingmon-itself-was-down): an expected run
// whose time fell while no server was sweeping, however short that was, gets a fresh grace for its spooled ping.

/** Test time: the servers sweep when the test says; their own loop once an hour of real time. */
const TEST_TIME = { sweepIntervalMs: 3_600_000, alertPollMs: 50, alertRetryBaseMs: 20, alertTimeoutMs: 30_000 };
const LISTENING = /pingmon server listening on (http:\/\/127\.0\.0\.1:\d+\/api\/v1)\n/;

interface Setup {
  first: TestServer;
  clock: TestClock;
  account: TestAccount;
  monitorId: string;
  hooks: Received[];
}

/** A server on test time with an every-minute job (startGrace 5s) and a webhook; its first slot is 12:01:00. */
async function setup(t: Test, kind: DatabaseKind): Promise<Setup> {
  const clock = new TestClock(Date.parse('2027-03-27T12:00:00.000Z'));
  const first = await TestServer.start(t, kind, { ...TEST_TIME, clock: clock.read });
  const account = await first.account();
  const receiver = await startReceiver(t, (_req, _n, res) => json(res, 200, {}));
  const body = { type: 'webhook', name: 'hook', url: `${receiver.url}/hook` };
  t.equal((await first.request('/channels', { token: account.token, body })).status, 201);
  const monitor = await first.request<Monitor>('/monitors', {
    token: account.token,
    body: { name: 'every minute', schedule: { cron: '* * * * *' }, startGrace: 5 },
  });
  t.equal(monitor.body.nextExpectedAt, '2027-03-27T12:01:00.000Z');
  return { first, clock, account, monitorId: monitor.body.monitorId, hooks: receiver.received };
}

/** Stops the first server at 12:00:58 and starts another at 12:01:02, across the 12:01 slot: a deploy. */
async function restartAcrossTheSlot(t: Test, s: Setup): Promise<TestServer> {
  s.clock.set('2027-03-27T12:00:55.000Z');
  await s.first.server.app.sweeper.sweepNow();
  s.clock.set('2027-03-27T12:00:58.000Z');
  await s.first.server.stop();
  s.clock.set('2027-03-27T12:01:02.000Z');
  const second = await TestServer.on(t, s.first.database, { ...TEST_TIME, clock: s.clock.read });
  await second.server.app.sweeper.sweepNow();
  return second;
}

const alertsOf = async (server: TestServer, s: Setup) =>
  (await server.request<{ alerts: Alert[] }>(`/alerts?monitorId=${s.monitorId}`, { token: s.account.token })).body
    .alerts;

for (const kind of DATABASE_KINDS) {
  t.test(`restarts of pingmon on ${kind}`, async (t) => {
    t.test(
      'a clean stop of four seconds across a slot: the spooled ping comes in the fresh grace, no alert',
      async (t) => {
        const s = await setup(t, kind);
        const second = await restartAcrossTheSlot(t, s);
        s.clock.set('2027-03-27T12:01:10.000Z');
        t.match(await second.server.app.sweeper.sweepNow(), { missed: 0 }, 'the 12:01:05 deadline has moved');
        s.clock.set('2027-03-27T12:01:20.000Z');
        // The job ran at 12:01:00 while no server answered; its host's spool sends the result with its own time.
        const spooled = { timestamp: '2027-03-27T12:01:00.300Z' };
        t.equal((await second.ping(s.account, s.monitorId, 'success', spooled)).status, 200);
        s.clock.set('2027-03-27T12:01:50.000Z');
        t.match(await second.server.app.sweeper.sweepNow(), { missed: 0 });
        t.same(await alertsOf(second, s), [], 'no missed alert, and so no recovered one');
        const monitor = (await second.request<Monitor>(`/monitors/${s.monitorId}`, { token: s.account.token })).body;
        t.match(monitor, { status: 'up', nextExpectedAt: '2027-03-27T12:02:00.000Z' });
      },
    );

    t.test('a job that really did not run: missed after the fresh grace, and the alert names the gap', async (t) => {
      const s = await setup(t, kind);
      const second = await restartAcrossTheSlot(t, s);
      s.clock.set('2027-03-27T12:03:01.000Z');
      t.match(await second.server.app.sweeper.sweepNow(), { missed: 0 }, 'two minutes from the restart');
      s.clock.set('2027-03-27T12:03:03.000Z');
      t.match(await second.server.app.sweeper.sweepNow(), { missed: 1 }, 'then it is missed');
      const [alert] = await alertsOf(second, s);
      const gap =
        'pingmon was not running (or could not reach its database) from 2027-03-27T12:00:58.000Z ' +
        'to 2027-03-27T12:01:02.000Z';
      t.ok(alert?.errorMessage?.includes(gap), `the message names the gap: ${alert?.errorMessage}`);
      const hook = await waitFor(
        () => s.hooks.map((h) => JSON.parse(h.body)).find((b) => b.monitorId === s.monitorId),
        { what: 'the missed alert at the webhook' },
      );
      t.match(hook, {
        event: 'missed',
        expectedAt: '2027-03-27T12:01:00.000Z',
        serverGap: { from: '2027-03-27T12:00:58.000Z', to: '2027-03-27T12:01:02.000Z' },
      });
      t.ok(hook.errorMessage.includes(gap));
    });

    t.test('a long gap whose runs come from the spool one by one: no missed alert between them', async (t) => {
      // Found by the false-alert soak (issue 25): each spooled opening set the next deadline from its own old time,
      // already past, and a sweep between two deliveries raised missed for the run the spool was about to deliver.
      const s = await setup(t, kind);
      s.clock.set('2027-03-27T12:00:55.000Z');
      await s.first.server.app.sweeper.sweepNow();
      s.clock.set('2027-03-27T12:00:58.000Z');
      await s.first.server.stop();
      s.clock.set('2027-03-27T12:03:30.000Z');
      const second = await TestServer.on(t, s.first.database, { ...TEST_TIME, clock: s.clock.read });
      await second.server.app.sweeper.sweepNow();
      // The 12:01, 12:02 and 12:03 runs ran while no server answered; the host's flush sends them in order.
      for (const [i, minute] of ['01', '02', '03'].entries()) {
        s.clock.set(`2027-03-27T12:03:4${i}.000Z`);
        const runId = `spooled-${minute}`;
        for (const kind of ['start', 'success'] as const) {
          const timestamp = `2027-03-27T12:${minute}:0${kind === 'start' ? 0 : 2}.000Z`;
          const ping = await second.ping(s.account, s.monitorId, kind, { runId, timestamp });
          t.equal(ping.status, 200);
        }
        t.match(await second.server.app.sweeper.sweepNow(), { missed: 0 }, `no miss after the 12:${minute} run`);
      }
      t.same(await alertsOf(second, s), []);
      const monitor = (await second.request<Monitor>(`/monitors/${s.monitorId}`, { token: s.account.token })).body;
      t.equal(monitor.nextExpectedAt, '2027-03-27T12:04:00.000Z');
    });

    t.test('two servers on one database, one stopped and started again: no gap while the other sweeps', async (t) => {
      const s = await setup(t, kind);
      const other = await TestServer.on(t, s.first.database, { ...TEST_TIME, clock: s.clock.read });
      await other.server.app.sweeper.sweepNow();
      await restartAcrossTheSlot(t, s);
      const gaps = await s.first.query((knex) => knex('settings').where('key', 'last_outage').first());
      t.equal(gaps, undefined, 'the restarted server saw the other one sweeping: no gap');
      s.clock.set('2027-03-27T12:01:06.000Z');
      t.match(await other.server.app.sweeper.sweepNow(), { missed: 1, outage: null }, 'missed at its own deadline');
      const [alert] = await alertsOf(other, s);
      t.notMatch(alert?.errorMessage, /not running/);
      const hook = await waitFor(
        () => s.hooks.map((h) => JSON.parse(h.body)).find((b) => b.monitorId === s.monitorId),
        { what: 'the missed alert at the webhook' },
      );
      t.equal(hook.serverGap, null);
    });

    t.test(
      'a snooze that ended while no server ran: its held alert waits for the spool, which recovers it',
      async (t) => {
        const s = await setup(t, kind);
        const token = s.account.token;
        const held = (await s.first.request<Monitor>('/monitors', { token, body: { name: 'held' } })).body.monitorId;
        const snooze = { snoozedUntil: '2027-03-27T12:10:00.000Z' };
        t.equal((await s.first.request(`/monitors/${held}`, { method: 'PATCH', token, body: snooze })).status, 200);
        s.clock.set('2027-03-27T12:01:00.000Z');
        t.equal((await s.first.ping(s.account, held, 'fail')).status, 200, 'a failure while snoozed: held back');
        s.clock.set('2027-03-27T12:03:00.000Z');
        await s.first.server.app.sweeper.sweepNow();
        await s.first.server.stop();
        // No server from 12:03 to 12:12; the job succeeded at 12:09, in the snooze, and its ping waits in a spool.
        s.clock.set('2027-03-27T12:12:00.000Z');
        const second = await TestServer.on(t, s.first.database, { ...TEST_TIME, clock: s.clock.read });
        await second.server.app.sweeper.sweepNow();
        const heldAlerts = async () =>
          (await second.request<{ alerts: Alert[] }>(`/alerts?monitorId=${held}`, { token })).body.alerts;
        t.same(await heldAlerts(), [], 'the held alert waits out the fresh grace');
        const spooled = { timestamp: '2027-03-27T12:09:00.000Z' };
        t.equal((await second.ping(s.account, held, 'success', spooled)).status, 200);
        t.same(await heldAlerts(), [], 'the recovery of an incident never told is not told either');
        s.clock.set('2027-03-27T12:20:00.000Z');
        await second.server.app.sweeper.sweepNow();
        t.same(await heldAlerts(), [], 'nothing at the end of the fresh grace: it recovered');
      },
    );
  });

  t.test(`a pingmon server killed with SIGKILL across a slot on ${kind}: no missed alert`, async (t) => {
    const setupServer = await TestServer.start(t, kind, { sweepIntervalMs: 3_600_000 });
    const account = await setupServer.account();
    // Only the server processes below sweep.
    await setupServer.server.stop();
    const env = { ...setupServer.database.env, PINGMON_SWEEP_INTERVAL: '0.1', PINGMON_LOG_LEVEL: 'warn' };
    const start = async () => {
      const child = spawnCli(['server', '--port', '0', '--host', '127.0.0.1'], env);
      const exited = finished(child);
      t.teardown(() => child.exitCode === null && child.kill('SIGKILL'));
      const url = (await waitForLine(child, LISTENING))[1]!;
      return { child, exited, url };
    };
    /** When any server last swept (the database-wide heartbeat). */
    const lastSweep = () =>
      setupServer.query(async (knex) => {
        const row = await knex('settings').where('key', 'sweep_heartbeat').first('value');
        return row === undefined ? 0 : Number(row.value);
      });
    const sweeperOf = (pid: number) => setupServer.query((knex) => knex('sweepers').where('pid', pid).first());

    const a = await start();
    const body = { name: 'every 4s', schedule: { every: 4 }, startGrace: 1 };
    const monitor = (await request<Monitor>(`${a.url}/monitors`, { token: account.token, body })).body;
    const slot = Date.parse(monitor.nextExpectedAt!);
    const created = Date.now();
    await waitFor(async () => (await lastSweep()) > created, { what: 'the first server to sweep' });
    a.child.kill('SIGKILL');
    await a.exited;
    // The slot and its deadline (1s later) pass with no server running.
    await waitFor(() => Date.now() > slot + 1_500, { what: 'the deadline to pass' });
    const restarted = Date.now();
    const b = await start();
    await waitFor(async () => (await lastSweep()) > restarted, { what: 'the new server to sweep' });
    const spooled = { timestamp: new Date(slot + 300).toISOString() };
    const ping = await request(`${b.url}/ping/${monitor.monitorId}/success`, { apiKey: account.apiKey, body: spooled });
    t.equal(ping.status, 200, ping.text);
    const pingedAt = Date.now();
    await waitFor(async () => (await lastSweep()) > pingedAt + 500, {
      what: 'the new server to sweep a few times more',
    });
    const alerts = (await request<{ alerts: Alert[] }>(`${b.url}/alerts`, { token: account.token })).body.alerts;
    const falseAlarm = alerts.filter((x) => x.event === 'missed' && x.expectedAt === new Date(slot).toISOString());
    t.same(falseAlarm, [], 'the slot that fell while no server ran raised nothing');
    const killed = await sweeperOf(a.child.pid!);
    t.equal(Number(killed.stopped_at), Number(killed.beat_at), 'the killed one counts as stopped at its last sweep');
    b.child.kill('SIGTERM');
    const { code, stdout } = await b.exited;
    t.equal(code, 0);
    t.match(stdout, /no pingmon server swept from /, 'the gap is logged');
  });
}
