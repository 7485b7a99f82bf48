import { spawn } from 'node:child_process';
import t from 'tap';
import type { Alert, Monitor } from '@pingmon/sdk';
import { TestClock } from '../helpers/clock.js';
import { CLI } from '../helpers/cli.js';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { TestServer } from '../helpers/server.js';
import { waitFor } from '../helpers/wait.js';
import { startOnTestTime as setup, TEST_TIME } from '../helpers/test-time.js';
import type { OnTestTime as Setup } from '../helpers/test-time.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

async function createMonitor(s: Setup, body: object): Promise<Monitor> {
  const reply = await s.api.request<Monitor>('/monitors', { token: s.account.token, body: { name: 'job', ...body } });
  if (reply.status !== 201) throw new Error(`creating a monitor failed: ${reply.text}`);
  return reply.body;
}

const getMonitor = async (s: Setup, id: string) =>
  (await s.api.request<Monitor>(`/monitors/${id}`, { token: s.account.token })).body;

const alertsOf = async (s: Setup, monitorId: string) =>
  (await s.api.request<{ alerts: Alert[] }>(`/alerts?monitorId=${monitorId}`, { token: s.account.token })).body.alerts;

const sweep = (s: Setup) => s.api.server.app.sweeper.sweepNow();

/**
 * The webhook bodies received for this monitor, once `count` of them have come and the server has recorded each
 * delivery: a test that moves the clock on while a delivery is still leased would see it sent again.
 */
async function hooksFor(s: Setup, monitorId: string, count: number) {
  const hooks = await waitFor(
    () => {
      const mine = s.hooks.map((h) => JSON.parse(h.body)).filter((b) => b.monitorId === monitorId);
      return mine.length >= count ? mine : undefined;
    },
    { what: `${count} webhook(s) for ${monitorId}` },
  );
  await waitFor(
    async () => {
      const alerts = await alertsOf(s, monitorId);
      return alerts.every((a) => a.deliveries.every((d) => d.state !== 'pending')) || undefined;
    },
    { what: `the deliveries of ${monitorId}'s alerts recorded` },
  );
  return hooks;
}

t.test('bad schedules and settings are 400 invalid_schedule, naming the field and what to do', async (t) => {
  const s = await setup(t, 'sqlite');
  const bad = async (body: object, message: RegExp, code = 'invalid_schedule') => {
    const reply = await s.api.request('/monitors', { token: s.account.token, body: { name: 'x', ...body } });
    t.equal(reply.status, 400, JSON.stringify(body));
    t.match(reply.body, { code, message });
  };
  await bad({ schedule: { cron: '0 3 * *' } }, /^schedule\.cron: "0 3 \* \*" has 4 field\(s\); use 5/);
  await bad({ schedule: { cron: '0 25 * * *' } }, /^schedule\.cron: .*cannot be read: .*25/);
  await bad(
    { schedule: { cron: '0 3 * * *', timezone: 'Europe/Berln' } },
    /unknown timezone "Europe\/Berln"; use an IANA/,
  );
  await bad({ schedule: { cron: '0 3 * * *', tz: 'Europe/Berlin' } }, /"schedule.tz" is not a schedule field/);
  await bad({ schedule: { cron: '0 3 * * *', every: 60 } }, /give cron or every, not both/);
  await bad({ schedule: { every: 60, timezone: 'UTC' } }, /timezone goes with cron only/);
  await bad({ schedule: { every: 0 } }, /^schedule\.every must be a whole number of seconds from 1/);
  await bad({ schedule: '0 3 * * *' }, /^schedule must be \{"cron": "0 3 \* \* \*", "timezone": "Europe\/Berlin"\}/);
  await bad({ startGrace: 0 }, /^startGrace must be a whole number of seconds from 1 to 2678400 \(got 0\)/);
  await bad({ maxRuntime: 1.5 }, /^maxRuntime must be a whole number of seconds/);
  await bad({ failureThreshold: 0 }, /^failureThreshold must be a whole number from 1 to 100/);
  await bad({ renotifyAfter: 10 }, /^renotifyAfter must be a whole number of seconds from 60/);
  await bad({ paused: 'yes' }, /^paused must be true or false/);
  await bad({ failAlerts: 'once' }, /^failAlerts must be "every" \(each failed run alerts\) or "first"/);
  await bad({ name: '' }, /name/, 'invalid_request');
  const m = await createMonitor(s, {});
  const patch = await s.api.request(`/monitors/${m.monitorId}`, {
    method: 'PATCH',
    token: s.account.token,
    body: { schedule: { cron: 'every day' } },
  });
  t.match(patch, { status: 400, body: { code: 'invalid_schedule', message: /^schedule\.cron: "every day" has 2/ } });
  t.same((await getMonitor(s, m.monitorId)).schedule, null, 'nothing was changed');
});

