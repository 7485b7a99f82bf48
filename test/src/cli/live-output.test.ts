import { execFileSync } from 'node:child_process';
import { openSync, writeFileSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import type { Alert, LogResult, RunList, RunOutput } from '@pingmon/sdk';
import { DATABASE_KINDS, tempDir } from '../helpers/databases.js';
import { finished, spawnCli, waitForLine } from '../helpers/cli.js';
import type { CliResult } from '../helpers/cli.js';
import { json, startReceiver } from '../helpers/receiver.js';
import type { Received } from '../helpers/receiver.js';
import { TestServer } from '../helpers/server.js';
import type { TestAccount } from '../helpers/server.js';
import { startOnTestTime } from '../helpers/test-time.js';
import { waitFor } from '../helpers/wait.js';

// Issue 32, points 1 to 3 and 5: `pingmon run` sends the job's output while it runs, `pingmon logs --follow`
// prints it as it arrives. Jobs wait on a FIFO the test opens when it is done looking: no fixed sleeps here.

const dir = tempDir('pingmon-live-');
let fifos = 0;

/** A FIFO a job blocks on (`read x < FIFO`) until `release()`. */
function gate(): { path: string; release: () => void } {
  const path = join(dir, `gate-${fifos++}`);
  execFileSync('mkfifo', [path]);
  return {
    path,
    release: () => {
      const fd = openSync(path, 'w');
      writeFileSync(fd, 'go\n');
      closeSync(fd);
    },
  };
}

function env(url: string, account: TestAccount, monitorId: string) {
  return { PINGMON_URL: url, PINGMON_API_KEY: account.apiKey, PINGMON_MONITOR: monitorId, XDG_CONFIG_HOME: dir };
}

async function get<T>(api: TestServer, account: TestAccount, path: string): Promise<T> {
  const reply = await api.request<T>(path, { token: account.token });
  if (reply.status !== 200) throw new Error(`GET ${path}: ${reply.status} ${reply.text}`);
  return reply.body;
}

/** The monitor's running run once the server holds output of it that passes `check`. */
async function runningWith(api: TestServer, account: TestAccount, monitorId: string, check: (o: RunOutput) => boolean) {
  return waitFor(
    async () => {
      const [run] = (await get<RunList>(api, account, `/monitors/${monitorId}/runs?status=running&limit=1`)).runs;
      if (!run) return undefined;
      const output = await get<RunOutput>(api, account, `/monitors/${monitorId}/runs/${run.runId}/output`);
      return check(output) ? { runId: run.runId, output } : undefined;
    },
    { what: 'live output on the server', intervalMs: 50 },
  );
}

for (const kind of DATABASE_KINDS) {
  t.test(`pingmon logs --follow prints a running job's output as it arrives, then its result (${kind})`, async (t) => {
    const api = await TestServer.start(t, kind);
    const account = await api.account();
    const m = await api.monitor(account, 'followed');
    const door = gate();
    const job = spawnCli(
      ['run', '--', 'sh', '-c', `echo "first line: ünïcödé ✓ 🚀"; read x < ${door.path}; echo "last line"; exit 3`],
      env(api.url, account, m),
    );
    const ran = finished(job);
    await runningWith(api, account, m, (o) => o.text === 'first line: ünïcödé ✓ 🚀\n');
    const follow = spawnCli(['logs', m, '--follow'], { PINGMON_URL: api.url, PINGMON_TOKEN: account.token });
    const followed = finished(follow);
    await waitForLine(follow, /first line: ünïcödé ✓ 🚀\n/);
    t.equal(job.exitCode, null, 'the follower printed the line while the job still runs');
    const stopped = spawnCli(['logs', m, '--follow'], { PINGMON_URL: api.url, PINGMON_TOKEN: account.token });
    const interrupted = finished(stopped);
    await waitForLine(stopped, /first line/);
    stopped.kill('SIGINT');
    t.match(await interrupted, { code: 130, stderr: '' }, 'Ctrl-C ends following cleanly, exit 130');
    door.release();
    const [jobResult, followResult] = await Promise.all([ran, followed]);
    t.equal(jobResult.code, 3);
    t.equal(jobResult.stdout, 'first line: ünïcödé ✓ 🚀\nlast line\n', 'the job output passes through unchanged');
    t.equal(followResult.stdout, 'first line: ünïcödé ✓ 🚀\nlast line\n', 'the follower got the last line too');
    t.match(followResult.stderr, /pingmon: run \S+ failed after \d+\w*: exit code 3/);
    t.equal(followResult.code, 1, "the follower's exit code says the run failed");

    // Nothing running: the last run's log, and its result.
    const after = await finished(
      spawnCli(['logs', m, '--follow'], { PINGMON_URL: api.url, PINGMON_TOKEN: account.token }),
    );
    t.match(after.stderr, /No run of \S+ is running; the last run's log follows/);
    t.equal(after.stdout, 'first line: ünïcödé ✓ 🚀\nlast line\n');
    t.equal(after.code, 1);
  });
}

t.test('live output against a test server (sqlite)', async (t) => {
  const api = await TestServer.start(t, 'sqlite');
  const account = await api.account();

  t.test('the window is bounded: more than 64 KiB printed, the server keeps the last 64 KiB', async (t) => {
    const m = await api.monitor(account, 'chatty');
    const door = gate();
    // 30,000 lines: 168,894 characters.
    const ran = finished(
      spawnCli(['run', '--', 'sh', '-c', `seq 1 30000; read x < ${door.path}`], env(api.url, account, m)),
    );
    const { output } = await runningWith(api, account, m, (o) => o.next === 168_894);
    t.equal(output.text.length, 65_536);
    t.equal(output.from, 168_894 - 65_536);
    t.ok(output.text.endsWith('29999\n30000\n'));
    door.release();
    const result = await ran;
    t.equal(result.code, 0);
    t.equal(result.stdout.length, 168_894, 'all of it passed through');
  });

  t.test('live output leaves the host redacted, as the log does', async (t) => {
    const m = await api.monitor(account, 'secretive');
    const door = gate();
    const script =
      'echo "connecting to postgres://app:$DB_PASSWORD@db/main"; printf "Authorization: Bearer "; ' +
      `printf "$API_TOKEN\\n"; echo "with $VAULT"; read x < ${door.path}`;
    const secrets = { DB_PASSWORD: 'hunter2hunter2', API_TOKEN: 'tok_live_9f8e7d6c5b4a', VAULT: 's.vaultvalue42' };
    const job = spawnCli(['run', '--redact-env', 'VAULT', '--', 'sh', '-c', script], {
      ...env(api.url, account, m),
      ...secrets,
    });
    const ran = finished(job);
    const { output } = await runningWith(api, account, m, (o) => o.text.includes('with '));
    t.equal(job.exitCode, null, 'read while the job runs');
    for (const secret of Object.values(secrets)) t.notMatch(output.text, secret, 'no secret in the live window');
    t.match(output.text, 'postgres://app:[redacted]@db/main');
    t.match(output.text, 'with [redacted]');
    door.release();
    const result = await ran;
    t.equal(result.code, 0);
    t.match(result.stdout, 'hunter2hunter2', 'the terminal gets the output unchanged');
  });

  t.test('a progress line (carriage returns, no newline yet) reaches the live window while the job runs', async (t) => {
    const m = await api.monitor(account, 'progressing');
    const door = gate();
    const script =
      'printf "fetching 10%%\\r"; printf "fetching 50%% token=$API_TOKEN\\r"; ' + `read x < ${door.path}; echo done`;
    const job = spawnCli(['run', '--', 'sh', '-c', script], {
      ...env(api.url, account, m),
      API_TOKEN: 'tok_live_9f8e7d6c5b4a',
    });
    const ran = finished(job);
    const { output } = await runningWith(api, account, m, (o) => o.text.includes('50%'));
    t.equal(job.exitCode, null, 'read while the job runs, before it printed a newline');
    t.equal(output.text, 'fetching 10%\rfetching 50% token=[redacted]\r');
    door.release();
    const result = await ran;
    t.equal(result.code, 0);
    t.equal(result.stdout, 'fetching 10%\rfetching 50% token=tok_live_9f8e7d6c5b4a\rdone\n', 'the terminal: unchanged');
  });

  t.test('--no-live sends nothing while the job runs; without it, output goes', async (t) => {
    const received: Received[] = [];
    const receiver = await startReceiver(t, (req, _n, res) => {
      received.push(req);
      const runId = (JSON.parse(req.body || '{}') as { runId?: string }).runId;
      json(res, 200, req.url.endsWith('/output') ? { runId, next: 0 } : ack(runId));
    });
    const job = ['sh', '-c', 'echo one; sleep 2; echo two'];
    const off = await finished(spawnCli(['run', '--no-live', '--', ...job], env(receiver.url, account, 'mon_x')));
    t.equal(off.code, 0, off.stderr);
    t.same(
      received.map((r) => r.url.split('/').pop()),
      ['start', 'success'],
      'start and success, no output',
    );
    received.length = 0;
    const on = await finished(spawnCli(['run', '--', ...job], env(receiver.url, account, 'mon_x')));
    t.equal(on.code, 0, on.stderr);
    t.ok(
      received.some((r) => r.url.endsWith('/output')),
      'with live output on, chunks go',
    );
  });

  t.test('a server that does not take live output (404) turns it off with one warning', async (t) => {
    const received: Received[] = [];
    const receiver = await startReceiver(t, (req, _n, res) => {
      received.push(req);
      if (req.url.endsWith('/output'))
        return json(res, 404, { statusCode: 404, error: 'Not Found', message: 'Not Found' });
      json(res, 200, ack((JSON.parse(req.body || '{}') as { runId?: string }).runId));
    });
    const result = await finished(
      spawnCli(
        ['run', '--', 'sh', '-c', 'echo one; sleep 1.5; echo two; sleep 1.5; echo three'],
        env(receiver.url, account, 'mon_x'),
      ),
    );
    t.equal(result.code, 0);
    t.equal(result.stdout, 'one\ntwo\nthree\n');
    t.equal(received.filter((r) => r.url.endsWith('/output')).length, 1, 'asked once');
    t.equal(result.stderr.match(/live output is off for this run/g)?.length, 1, 'one warning line');
  });

  t.test('a server that never answers the output does not slow the job', async (t) => {
    const received: Received[] = [];
    // Held chunks open at once: a chunk given up on (its own timeout, on a slow machine) may be followed by another.
    let open = 0;
    let mostOpen = 0;
    const receiver = await startReceiver(t, (req, _n, res) => {
      received.push(req);
      if (req.url.endsWith('/output')) {
        mostOpen = Math.max(mostOpen, ++open);
        res.on('close', () => open--);
        return; // held: never answered
      }
      json(res, 200, ack((JSON.parse(req.body || '{}') as { runId?: string }).runId));
    });
    const door = gate();
    const started = Date.now();
    const script = `echo begin; read x < ${door.path}; head -c 20000000 /dev/zero | tr '\\0' x; echo; echo end`;
    const ran = finished(spawnCli(['run', '--', 'sh', '-c', script], env(receiver.url, account, 'mon_x')));
    await waitFor(() => received.some((r) => r.url.endsWith('/output')), { what: 'a chunk held by the receiver' });
    const released = Date.now();
    door.release();
    const result: CliResult = await ran;
    t.equal(result.code, 0);
    t.equal(result.stdout.length, 'begin\n'.length + 20_000_000 + '\nend\n'.length, 'every byte passed through');
    t.equal(mostOpen, 1, 'never more than one request in flight');
    t.ok(
      received.some((r) => r.url.endsWith('/success')),
      'the result went',
    );
    // The end waits at most 1 s for the last chunk, then the result goes (2 s --ping-timeout).
    t.ok(Date.now() - released < 8_000, `done ${Date.now() - released} ms after the job was let go`);
    t.ok(released - started < 15_000);
  });
});

t.test('a run timed out by maxRuntime keeps the last lines pingmon run sent, in its log and its webhook', async (t) => {
  const s = await startOnTestTime(t, 'sqlite');
  const created = await s.api.request<{ monitorId: string }>('/monitors', {
    token: s.account.token,
    body: { name: 'hangs', maxRuntime: 60 },
  });
  const m = created.body.monitorId;
  const door = gate();
  const script = `for i in $(seq 1 500); do echo "copied part $i"; done; read x < ${door.path}`;
  const ran = finished(spawnCli(['run', '--', 'sh', '-c', script], env(s.api.url, s.account, m)));
  const { runId } = await runningWith(s.api, s.account, m, (o) => o.text.endsWith('copied part 500\n'));
  s.clock.advance(2 * 60_000);
  t.match(await s.api.server.app.sweeper.sweepNow(), { timedOut: 1 });
  const log = await get<LogResult>(s.api, s.account, `/monitors/${m}/runs/${runId}/log`);
  t.match(log.content, /copied part 499\ncopied part 500$/, 'its last lines are its log');
  const alerts = await get<{ alerts: Alert[] }>(s.api, s.account, `/alerts?monitorId=${m}`);
  t.match(alerts.alerts[0], { event: 'timed_out', logTail: /copied part 500$/ });
  const hook = await waitFor(
    () => {
      s.clock.advance(100);
      return s.hooks.map((h) => JSON.parse(h.body) as { event: string; logTail: string })[0];
    },
    { what: 'the timed_out webhook' },
  );
  t.match(hook, { event: 'timed_out', logTail: /copied part 499\ncopied part 500$/ });
  door.release();
  t.equal((await ran).code, 0, "the job's exit code stands");
});

function ack(runId: string | undefined) {
  const data = { received: true, monitorId: 'mon_x', runId, status: 'running', timestamp: new Date().toISOString() };
  return { success: true, data };
}
