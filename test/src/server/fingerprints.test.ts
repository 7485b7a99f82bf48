import t from 'tap';
import type { Alert, Monitor, Run, RunDetail, RunList } from '@pingmon/sdk';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { startOnTestTime as setup } from '../helpers/test-time.js';
import type { OnTestTime as Setup } from '../helpers/test-time.js';
import { waitFor } from '../helpers/wait.js';

// Issue 30, point 4 (docs/alerts.md#failure-fingerprints): failed runs' fingerprints, stored, filtered, counted,
// and told in fail alerts.

const MINUTE = 60_000;

const refused = (when: string, host: string) =>
  `${when}: backup of db "shop" starting\n` +
  `pg_dump: error: connection to server at "${host}", port 5432 failed: Connection refused\n` +
  '\tIs the server running on that host and accepting TCP/IP connections?\n';
const authFailed = (when: string) =>
  `${when}: backup of db "shop" starting\n` +
  'pg_dump: error: connection to server at "10.0.0.5", port 5432 failed: FATAL:  password authentication failed\n';

async function createMonitor(s: Setup, body: object): Promise<Monitor> {
  const reply = await s.api.request<Monitor>('/monitors', { token: s.account.token, body: { name: 'job', ...body } });
  if (reply.status !== 201) throw new Error(`creating a monitor failed: ${reply.text}`);
  return reply.body;
}

const get = async <T>(s: Setup, path: string) => {
  const reply = await s.api.request<T>(path, { token: s.account.token });
  if (reply.status !== 200) throw new Error(`GET ${path}: ${reply.status} ${reply.text}`);
  return reply.body;
};

for (const kind of DATABASE_KINDS) {
  t.test(`failure fingerprints on ${kind}`, async (t) => {
    t.test('failed runs: one fingerprint per cause, filtered, counted; alerts count the repeats', async (t) => {
      const s = await setup(t, kind);
      const m = await createMonitor(s, {});
      const pings: Array<[string, object]> = [
        ['fail', { errorMessage: 'exit code 1', logOutput: refused('Thu Nov 26 03:00:01 UTC 2026', '10.0.0.5') }],
        ['fail', { errorMessage: 'exit code 1', logOutput: refused('Fri Nov 27 03:00:04 UTC 2026', '10.0.0.6') }],
        ['fail', { errorMessage: 'exit code 1', logOutput: refused('Sat Nov 28 03:00:02 UTC 2026', '10.0.0.5') }],
        ['fail', { errorMessage: 'exit code 1', logOutput: authFailed('Sun Nov 29 03:00:01 UTC 2026') }],
        ['success', {}],
        ['fail', { errorMessage: 'exit code 1', logOutput: refused('Tue Dec  1 03:00:09 UTC 2026', '10.0.0.5') }],
      ];
      for (const [ping, body] of pings) {
        const reply = await s.api.ping(s.account, m.monitorId, ping as 'fail' | 'success', body);
        t.equal(reply.status, 200, reply.text);
        s.clock.advance(MINUTE);
      }
      const runs = (await get<RunList>(s, `/monitors/${m.monitorId}/runs`)).runs.reverse();
      const prints = runs.map((r) => r.fingerprint);
      t.match(prints[0], /^[0-9a-f]{16}$/);
      t.same(prints, [prints[0], prints[0], prints[0], prints[3], null, prints[0]], 'refused, auth failed, success');
      t.not(prints[3], prints[0], 'another cause, another fingerprint');

      const filtered = await get<RunList>(s, `/monitors/${m.monitorId}/runs?fingerprint=${prints[0]}`);
      t.same(
        filtered.runs.map((r) => r.runId),
        [5, 2, 1, 0].map((i) => runs[i]!.runId),
        'the filter answers the runs with that fingerprint, newest first',
      );
      const bad = await s.api.request(`/monitors/${m.monitorId}/runs?fingerprint=nope`, { token: s.account.token });
      t.equal(bad.status, 400, 'a fingerprint is 16 hex characters');

      const detail = (run: Run) => get<RunDetail>(s, `/monitors/${m.monitorId}/runs/${run.runId}`);
      t.match(await detail(runs[5]!), {
        fingerprint: prints[0],
        failure: { firstSeenAt: runs[0]!.startedAt, count: 4 },
      });
      t.match(await detail(runs[3]!), { failure: { firstSeenAt: runs[3]!.startedAt, count: 1 } });
      t.match(await detail(runs[4]!), { fingerprint: null, failure: null }, 'a success has none');

      const alerts = (await get<{ alerts: Alert[] }>(s, `/alerts?monitorId=${m.monitorId}`)).alerts;
      t.same(
        alerts
          .filter((a) => a.event === 'fail')
          .reverse()
          .map((a) => a.repeats),
        [0, 1, 2, 0, 0],
        'new, the same as the last one, as the last two; new; new after a success',
      );
      const hooks = await waitFor(
        () => {
          s.clock.advance(100);
          const bodies = s.hooks.map((h) => JSON.parse(h.body) as { runId: string; repeats: number | null });
          return bodies.length >= 6 ? bodies : undefined;
        },
        { what: 'six webhooks (five fail alerts and a recovery)' },
      );
      t.equal(hooks.find((h) => h.runId === runs[2]!.runId)?.repeats, 2, 'the webhook says it too');
    });

    t.test('runs timed out by the sweeper share a fingerprint, and their alerts count the repeats', async (t) => {
      const s = await setup(t, kind);
      const m = await createMonitor(s, { maxRuntime: 60 });
      for (let i = 0; i < 2; i++) {
        t.equal((await s.api.ping(s.account, m.monitorId, 'start', {})).status, 200);
        s.clock.advance(2 * MINUTE);
        t.match(await s.api.server.app.sweeper.sweepNow(), { timedOut: 1 });
      }
      const runs = (await get<RunList>(s, `/monitors/${m.monitorId}/runs`)).runs;
      t.match(runs[0]!.fingerprint, /^[0-9a-f]{16}$/);
      t.equal(runs[0]!.fingerprint, runs[1]!.fingerprint);
      const alerts = (await get<{ alerts: Alert[] }>(s, `/alerts?monitorId=${m.monitorId}`)).alerts;
      t.same(
        alerts.map((a) => [a.event, a.repeats]),
        [
          ['timed_out', 1],
          ['timed_out', 0],
        ],
      );
    });
  });
}
