import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { LastLine, withLastLine } from 'pingmon/internal';
import { CLI, cliEnv, pingmon } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/databases.js';
import { TestServer } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait.js';

// Issue 25, item 5: the run's error message names the cause, the job's last line on stderr (else on stdout).

t.test('pingmon run: the error message is the exit code and the last line the job printed', async (t) => {
  const api = await TestServer.start(t, 'sqlite');
  const account = await api.account('unlimited');
  const dir = tempDir('pingmon-cause-');
  const env = (monitorId: string) => ({
    PINGMON_URL: api.url,
    PINGMON_API_KEY: account.apiKey,
    PINGMON_MONITOR: monitorId,
    XDG_CONFIG_HOME: dir,
  });
  const lastRun = async (monitorId: string) =>
    (await api.request(`/monitors/${monitorId}/runs?limit=1`, { token: account.token })).body.runs[0];

  t.test('a job printing a banner, then failing with a message on stderr', async (t) => {
    const m = await api.monitor(account, 'banner then cause');
    const job = [
      'echo "=== nightly backup v2.1 ==="',
      'echo "tar: /data: Cannot open: Permission denied" >&2',
      'echo "cleaning up" ',
      'printf "\\n  \\n" >&2',
      'exit 3',
    ].join('; ');
    const result = await pingmon(['run', '--', 'sh', '-c', job], env(m));
    t.equal(result.code, 3);
    t.equal(result.stderr, 'tar: /data: Cannot open: Permission denied\n\n  \n', 'stderr passed through as it was');
    t.match(await lastRun(m), {
      status: 'failed',
      errorMessage: 'exit code 3: tar: /data: Cannot open: Permission denied',
      meta: { exitCode: 3 },
    });
  });

  t.test('nothing on stderr: the last line on stdout; nothing at all: the exit code alone', async (t) => {
    const m = await api.monitor(account, 'stdout only');
    await pingmon(['run', '--', 'sh', '-c', 'echo starting; echo "error: 0 rows exported"; exit 2'], env(m));
    t.equal((await lastRun(m)).errorMessage, 'exit code 2: error: 0 rows exported');
    await pingmon(['run', '--', 'sh', '-c', 'exit 4'], env(m));
    t.equal((await lastRun(m)).errorMessage, 'exit code 4');
  });

  t.test('terminal escapes, carriage returns and control characters are left out of the line', async (t) => {
    const m = await api.monitor(account, 'escapes');
    const job = 'printf "10%%\\r55%%\\r\\033[31mERROR\\033[0m: disk \\007full\\r\\n" >&2; exit 1';
    await pingmon(['run', '--', 'sh', '-c', job], env(m));
    t.equal((await lastRun(m)).errorMessage, 'exit code 1: ERROR: disk full');
  });

  t.test('a signal keeps its message, with the last line after it', async (t) => {
    const m = await api.monitor(account, 'signal');
    await pingmon(['run', '--', 'sh', '-c', 'echo "copying part 7" >&2; kill -TERM $$'], env(m));
    t.equal((await lastRun(m)).errorMessage, 'killed by signal SIGTERM: copying part 7');
    await pingmon(['run', '--', 'no-such-command-anywhere'], env(m));
    t.equal((await lastRun(m)).errorMessage, 'could not start: command not found: no-such-command-anywhere');
  });

  t.test('a long last line is cut to the 500 characters of an error message, never inside an emoji', async (t) => {
    const m = await api.monitor(account, 'long line');
    // "exit code 5: " is 13 characters: the emoji straddles the 499th and 500th.
    const line = `${'x'.repeat(485)}🙂${'y'.repeat(600)}`;
    await pingmon(['run', '--', 'sh', '-c', `echo "${line}" >&2; exit 5`], env(m));
    const message: string = (await lastRun(m)).errorMessage;
    t.equal(message, `exit code 5: ${'x'.repeat(485)}…`);
    t.ok(message.length <= 500);
  });

  t.test('a huge stderr: the last line is found, and the wrapper holds only the end of it', async (t) => {
    const m = await api.monitor(account, 'huge stderr');
    const ready = join(dir, 'written');
    const go = join(dir, 'go');
    // 256 MB on one line, then the cause; the job waits (its output all read) while the wrapper's memory is read.
    const job =
      'head -c 268435456 /dev/zero | tr "\\0" x >&2; echo >&2; echo "final: No space left on device" >&2; ' +
      `touch ${ready}; while [ ! -e ${go} ]; do sleep 0.05; done; exit 2`;
    const child = spawn(process.execPath, [CLI, 'run', '--', 'sh', '-c', job], {
      env: cliEnv(env(m)),
      stdio: ['ignore', 'ignore', 'ignore'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await waitFor(() => existsSync(ready), { timeoutMs: 120_000, what: 'the job to write 256 MB' });
    const peakKb = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]);
    writeFileSync(go, '');
    t.equal(await exited, 2);
    t.ok(peakKb < 160 * 1024, `the wrapper's peak memory (${Math.round(peakKb / 1024)} MB) is not the output's`);
    t.equal((await lastRun(m)).errorMessage, 'exit code 2: final: No space left on device');
  });
});

t.test('LastLine keeps the last few KiB of a stream, whatever size its chunks', async (t) => {
  const feed = (text: string, chunk: number) => {
    const last = new LastLine();
    const bytes = Buffer.from(text);
    for (let i = 0; i < bytes.length; i += chunk) last.add(bytes.subarray(i, i + chunk));
    return last.line();
  };
  for (const chunk of [1, 3, 100, 4_096, 65_536, 1 << 20]) {
    t.equal(feed('first\nsecond line é🙂\n\n', chunk), 'second line é🙂', `${chunk}-byte chunks`);
    t.equal(feed(`${'noise\n'.repeat(100_000)}the end\n`, chunk), 'the end', `${chunk}-byte chunks, long`);
    // One line longer than what is kept: its end, marked as cut, from a whole character on.
    const long = feed(`${'é'.repeat(5_000)}!`, chunk)!;
    t.match(long, /^…é+!$/, `${chunk}-byte chunks, one long line`);
    t.ok(long.length < 2_100, `${long.length} characters kept`);
  }
  t.equal(feed('', 10), undefined);
  t.equal(feed(' \n\t\n', 10), undefined);
});

t.test('withLastLine appends the line, within 500 characters', async (t) => {
  t.equal(withLastLine('exit code 3', undefined), 'exit code 3');
  t.equal(withLastLine('exit code 3', 'boom'), 'exit code 3: boom');
  const cut = withLastLine('exit code 3', 'z'.repeat(600));
  t.equal(cut.length, 500);
  t.ok(cut.endsWith('z…'));
});