t.test('a cron schedule in a timezone: settings, status, next expected times', async (t) => {
  const clock = new TestClock(Date.parse('2027-03-27T12:00:00Z'));
  const s = await setup(t, 'sqlite', clock);
  const m = await createMonitor(s, {
    schedule: { cron: '0 3 * * *', timezone: 'Europe/Berlin' },
    startGrace: 600,
    maxRuntime: 7200,
    failureThreshold: 2,
  });
  t.match(m, {
    schedule: { cron: '0 3 * * *', timezone: 'Europe/Berlin' },
    startGrace: 600,
    maxRuntime: 7200,
    failureThreshold: 2,
    recoveryThreshold: 1,
    renotifyAfter: null,
    paused: false,
    status: 'new',
    nextExpectedAt: '2027-03-28T01:00:00.000Z',
    incident: null,
  });
  const expected = await s.api.request(`/monitors/${m.monitorId}/expected?count=3`, { token: s.account.token });
  t.same(expected.body, {
    timezone: 'Europe/Berlin',
    times: [
      { at: '2027-03-28T01:00:00.000Z', local: '2027-03-28T03:00:00+02:00', zone: 'CEST' },
      { at: '2027-03-29T01:00:00.000Z', local: '2027-03-29T03:00:00+02:00', zone: 'CEST' },
      { at: '2027-03-30T01:00:00.000Z', local: '2027-03-30T03:00:00+02:00', zone: 'CEST' },
    ],
  });
  const utc = await createMonitor(s, { schedule: { cron: '0 3 * * *' } });
  t.same(utc.schedule, { cron: '0 3 * * *', timezone: 'UTC' }, 'UTC when the timezone is left out');
  const plain = await createMonitor(s, {});
  const none = await s.api.request(`/monitors/${plain.monitorId}/expected`, { token: s.account.token });
  t.same(none.body, { timezone: 'UTC', times: [] }, 'no schedule, nothing expected');
  clock.set('2027-03-28T01:00:01Z');
  t.equal((await getMonitor(s, m.monitorId)).status, 'late', 'past 03:00 CEST with no run, in its grace');
  const changed = await s.api.request<Monitor>(`/monitors/${m.monitorId}`, {
    method: 'PATCH',
    token: s.account.token,
    body: { schedule: { every: 3600 }, maxRuntime: null },
  });
  t.match(changed.body, { schedule: { every: 3600 }, maxRuntime: null, nextExpectedAt: '2027-03-28T02:00:01.000Z' });
  t.equal(changed.body.status, 'new', 'a new schedule is expected from now on');
});

