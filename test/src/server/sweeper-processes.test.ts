import t from 'tap';
import type { Alert, MonitorList } from '@pingmon/sdk';
import { finished, spawnCli, waitForLine } from '../helpers/cli.js';
import { POSTGRES_URL } from '../helpers/databases.js';
import { TestServer } from '../helpers/server.js';
import { waitFor } from '../helpers/wait.js';

const LISTENING = /pingmon server listening on (http:\/\/127\.0\.0\.1:\d+\/api\/v1)\n/;

// Two real `pingmon server` processes on one PostgreSQL, sweeping ten times a second on the real clock: every
// missed run and every timed-out run raises its alert exactly once.
t.test(
  'two pingmon server processes sweep one PostgreSQL: each alert exactly once',
  { skip: !POSTGRES_URL },
  async (t) => {
    // The setup server sweeps once at its start, before anything is due, and then not for an hour.
    const setup = await TestServer.start(t, 'postgres', { sweepIntervalMs: 3_600_000 });
    const account = await setup.account();
    const env = { ...setup.database.env, PINGMON_SWEEP_INTERVAL: '0.1', PINGMON_LOG_LEVEL: 'warn' };
    const servers = [];
    for (let i = 0; i < 2; i++) {
      const child = spawnCli(['server', '--port', '0', '--host', '127.0.0.1'], env);
      const exited = finished(child);
      t.teardown(() => child.exitCode === null && child.kill('SIGKILL'));
      await waitForLine(child, LISTENING);
      servers.push({ child, exited });
    }
    const created: string[] = [];
    for (let i = 0; i < 20; i++) {
      const body = { name: `every second ${i}`, schedule: { every: 1 }, startGrace: 1 };
      created.push((await setup.request('/monitors', { token: account.token, body })).body.monitorId);
    }
    const running: string[] = [];
    for (let i = 0; i < 10; i++) {
      const body = { name: `one second at most ${i}`, maxRuntime: 1 };
      const monitorId = (await setup.request('/monitors', { token: account.token, body })).body.monitorId;
      await setup.ping(account, monitorId, 'start', { runId: `run-of-${monitorId}` });
      running.push(monitorId);
    }
    const monitors = await waitFor(
      async () => {
        const list = (await setup.request<MonitorList>('/monitors?limit=100', { token: account.token })).body;
        return list.monitors.every((m) => m.status === 'down') ? list.monitors : undefined;
      },
      { what: 'all 30 monitors to be down' },
    );
    t.equal(monitors.length, 30);
    const alerts = (await setup.request<{ alerts: Alert[] }>('/alerts?limit=100', { token: account.token })).body
      .alerts;
    const missed = alerts.filter((a) => a.event === 'missed');
    const timedOut = alerts.filter((a) => a.event === 'timed_out');
    t.equal(missed.length, 20, 'one missed alert per scheduled monitor');
    t.same(new Set(missed.map((a) => a.monitorId)), new Set(created));
    t.equal(timedOut.length, 10, 'one timed_out alert per open run');
    t.same(new Set(timedOut.map((a) => a.monitorId)), new Set(running));
    t.equal(alerts.length, 30, 'and nothing else');
    for (const [i, { child, exited }] of servers.entries()) {
      child.kill('SIGTERM');
      const { code, stderr } = await exited;
      t.equal(code, 0, `server ${i} stopped cleanly`);
      t.notMatch(stderr, /error/i, `server ${i} logged no error`);
    }
  },
);
