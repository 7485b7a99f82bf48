import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import t from 'tap';
import type { Test } from 'tap';
import { POSTGRES_URL, createTestDatabase } from '../helpers/databases.js';
import { createAccountCli, CLI, cliEnv, finished, pingmon, waitForLine } from '../helpers/cli.js';
import { request } from '../helpers/http.js';
import { waitFor } from '../helpers/wait.js';

const LISTENING = /pingmon server listening on (http:\/\/127\.0\.0\.1:\d+\/api\/v1) \(2 workers\)\n/;

/** The pids of `pid`'s child processes, from /proc. */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (comm) state ppid …": comm may hold spaces, so the fields are read after its closing parenthesis.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // The process ended while the list was read.
    }
  }
  return children;
}

t.test('--workers on SQLite is refused in one line, before anything starts', async (t) => {
  const db = await createTestDatabase('sqlite');
  t.teardown(() => db.drop());
  const result = await pingmon(['server', '--workers', '2', '--port', '0'], db.env);
  t.equal(result.code, 2);
  t.match(result.stderr, /^pingmon: --workers 2 needs PostgreSQL \(--database-url or PINGMON_DATABASE_URL\).*\n$/);
  t.equal(result.stdout, '');
});

/** `pingmon server --workers 2` listening, in its own process group (a shell's job: Ctrl-C is the group's SIGINT). */
async function startTwoWorkers(t: Test, env: Record<string, string>) {
  const primary = spawn(process.execPath, [CLI, 'server', '--workers', '2', '--port', '0'], {
    env: cliEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const exited = finished(primary);
  t.teardown(() => {
    if (primary.exitCode === null) process.kill(-primary.pid!, 'SIGKILL');
  });
  const [, url] = await waitForLine(primary, LISTENING);
  return { primary, exited, url: url! };
}

t.test('pingmon server --workers 2 on PostgreSQL', { skip: POSTGRES_URL ? false : 'no test PostgreSQL' }, async (t) => {
  const db = await createTestDatabase('postgres');
  t.teardown(() => db.drop());
  const account = await createAccountCli(db.env);
  const { primary, exited, url } = await startTwoWorkers(t, db.env);
  const workers = childrenOf(primary.pid!);
  t.equal(workers.length, 2, 'two worker processes');

  const login = await request(`${url}/auth/login`, { body: { email: 'ops@example.com', password: 'hunter2hunter2' } });
  const monitor = await request(`${url}/monitors`, { token: login.body.token, body: { name: 'nightly' } });
  const pingAll = async (prefix: string, count: number) => {
    const statuses = await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const runId = `run-${prefix}-${i}-workers`;
        const start = await ping(`${url}/ping/${monitor.body.monitorId}/start`, account.apiKey, runId);
        const end = await ping(`${url}/ping/${monitor.body.monitorId}/success`, account.apiKey, runId);
        return `${start} ${end}`;
      }),
    );
    return statuses.filter((s) => s !== '200 200');
  };
  t.same(await pingAll('a', 100), [], '100 runs, every ping answered 200');

  t.test('a worker killed is replaced, and the port keeps answering meanwhile', async (t) => {
    let stderr = '';
    primary.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    process.kill(workers[0], 'SIGKILL');
    t.same(await pingAll('b', 50), [], 'pings answered while one worker is gone');
    await waitFor(() => /worker \d+ exited on SIGKILL; starting another\n/.test(stderr), { what: 'the restart' });
    const now = await waitFor(
      () => {
        const pids = childrenOf(primary.pid!);
        return pids.length === 2 && !pids.includes(workers[0]) ? pids : undefined;
      },
      { what: 'a new second worker' },
    );
    t.ok(now.includes(workers[1]), 'the other worker kept running');
    t.same(await pingAll('c', 50), [], 'and both answer');
    const list = await request(`${url}/monitors/${monitor.body.monitorId}/runs?limit=200`, {
      token: login.body.token,
    });
    const runs = list.body.runs as Array<{ runId: string; status: string }>;
    t.equal(new Set(runs.map((run) => run.runId)).size, 200, 'every run recorded once');
    t.ok(
      runs.every((run) => run.status === 'success'),
      'each finished by its own result',
    );
  });

  t.test('Ctrl-C (SIGINT to the process group) stops every process cleanly, exit 0', async (t) => {
    const pids = childrenOf(primary.pid!);
    process.kill(-primary.pid!, 'SIGINT');
    const result = await exited;
    t.equal(result.code, 0, result.stderr);
    t.same(pids.filter(existsProcess), [], 'no worker left behind');
  });
});

t.test(
  'Ctrl-C while a replacement worker is still starting: it ends with the others, exit 0',
  { skip: POSTGRES_URL ? false : 'no test PostgreSQL' },
  async (t) => {
    const db = await createTestDatabase('postgres');
    t.teardown(() => db.drop());
    const { primary, exited } = await startTwoWorkers(t, db.env);
    let stderr = '';
    primary.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    process.kill(childrenOf(primary.pid!)[0]!, 'SIGKILL');
    // The replacement is forked as this line is written: Ctrl-C reaches it long before it can listen.
    await waitFor(() => /starting another\n/.test(stderr), { intervalMs: 1, what: 'the restart' });
    const pids = childrenOf(primary.pid!);
    process.kill(-primary.pid!, 'SIGINT');
    const result = await exited;
    t.equal(result.code, 0, stderr);
    t.same(pids.filter(existsProcess), [], 'no worker left behind');
  },
);

/**
 * A ping on a connection of its own (a worker killed mid-test takes its kept-alive connections with it), sent
 * again once if unanswered in 5 s: a connection node's cluster hands to a worker at the moment it dies is never
 * answered, and clients (the SDK, `pingmon run`) time out and send again.
 */
async function ping(url: string, apiKey: string, runId: string): Promise<number> {
  try {
    return await pingOnce(url, apiKey, runId);
  } catch {
    return pingOnce(url, apiKey, runId);
  }
}

function pingOnce(url: string, apiKey: string, runId: string): Promise<number> {
  const body = JSON.stringify({ runId });
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      method: 'POST',
      agent: false,
      timeout: 5_000,
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('timeout', () => req.destroy(new Error('no answer in 5 s')));
    req.on('error', reject);
    req.end(body);
  });
}

function existsProcess(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const cannotStart = 'a worker that cannot start stops the others: exit 1, with its own message';
t.test(cannotStart, { skip: POSTGRES_URL ? false : 'no test PostgreSQL' }, async (t) => {
  const db = await createTestDatabase('postgres');
  t.teardown(() => db.drop());
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  t.teardown(() => taken.close());
  const port = String((taken.address() as { port: number }).port);
  const result = await pingmon(['server', '--workers', '2', '--port', port], db.env);
  t.equal(result.code, 1);
  t.match(result.stderr, `pingmon: port ${port} is already in use on 127.0.0.1; choose another with --port`);
  t.match(result.stderr, /pingmon server: a worker could not start \(exited with code 1; its message is above\)/);
});
