import { hostname } from 'node:os';
import t from 'tap';
import type { Test } from 'tap';
import type { Alert, Monitor, Run, RunList } from '@pingmon/sdk';
import { pingmon } from '../helpers/cli.js';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { json, startReceiver } from '../helpers/receiver.js';
import type { Received } from '../helpers/receiver.js';
import { TestServer } from '../helpers/server.js';
import { waitFor } from '../helpers/wait.js';
import { startOnTestTime as setup } from '../helpers/test-time.js';
import type { OnTestTime as Setup } from '../helpers/test-time.js';

// Issue 25, point 3 (docs/alerts.md#one-alert-per-problem): failAlerts first, the incident's counts in its reminders
// and recovery, the host of a run, and one message for the missed monitors of one host.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** A webhook channel on a local receiver; answers what it receives. */
async function channel(s: Pick<Setup, 'api' | 'account'>, t: Test, fields: object): Promise<Received[]> {
  const receiver = await startReceiver(t, (_req, _n, res) => json(res, 200, {}));
  const reply = await s.api.request('/channels', {
    token: s.account.token,
    body: { type: 'webhook', url: `${receiver.url}/hook`, ...fields },
  });
  t.equal(reply.status, 201, reply.text);
  return receiver.received;
}

async function createMonitor(s: Setup, body: object): Promise<Monitor> {
  const reply = await s.api.request<Monitor>('/monitors', { token: s.account.token, body: { name: 'job', ...body } });
  if (reply.status !== 201) throw new Error(`creating a monitor failed: ${reply.text}`);
  return reply.body;
}

const getMonitor = async (s: Setup, id: string) =>
  (await s.api.request<Monitor>(`/monitors/${id}`, { token: s.account.token })).body;

const alertsOf = async (s: Setup, monitorId?: string) =>
  (
    await s.api.request<{ alerts: Alert[] }>(`/alerts${monitorId ? `?monitorId=${monitorId}` : ''}`, {
      token: s.account.token,
    })
  ).body.alerts;

const sweep = (s: Setup) => s.api.server.app.sweeper.sweepNow();

type Hook = Record<string, unknown> & { event: string; monitorId: string; errorMessage: string };

/**
 * The webhook bodies received, once `count` of them have come. Test time moves on meanwhile, so that the delivery
 * worker polls (on a frozen clock it only claims when nudged, and a nudge can come while the delivery before, to the
 * same channel, is still in flight).
 */
function hooks(s: Setup, received: Received[], count: number, what: string): Promise<Hook[]> {
  return waitFor(
    () => {
      s.clock.advance(100);
      const bodies = received.map((h) => JSON.parse(h.body) as Hook);
      return bodies.length >= count ? bodies : undefined;
    },
    { what: `${count} webhook(s): ${what}` },
  );
}

/** A ping from `host`: start and success of one run. */
async function runOn(s: Setup, monitorId: string, host: string | undefined, runId: string): Promise<void> {
  for (const kind of ['start', 'success'] as const) {
    const reply = await s.api.ping(s.account, monitorId, kind, { runId, host });
    if (reply.status !== 200) throw new Error(`${kind} failed: ${reply.text}`);
  }
}

