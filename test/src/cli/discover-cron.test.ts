import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import t from 'tap';
import type { Test } from 'tap';
import { CLI, finished } from '../helpers/cli.js';
import type { CliResult } from '../helpers/cli.js';
import { TestServer } from '../helpers/server.js';
import { requireTools } from '../helpers/system-tools.js';
import { waitFor } from '../helpers/wait.js';

// Issue 27, items 4, 6 and 8: a user who is not root follows the README (`pingmon login`, `pingmon config set
// api-key`), runs `pingmon discover --yes` on their crontab, and Debian's cron daemon runs the rewritten line:
// the run is recorded under the slug discover proposed.

const CRON = '/usr/sbin/cron';

interface User {
  name: string;
  uid: number;
  gid: number;
  home: string;
}

/**
 * A command run as `user`, with the environment a login (and cron) gives them: no PINGMON_* nor XDG_* of ours,
 * nor the NODE_OPTIONS tap adds to the processes a test starts (`env -i`), which would write into our .tap.
 */
function asUser(user: User, command: string, args: string[], input?: string): Promise<CliResult> {
  const env = { HOME: user.home, USER: user.name, LOGNAME: user.name, PATH: '/usr/bin:/bin', LANG: 'C.UTF-8' };
  const assignments = Object.entries(env).map(([name, value]) => `${name}=${value}`);
  const child = spawn('/usr/bin/env', ['-i', ...assignments, command, ...args], {
    uid: user.uid,
    gid: user.gid,
    cwd: user.home,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin!.end(input);
  return finished(child);
}

function pingmonAs(user: User, args: string[]): Promise<CliResult> {
  return asUser(user, process.execPath, [CLI, ...args]);
}

function makeUser(t: Test): User {
  const name = `pmcron${randomBytes(3).toString('hex')}`;
  const made = spawnSync('useradd', ['--create-home', '--shell', '/bin/sh', name], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`useradd failed: ${made.stderr}`);
  t.teardown(() => {
    spawnSync('crontab', ['-r', '-u', name]);
    spawnSync('userdel', ['--remove', name]);
  });
  const id = (flag: string) => Number(spawnSync('id', [flag, name], { encoding: 'utf8' }).stdout.trim());
  return { name, uid: id('-u'), gid: id('-g'), home: `/home/${name}` };
}

/**
 * The checkout reachable by other users for the test's length: a directory above it that others cannot enter (a
 * clone under `mktemp -d`, mode 700) gets o+x, taken back at the end. A user's own install has no such directory.
 */
function letOthersReach(t: Test, path: string): void {
  for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) {
    const { mode } = statSync(dir);
    if (mode & 0o001) continue;
    chmodSync(dir, mode | 0o001);
    t.teardown(() => chmodSync(dir, mode));
  }
}

/** The running cron daemon's pid, if one runs (Debian's cron refuses to start a second one). */
function runningCron(): number | undefined {
  try {
    const pid = Number(readFileSync('/run/crond.pid', 'utf8').trim());
    return pid > 0 && existsSync(`/proc/${pid}`) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `cron -f` as a child of this test, stopped at its end; or the daemon already running. No pipe to it: the jobs it
 * starts inherit its descriptors, and one of /etc/crontab's (cron.daily at 06:25 sleeps up to 30 minutes) would hold
 * a pipe, and with it this test, open long after the daemon is stopped.
 */
async function startCron(t: Test): Promise<void> {
  if (runningCron() !== undefined) return;
  const daemon: ChildProcess = spawn(CRON, ['-f'], { stdio: 'ignore' });
  const exited = new Promise((resolve) => daemon.once('exit', resolve));
  t.teardown(async () => {
    daemon.kill('SIGTERM');
    await exited;
  });
  await waitFor(() => runningCron() === daemon.pid || daemon.exitCode !== null, { what: 'cron to start' });
  if (daemon.exitCode !== null) throw new Error(`cron exited with ${daemon.exitCode}`);
}

t.test(
  "pingmon discover --yes on a user's crontab: cron runs the line, the run is under the proposed slug",
  async (t) => {
    if (!requireTools(t, 'cron')) return;
    if (process.getuid?.() !== 0) {
      const note = 'needs root: it makes a user and starts the cron daemon';
      if (process.env.CI === 'true') t.fail(`${note} (CI=true: every test must run)`);
      else t.plan(0, note);
      return;
    }
    const api = await TestServer.start(t, 'sqlite');
    const account = await api.account('unlimited');
    const user = makeUser(t);
    letOthersReach(t, CLI);
    const origin = api.url.replace(/\/api\/v1$/, '');

    // What the README tells a user: log in, store the API key for `pingmon run`.
    const login = await pingmonAs(user, [
      'login',
      '--url',
      origin,
      '--email',
      account.email,
      '--password',
      account.password,
    ]);
    t.equal(login.code, 0, `pingmon login (${login.stderr})`);
    const key = await pingmonAs(user, ['config', 'set', 'api-key', account.apiKey]);
    t.equal(key.code, 0, `pingmon config set api-key (${key.stderr})`);

    const script = `${user.home}/nightly-report.sh`;
    const made = await asUser(user, '/bin/sh', [
      '-c',
      `printf '#!/bin/sh\\necho report done\\n' > ${script} && chmod 755 ${script}`,
    ]);
    t.equal(made.code, 0, made.stderr);
    const crontab = `MAILTO=""\n# the report\n* * * * * $HOME/nightly-report.sh --full > /dev/null 2>&1\n`;
    const installed = await asUser(user, 'crontab', ['-'], crontab);
    t.equal(installed.code, 0, `crontab - (${installed.stderr})`);

    const discover = await pingmonAs(user, ['discover', '--yes']);
    t.equal(discover.code, 0, `pingmon discover --yes (${discover.stderr})`);
    t.match(discover.stdout, /nightly-report\s+create/);
    t.notMatch(discover.stdout, 'no API key', 'the key stored as the README says is found');
    const listed = await asUser(user, 'crontab', ['-l']);
    const line = listed.stdout.split('\n')[2]!;
    t.ok(line.startsWith(`* * * * * ${CLI} run --monitor nightly-report --cron '* * * * *' `), line);
    t.ok(
      line.endsWith(` -- /bin/sh -c '$HOME/nightly-report.sh --full > /dev/null 2>&1'`),
      'the command, as cron ran it',
    );

    await startCron(t);
    const runs = await waitFor(
      async () => {
        const reply = await api.request('/monitors/nightly-report/runs', { token: account.token });
        return reply.status === 200 && reply.body.runs.some((run: { status: string }) => run.status === 'success')
          ? reply.body.runs
          : undefined;
      },
      { timeoutMs: 150_000, intervalMs: 1_000, what: 'cron to run the job and pingmon to record it' },
    );
    t.equal(runs[0].status, 'success', 'recorded under nightly-report');
    const again = await pingmonAs(user, ['discover', '--yes']);
    t.match(again.stdout, 'Nothing to change', 'running discover again changes nothing');
  },
);