for (const kind of DATABASE_KINDS) {
  t.test(`schedules and incidents on ${kind}`, async (t) => {
    t.test('missed → down (one alert per incident) → recovered', async (t) => {
      const s = await setup(t, kind);
      const m = await createMonitor(s, { schedule: { every: 600 }, startGrace: 60 });
      const t0 = Date.parse(m.createdAt);
      s.clock.advance(10 * MINUTE + 30_000);
      t.equal((await getMonitor(s, m.monitorId)).status, 'late');
      t.match(await sweep(s), { missed: 0 }, 'still within the grace');
      s.clock.advance(31_000);
      t.match(await sweep(s), { missed: 1 });
      const down = await getMonitor(s, m.monitorId);
      t.match(down, {
        status: 'down',
        incident: { cause: 'missed' },
        nextExpectedAt: new Date(t0 + 20 * MINUTE).toISOString(),
      });
      const [hook] = await hooksFor(s, m.monitorId, 1);
      t.match(hook, {
        event: 'missed',
        monitorId: m.monitorId,
        monitorName: 'job',
        runId: null,
        status: 'down',
        expectedAt: new Date(t0 + 10 * MINUTE).toISOString(),
        errorMessage: /^No run started by .*: one was expected at .* \(startGrace 1m\)\. It has never run\.$/,
        lastRunAt: null,
        lastRunStatus: null,
      });
      s.clock.advance(30 * MINUTE);
      t.match(await sweep(s), { missed: 1 }, 'the next slots are missed too…');
      t.equal((await alertsOf(s, m.monitorId)).length, 1, '…but the incident has its alert already');
      const start = await s.api.ping(s.account, m.monitorId, 'start', { runId: 'run-after-incident' });
      t.equal(start.status, 200);
      t.equal((await getMonitor(s, m.monitorId)).status, 'down', 'a start alone does not recover');
      s.clock.advance(5_000);
      await s.api.ping(s.account, m.monitorId, 'success', { runId: 'run-after-incident' });
      const up = await getMonitor(s, m.monitorId);
      t.match(up, { status: 'up', incident: null });
      const [, recovered] = await hooksFor(s, m.monitorId, 2);
      t.match(recovered, {
        event: 'recovered',
        runId: 'run-after-incident',
        status: 'up',
        errorMessage: 'Up again: 4 missed runs, down 30m5s.',
      });
      t.same(
        (await alertsOf(s, m.monitorId)).map((a) => a.event),
        ['recovered', 'missed'],
      );
    });

    t.test('a missed alert names the expected time and the last run, in words and in fields', async (t) => {
      const s = await setup(t, kind, new TestClock(Date.parse('2027-03-27T01:00:00.000Z')));
      const m = await createMonitor(s, {
        schedule: { cron: '0 3 * * *', timezone: 'Europe/Berlin' },
        startGrace: 300,
      });
      // The 03:00 run of 27 March 2027 (CET), then none the next night (CEST).
      s.clock.set('2027-03-27T02:00:00.000Z');
      await s.api.ping(s.account, m.monitorId, 'start', { runId: 'the-last-run-0001' });
      s.clock.advance(90_000);
      await s.api.ping(s.account, m.monitorId, 'success', { runId: 'the-last-run-0001' });
      // Swept every hour, as a running server does: no gap that would look like an outage of pingmon.
      const missedAt = Date.parse('2027-03-28T01:05:01.000Z');
      while (s.clock.now < missedAt) {
        s.clock.now = Math.min(missedAt, s.clock.now + HOUR);
        t.match(await sweep(s), { missed: s.clock.now === missedAt ? 1 : 0 });
      }
      const [hook] = await hooksFor(s, m.monitorId, 1);
      t.match(hook, {
        event: 'missed',
        expectedAt: '2027-03-28T01:00:00.000Z',
        lastRunAt: '2027-03-27T02:00:00.000Z',
        lastRunStatus: 'success',
        logTail: null,
        errorMessage:
          'No run started by 2027-03-28T01:05:00.000Z: one was expected at 2027-03-28 03:00 CEST (01:00 UTC) ' +
          '(startGrace 5m). Last run: started 2027-03-27 03:00 CET (02:00 UTC), succeeded.',
      });
      const [alert] = await alertsOf(s, m.monitorId);
      t.match(alert, { lastRunAt: '2027-03-27T02:00:00.000Z', lastRunStatus: 'success', logTail: null });
    });

    t.test('a run past maxRuntime is finished as failed, once; a late result changes nothing', async (t) => {
      const s = await setup(t, kind);
      const m = await createMonitor(s, { maxRuntime: 3600 });
      await s.api.ping(s.account, m.monitorId, 'start', { runId: 'long-running-run' });
      s.clock.advance(HOUR - 1);
      t.match(await sweep(s), { timedOut: 0 });
      s.clock.advance(2);
      t.match(await sweep(s), { timedOut: 1 });
      t.match(await sweep(s), { timedOut: 0 }, 'only once');
      const run = await s.api.request(`/monitors/${m.monitorId}/runs/long-running-run`, { token: s.account.token });
      t.match(run.body, { status: 'failed', errorMessage: 'no result within maxRuntime (1h)', durationMs: HOUR + 1 });
      t.match(await getMonitor(s, m.monitorId), { status: 'down', incident: { cause: 'timed_out' } });
      const [hook] = await hooksFor(s, m.monitorId, 1);
      t.match(hook, { event: 'timed_out', runId: 'long-running-run', status: 'failed' });
      const late = await s.api.ping(s.account, m.monitorId, 'success', { runId: 'long-running-run' });
      t.match(late, { status: 200, body: { data: { runId: 'long-running-run', status: 'failed' } } });
      t.equal((await getMonitor(s, m.monitorId)).status, 'down', 'the late success was acknowledged, not recorded');
      t.equal((await alertsOf(s, m.monitorId)).length, 1);
    });

    t.test('a SIGKILLed `pingmon run` leaves its run running: maxRuntime finishes it and alerts', async (t) => {
      const s = await setup(t, kind);
      const m = await createMonitor(s, { maxRuntime: 120 });
      // Its own process group, so that the wrapper and its job can be killed together, as a host's OOM killer might.
      const wrapper = spawn(process.execPath, [CLI, 'run', '--monitor', m.monitorId, '--', 'sleep', '60'], {
        env: { ...process.env, PINGMON_URL: s.api.url, PINGMON_API_KEY: s.account.apiKey },
        stdio: 'ignore',
        detached: true,
      });
      const exited = new Promise((resolve) => wrapper.on('exit', resolve));
      const runId = await waitFor(
        async () =>
          (await getMonitor(s, m.monitorId)).lastRun?.status === 'running' &&
          (await getMonitor(s, m.monitorId)).lastRun!.runId,
        { what: 'the wrapped job to be running' },
      );
      process.kill(-wrapper.pid!, 'SIGKILL');
      await exited;
      t.equal((await getMonitor(s, m.monitorId)).status, 'running', 'nothing will report this run again');
      s.clock.advance(121_000);
      t.match(await sweep(s), { timedOut: 1 });
      const run = await s.api.request(`/monitors/${m.monitorId}/runs/${runId}`, { token: s.account.token });
      t.match(run.body, { status: 'failed', errorMessage: 'no result within maxRuntime (2m)' });
      const [hook] = await hooksFor(s, m.monitorId, 1);
      t.match(hook, { event: 'timed_out', runId, errorMessage: 'no result within maxRuntime (2m)' });
    });

    t.test('thresholds: two failures to go down, two successes to come back', async (t) => {
      const s = await setup(t, kind);
      const m = await createMonitor(s, { failureThreshold: 2, recoveryThreshold: 2 });
      const ping = (kind: 'success' | 'fail') => s.api.ping(s.account, m.monitorId, kind, {});
      await ping('fail');
      t.match(await getMonitor(s, m.monitorId), { status: 'up', incident: null });
      t.equal((await alertsOf(s, m.monitorId)).length, 0, 'one failure: no alert yet');
      await ping('fail');
      t.match(await getMonitor(s, m.monitorId), { status: 'down', incident: { cause: 'fail' } });
      await ping('fail');
      await ping('success');
      t.equal((await getMonitor(s, m.monitorId)).status, 'down');
      await ping('success');
      t.equal((await getMonitor(s, m.monitorId)).status, 'up');
      t.same(
        (await alertsOf(s, m.monitorId)).map((a) => a.event),
        ['recovered', 'fail', 'fail'],
      );
    });

    t.test('pause and resume: a paused monitor raises nothing, its pings are still recorded', async (t) => {
      const s = await setup(t, kind);
      const m = await createMonitor(s, { schedule: { every: 600 }, startGrace: 60, maxRuntime: 60 });
      await s.api.ping(s.account, m.monitorId, 'start', { runId: 'run-before-pause' });
      const paused = await s.api.request<Monitor>(`/monitors/${m.monitorId}`, {
        method: 'PATCH',
        token: s.account.token,
        body: { paused: true },
      });
      t.match(paused.body, { paused: true, status: 'paused', nextExpectedAt: null });
      s.clock.advance(2 * HOUR);
      t.match(await sweep(s), { missed: 0, timedOut: 0 });
      const fail = await s.api.ping(s.account, m.monitorId, 'fail', {
        runId: 'run-while-paused',
        errorMessage: 'boom',
      });
      t.match(fail.body, { data: { status: 'failed' } }, 'the ping is recorded');
      t.equal((await alertsOf(s, m.monitorId)).length, 0, 'and raises nothing');
      const resumed = await s.api.request<Monitor>(`/monitors/${m.monitorId}`, {
        method: 'PATCH',
        token: s.account.token,
        body: { paused: false },
      });
      t.match(resumed.body, {
        paused: false,
        status: 'up',
        incident: null,
        nextExpectedAt: new Date(s.clock.now + 10 * MINUTE).toISOString(),
      });
      t.match(await sweep(s), { timedOut: 1 }, 'the run open since before the pause gets its deadline back');
      s.clock.advance(11 * MINUTE);
      t.match(await sweep(s), { missed: 1 });
      t.same(
        (await alertsOf(s, m.monitorId)).map((a) => a.event),
        ['timed_out'],
        'the timed-out run opened the incident: the missed slot after it raises nothing more',
      );
    });

    t.test('reminders while down (renotifyAfter)', async (t) => {
      const s = await setup(t, kind);
      const m = await createMonitor(s, { renotifyAfter: 3600 });
      await s.api.ping(s.account, m.monitorId, 'fail', {});
      s.clock.advance(HOUR - 1);
      t.match(await sweep(s), { reminded: 0 });
      s.clock.advance(1);
      t.match(await sweep(s), { reminded: 1 });
      s.clock.advance(HOUR);
      t.match(await sweep(s), { reminded: 1 });
      const alerts = await alertsOf(s, m.monitorId);
      t.same(
        alerts.map((a) => a.event),
        ['still_down', 'still_down', 'fail'],
      );
      t.match(alerts[0], {
        runId: null,
        status: 'down',
        errorMessage: /^Still down: 1 failed run, down 2h \(since .*, a run failed\)\.$/,
      });
      await s.api.ping(s.account, m.monitorId, 'success', {});
      s.clock.advance(2 * HOUR);
      t.match(await sweep(s), { reminded: 0 }, 'no reminder once recovered');
    });

    t.test('a slow-run rule on the built-in durationMs', async (t) => {
      const s = await setup(t, kind);
      const m = await createMonitor(s, {});
      const rule = await s.api.request(`/monitors/${m.monitorId}/rules`, {
        token: s.account.token,
        body: { metric: 'durationMs', op: 'gt', value: 3_600_000 },
      });
      t.equal(rule.status, 201, rule.text);
      await s.api.ping(s.account, m.monitorId, 'start', { runId: 'quick-run-1' });
      s.clock.advance(MINUTE);
      await s.api.ping(s.account, m.monitorId, 'success', { runId: 'quick-run-1' });
      await s.api.ping(s.account, m.monitorId, 'start', { runId: 'slow-run-01' });
      s.clock.advance(2 * HOUR);
      const slow = await s.api.ping(s.account, m.monitorId, 'success', { runId: 'slow-run-01', meta: { rows: 5 } });
      t.equal(slow.status, 200);
      const alerts = await alertsOf(s, m.monitorId);
      t.equal(alerts.length, 1);
      t.match(alerts[0], {
        event: 'silent_failure',
        runId: 'slow-run-01',
        matchedRules: [{ metric: 'durationMs', op: 'gt', value: 3_600_000, actual: 2 * HOUR }],
      });
    });

    t.test('a restart after pingmon was down: no burst, a fresh grace, and the alert says why', async (t) => {
      const clock = new TestClock();
      const first = await TestServer.start(t, kind, { ...TEST_TIME, clock: clock.read });
      const account = await first.account();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const reply = await first.request<Monitor>('/monitors', {
          token: account.token,
          body: { name: `job ${i}`, schedule: { every: 600 }, startGrace: 60 },
        });
        ids.push(reply.body.monitorId);
      }
      await first.server.app.sweeper.sweepNow();
      await first.server.stop();
      const stoppedAt = clock.now;
      clock.advance(5 * HOUR);
      const second = await TestServer.on(t, first.database, { ...TEST_TIME, clock: clock.read });
      const result = await second.server.app.sweeper.sweepNow();
      t.equal(result.missed, 0, 'no burst of missed alerts at the restart');
      const alerts = async () =>
        (await second.request<{ alerts: Alert[] }>('/alerts', { token: account.token })).body.alerts;
      t.same(await alerts(), []);
      const late = await second.request<Monitor>(`/monitors/${ids[0]}`, { token: account.token });
      t.equal(late.body.status, 'late', 'each one gets its grace again from the restart');
      clock.advance(61_000);
      t.match(await second.server.app.sweeper.sweepNow(), { missed: 0 }, 'a startGrace of 60s gets two minutes');
      clock.advance(60_000);
      t.match(await second.server.app.sweeper.sweepNow(), { missed: 5 });
      const raised = await alerts();
      t.equal(raised.length, 5, 'then one missed alert each, no duplicate');
      t.equal(new Set(raised.map((a) => a.monitorId)).size, 5);
      t.match(raised[0]!.errorMessage, /pingmon was not running \(or could not reach its database\) from /);
      t.ok(raised[0]!.errorMessage!.includes(new Date(stoppedAt).toISOString()), 'from when it stopped');
    });

    t.test(
      'a restart after an outage longer than 31 days moves deadlines by the longest grace (31 days)',
      async (t) => {
        const DAY = 24 * HOUR;
        const grace = 31 * 86_400; // the largest startGrace: in milliseconds beyond a 32-bit integer
        const clock = new TestClock();
        const first = await TestServer.start(t, kind, { ...TEST_TIME, clock: clock.read });
        const account = await first.account();
        const create = async (body: object) =>
          (await first.request<Monitor>('/monitors', { token: account.token, body: { name: 'job', ...body } })).body;
        const scheduled = await create({ schedule: { every: 600 }, startGrace: grace });
        const running = await create({ maxRuntime: 600, startGrace: grace });
        t.equal((await first.ping(account, running.monitorId, 'start', { runId: 'long-run-01' })).status, 200);
        await first.server.app.sweeper.sweepNow();
        await first.server.stop();
        clock.advance(32 * DAY);
        const second = await TestServer.on(t, first.database, { ...TEST_TIME, clock: clock.read });
        const restartedAt = clock.now;
        t.match(await second.server.app.sweeper.sweepNow(), { missed: 0, timedOut: 0 }, 'the restart sweeps');
        const stored = await second.query(async (knex) => ({
          missedAt: (await knex('monitors').where('id', scheduled.monitorId).first('missed_at')).missed_at,
          timeoutAt: (await knex('runs').where('id', 'long-run-01').first('timeout_at')).timeout_at,
        }));
        t.equal(Number(stored.missedAt), restartedAt + grace * 1000, 'the expected run gets 31 days from the restart');
        t.equal(Number(stored.timeoutAt), restartedAt + grace * 1000, 'so does the running one');
      },
    );

    t.test('two servers on one database sweep together: each alert exactly once', async (t) => {
      const clock = new TestClock();
      const a = await TestServer.start(t, kind, { ...TEST_TIME, clock: clock.read });
      const b = await TestServer.on(t, a.database, { ...TEST_TIME, clock: clock.read });
      const account = await a.account();
      const scheduled: string[] = [];
      const running: string[] = [];
      for (let i = 0; i < 20; i++) {
        const create = async (body: object) =>
          (await a.request<Monitor>('/monitors', { token: account.token, body: { name: `job ${i}`, ...body } })).body
            .monitorId;
        scheduled.push(await create({ schedule: { every: 600 }, startGrace: 60 }));
        running.push(await create({ maxRuntime: 300 }));
      }
      for (const id of running) await a.ping(account, id, 'start', { runId: `run-of-${id}` });
      clock.advance(11 * MINUTE);
      // Both servers sweep at once, twice each, and again until nothing is left: a row one server holds is
      // skipped by the other (PostgreSQL) and taken by a later sweep, never by two.
      let missed = 0;
      let timedOut = 0;
      for (let round = 0; round < 10; round++) {
        const results = await Promise.all([a, b, a, b].map((server) => server.server.app.sweeper.sweepNow()));
        const handled = results.reduce((n, r) => n + r.missed + r.timedOut, 0);
        missed += results.reduce((n, r) => n + r.missed, 0);
        timedOut += results.reduce((n, r) => n + r.timedOut, 0);
        if (handled === 0) break;
      }
      t.equal(missed, 20, 'each scheduled monitor missed its opening once');
      t.equal(timedOut, 20, 'each open run timed out once');
      const alerts = (await a.request<{ alerts: Alert[] }>('/alerts?limit=100', { token: account.token })).body.alerts;
      t.equal(alerts.length, 40);
      t.equal(new Set(alerts.map((x) => `${x.monitorId} ${x.event}`)).size, 40, 'no duplicate');
    });
  });
}