for (const kind of DATABASE_KINDS) {
  t.test(`one alert per problem on ${kind}`, async (t) => {
    t.test('failAlerts first: three failures, one fail alert; the reminder and the recovery count them', async (t) => {
      const s = await setup(t, kind);
      const m = await createMonitor(s, { failAlerts: 'first', renotifyAfter: 3600 });
      t.equal(m.failAlerts, 'first');
      for (let i = 0; i < 3; i++) {
        const reply = await s.api.ping(s.account, m.monitorId, 'fail', { errorMessage: `exit code ${i + 1}` });
        t.equal(reply.status, 200, 'every failure is recorded');
        s.clock.advance(MINUTE);
      }
      t.same(
        (await alertsOf(s, m.monitorId)).map((a) => a.event),
        ['fail'],
        'only the failure that opened the incident alerted',
      );
      // Its delivery ends before test time jumps an hour: a lease read on a clock that jumped looks expired, and the
      // worker would send the alert again.
      await waitFor(
        async () => {
          s.clock.advance(100);
          const alerts = await alertsOf(s, m.monitorId);
          return alerts.every((a) => a.deliveries.every((d) => d.state === 'delivered')) ? alerts : undefined;
        },
        { what: 'the fail alert delivered' },
      );
      const down = await getMonitor(s, m.monitorId);
      t.match(down, { status: 'down', incident: { cause: 'fail', failedRuns: 3, missedRuns: 0 } });
      t.equal(down.recentRuns.failed, 3);
      s.clock.set(new Date(Date.parse(down.incident!.openedAt) + HOUR).toISOString());
      t.match(await sweep(s), { reminded: 1 });
      s.clock.advance(12 * MINUTE);
      await s.api.ping(s.account, m.monitorId, 'success', {});
      const sent = await hooks(s, s.hooks, 3, 'fail, still_down, recovered');
      const [fail, reminder, recovered] = ['fail', 'still_down', 'recovered'].map((e) =>
        sent.find((h) => h.event === e),
      );
      t.match(fail, { event: 'fail', errorMessage: 'exit code 1' });
      t.match(reminder, {
        event: 'still_down',
        errorMessage: /^Still down: 3 failed runs, down 1h \(since .*, a run failed\)\.$/,
      });
      t.match(recovered, { event: 'recovered', errorMessage: 'Up again: 3 failed runs, down 1h12m.' });
      t.equal(s.hooks.length, 3, 'nothing else was sent');
    });

    t.test('the default: every failed run alerts, as SPEC §6 says', async (t) => {
      const s = await setup(t, kind);
      const m = await createMonitor(s, {});
      t.equal(m.failAlerts, 'every');
      for (let i = 0; i < 3; i++) {
        await s.api.ping(s.account, m.monitorId, 'fail', { errorMessage: `exit code ${i + 1}` });
        s.clock.advance(MINUTE);
      }
      const sent = await hooks(s, s.hooks, 3, 'three fail alerts');
      t.same(sent.map((h) => [h.event, h.errorMessage]).sort(), [
        ['fail', 'exit code 1'],
        ['fail', 'exit code 2'],
        ['fail', 'exit code 3'],
      ]);
      t.match(await getMonitor(s, m.monitorId), { incident: { failedRuns: 3 } });
      const changed = await s.api.request<Monitor>(`/monitors/${m.monitorId}`, {
        method: 'PATCH',
        token: s.account.token,
        body: { failAlerts: 'first' },
      });
      t.match(changed.body, { failAlerts: 'first', incident: { failedRuns: 3 } }, 'a change keeps the incident');
      await s.api.ping(s.account, m.monitorId, 'fail', { errorMessage: 'exit code 4' });
      t.equal((await alertsOf(s, m.monitorId)).length, 3, 'now the fourth failure, while down, is only counted');
    });

    t.test('monitors whose last runs came from one host, missed in one sweep: one message per channel', async (t) => {
      const s = await setup(t, kind);
      const schedule = { schedule: { every: 600 }, startGrace: 60 };
      const web = [];
      for (const name of ['backup', 'reports', 'cleanup']) web.push(await createMonitor(s, { name, ...schedule }));
      const db1 = await createMonitor(s, { name: 'vacuum', ...schedule });
      const db2 = await createMonitor(s, { name: 'reindex', ...schedule });
      const unnamed = await createMonitor(s, { name: 'curl job', ...schedule });
      // A channel that takes the alerts of one of the three only.
      const restricted = await channel(s, t, { name: 'reports only', monitorIds: [web[1]!.monitorId] });
      for (const [i, m] of web.entries()) await runOn(s, m.monitorId, 'web-1', `web-run-${i}-0001`);
      await runOn(s, db1.monitorId, 'db-1', 'db1-run-0001');
      await runOn(s, db2.monitorId, 'db-2', 'db2-run-0001');
      await runOn(s, unnamed.monitorId, undefined, 'curl-run-0001');
      s.clock.advance(11 * MINUTE + 1_000);
      t.match(await sweep(s), { missed: 6 });
      for (const m of [...web, db1, db2, unnamed]) {
        t.match(await getMonitor(s, m.monitorId), { status: 'down', incident: { cause: 'missed' } }, m.name);
      }
      const sent = await hooks(s, s.hooks, 4, 'web-1 grouped, db-1, db-2 and the job without host');
      const grouped = sent.filter((h) => h.host === 'web-1');
      t.equal(grouped.length, 1, 'one message for the three monitors of web-1');
      t.match(grouped[0], {
        event: 'missed',
        host: 'web-1',
        monitors: web.map((m) => ({ monitorId: m.monitorId, monitorName: m.name, errorMessage: /^No run started/ })),
      });
      t.equal((grouped[0]!.monitors as unknown[]).length, 3);
      for (const [m, host] of [
        [db1, 'db-1'],
        [db2, 'db-2'],
        [unnamed, null],
      ] as const) {
        const own = sent.filter((h) => h.monitorId === m.monitorId);
        t.equal(own.length, 1, `monitors on other hosts alert apart: ${m.name}`);
        t.match(own[0], { event: 'missed', host, monitors: [{ monitorId: m.monitorId }] });
      }
      const [onlyReports] = await hooks(s, restricted, 1, 'the restricted channel');
      t.match(onlyReports, {
        event: 'missed',
        monitorId: web[1]!.monitorId,
        host: 'web-1',
        monitors: [{ monitorId: web[1]!.monitorId }],
      });
      t.equal(restricted.length, 1, 'the restricted channel is told of its monitor only, once');
      const alerts = (await alertsOf(s)).filter((a) => a.host === 'web-1');
      t.equal(alerts.length, 3, 'each monitor has its own alert');
      const lead = alerts.find((a) => a.groupId === a.alertId)!;
      t.ok(lead, 'one of them carries the message');
      t.ok(
        alerts.every((a) => a.groupId === lead.alertId),
        'all three name it',
      );
      t.equal(lead.deliveries.length, 2, 'its message went to both channels');
      t.same(
        alerts.filter((a) => a !== lead).map((a) => a.deliveries.length),
        [0, 0],
      );
      t.equal(s.hooks.length, 4, 'nothing else was sent');
    });

    t.test('the host of a run: stored from the ping that opened it, shown on the run, checked', async (t) => {
      const s = await setup(t, kind);
      const m = await createMonitor(s, {});
      await s.api.ping(s.account, m.monitorId, 'start', { runId: 'hosted-run-1', host: 'web-1.example.com' });
      await s.api.ping(s.account, m.monitorId, 'success', { runId: 'hosted-run-1', host: 'elsewhere' });
      // Each run a second apart: the list's order is the runs' starts, not their ids.
      s.clock.advance(1_000);
      await s.api.ping(s.account, m.monitorId, 'fail', { host: 'web-2' });
      s.clock.advance(1_000);
      await s.api.ping(s.account, m.monitorId, 'success', {});
      const run = await s.api.request<Run>(`/monitors/${m.monitorId}/runs/hosted-run-1`, { token: s.account.token });
      t.match(run.body, { status: 'success', host: 'web-1.example.com' });
      const list = await s.api.request<RunList>(`/monitors/${m.monitorId}/runs`, { token: s.account.token });
      t.same(
        list.body.runs.map((r) => r.host),
        [null, 'web-2', 'web-1.example.com'],
      );
      for (const host of [42, 'x'.repeat(256), 'web-1\u001b[31m']) {
        const bad = await s.api.ping(s.account, m.monitorId, 'start', { host });
        t.match(bad, {
          status: 400,
          body: { code: 'invalid_host', message: /^host must be the name of the job's host/ },
        });
      }
      const longest = await s.api.ping(s.account, m.monitorId, 'fail', { host: 'h'.repeat(255) });
      t.equal(longest.status, 200, '255 characters are fine');
    });
  });
}

t.test('`pingmon run` sends the name of its host with the run', async (t) => {
  const api = await TestServer.start(t, 'sqlite');
  const account = await api.account();
  const monitorId = await api.monitor(account, 'wrapped job');
  const run = await pingmon(['run', '--monitor', monitorId, '--', 'sh', '-c', 'exit 3'], {
    PINGMON_URL: api.url,
    PINGMON_API_KEY: account.apiKey,
  });
  t.equal(run.code, 3, run.stderr);
  const list = await api.request<RunList>(`/monitors/${monitorId}/runs`, { token: account.token });
  t.match(list.body.runs, [{ status: 'failed', host: hostname() }]);
  const runs = await pingmon(['runs', monitorId], { PINGMON_URL: api.url, PINGMON_TOKEN: account.token });
  t.equal(runs.code, 0, runs.stderr);
  t.match(runs.stdout, /^RUN\s+STATUS\s+STARTED\s+DURATION\s+HOST\s+ERROR$/m);
  t.ok(runs.stdout.split('\n')[1]!.includes(hostname().slice(0, 10)), '`pingmon runs` shows it');
});
