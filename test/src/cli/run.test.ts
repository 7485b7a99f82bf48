import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { tempDir } from '../helpers/databases.js';
import { finished, pingmon, pingmonRaw, spawnCli, waitForLine } from '../helpers/cli.js';
import { deadUrl, json, startReceiver } from '../helpers/receiver.js';
import { TestServer } from '../helpers/server.js';
import { waitFor } from '../helpers/wait.js';

/** Whether process `pid` ends (or is left a zombie) within a few seconds. */
function gone(pid: number): Promise<boolean> {
  const ended = () => {
    try {
      return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') ?? false;
    } catch {
      return true;
    }
  };
  return waitFor(ended, { timeoutMs: 5_000, intervalMs: 20 }).then(
    () => true,
    () => false,
  );
}

t.test('pingmon run', async (t) => {
  const api = await TestServer.start(t, 'sqlite');
  const account = await api.account('unlimited');
  const dir = tempDir('pingmon-run-');
  const env = (monitorId: string) => ({
    PINGMON_URL: api.url,
    PINGMON_API_KEY: account.apiKey,
    PINGMON_MONITOR: monitorId,
    XDG_CONFIG_HOME: dir,
  });
  const lastRun = async (monitorId: string) => {
    const runs = (await api.request(`/monitors/${monitorId}/runs?limit=1`, { token: account.token })).body.runs;
    return runs[0];
  };
  const logOf = async (monitorId: string, runId: string) =>
    (await api.request(`/monitors/${monitorId}/runs/${runId}/log`, { token: account.token })).body;

  t.test('a successful command: exit 0, one finished run with exitCode in meta', async (t) => {
    const m = await api.monitor(account, 'ok');
    const result = await pingmon(['run', '--', 'sh', '-c', 'echo fine'], env(m));
    t.equal(result.code, 0);
    t.equal(result.stdout, 'fine\n');
    t.equal(result.stderr, '');
    const run = await lastRun(m);
    t.match(run, { status: 'success', meta: { exitCode: 0 }, hasLog: false });
    t.ok(run.durationMs >= 0, 'start and result paired');
  });

  t.test('exit codes pass through, and the failure says what happened', async (t) => {
    const notExecutable = join(dir, 'script.sh');
    writeFileSync(notExecutable, '#!/bin/sh\necho never\n');
    chmodSync(notExecutable, 0o644);
    const cases: Array<[string[], number, RegExp]> = [
      [['sh', '-c', 'echo broken >&2; exit 3'], 3, /^exit code 3: broken$/],
      [['sh', '-c', 'kill -TERM $$'], 143, /^killed by signal SIGTERM$/],
      [['sh', '-c', 'kill -KILL $$'], 137, /^killed by signal SIGKILL$/],
      [['no-such-command-anywhere'], 127, /^could not start: command not found: no-such-command-anywhere$/],
      [[notExecutable], 126, /^could not start: permission denied/],
    ];
    for (const [command, code, message] of cases) {
      const m = await api.monitor(account, command.join(' '));
      const result = await pingmon(['run', '--', ...command], env(m));
      t.equal(result.code, code, command.join(' '));
      const run = await lastRun(m);
      t.equal(run.status, 'failed');
      t.match(run.errorMessage, message);
      t.equal(run.meta.exitCode, code);
    }
    const broken = await lastRun(await api.monitor(account, 'log of a failure'));
    t.equal(broken, undefined);
  });

  t.test('stdout and stderr pass through byte for byte, binary included, and stdin reaches the command', async (t) => {
    const m = await api.monitor(account, 'bytes');
    const data = randomBytes(3 * 1024 * 1024);
    const result = await pingmonRaw(['run', '--', 'cat'], env(m), data);
    t.equal(result.code, 0);
    t.ok(result.stdout.equals(data), 'stdout is identical');
    const file = join(dir, 'blob');
    writeFileSync(file, data.subarray(0, 100_000));
    const viaStderr = await pingmonRaw(['run', '--', 'sh', '-c', `cat ${file} >&2; exit 1`], env(m));
    t.equal(viaStderr.code, 1);
    t.ok(Buffer.from(viaStderr.stderr, 'latin1').length > 0);
    const exact = await pingmonRaw(['run', '--', 'sh', '-c', `cat ${file} 1>&2`], env(m));
    t.equal(exact.stdout.length, 0);
  });

  t.test(
    'without mkfifo on the PATH the command gets pipes, and everything passes and is logged the same',
    async (t) => {
      const m = await api.monitor(account, 'no fifo');
      // A PATH holding only what the job needs: sh and cat, no mkfifo.
      const bin = join(dir, 'bin-without-mkfifo');
      mkdirSync(bin);
      for (const tool of ['sh', 'cat'])
        symlinkSync(
          execFileSync('sh', ['-c', `command -v ${tool}`])
            .toString()
            .trim(),
          join(bin, tool),
        );
      const data = randomBytes(1024 * 1024);
      const result = await pingmonRaw(
        ['run', '--', 'sh', '-c', 'cat; echo failing >&2; exit 3'],
        { ...env(m), PATH: bin },
        data,
      );
      t.equal(result.code, 3);
      t.ok(result.stdout.equals(data), 'stdout is identical');
      t.equal(
        result.stderr
          .toString()
          .split('\n')
          .filter((line) => line === 'failing').length,
        1,
      );
      const run = await lastRun(m);
      // Two pipes are read in arrival order, not in the order written: "failing" may land before the end of stdout,
      // which a slow reader of ours holds back. The last line of stderr is tracked per stream.
      t.equal(run.errorMessage, 'exit code 3: failing');
      t.match((await logOf(m, run.runId)).content, /\n\[pingmon: \d+ bytes of output left out here\]\n/);
    },
  );

  t.test('the log keeps head and tail with a marker, in each --log-keep mode', async (t) => {
    const script = 'i=0; while [ $i -lt 3000 ]; do echo "line $i"; i=$((i+1)); done; echo "the real error" >&2; exit 1';
    const logs: Record<string, string> = {};
    for (const mode of ['head-tail', 'head', 'tail']) {
      const m = await api.monitor(account, `keep ${mode}`);
      const result = await pingmon(['run', '--log-keep', mode, '--', 'sh', '-c', script], env(m));
      t.equal(result.code, 1);
      const run = await lastRun(m);
      logs[mode] = (await logOf(m, run.runId)).content;
    }
    // stdout and stderr are two pipes: the error line can arrive just before the last stdout lines.
    t.match(
      logs['head-tail'],
      /^line 0\n[\s\S]*\[pingmon: \d+ bytes of output left out here\]\n[\s\S]*the real error\n/,
    );
    t.match(logs['head-tail'], /line 2999\n/);
    t.match(logs.head, /^line 0\n[\s\S]*\[pingmon: \d+ bytes of output left out at the end\]\n$/);
    t.notMatch(logs.head, /the real error|line 2999/);
    t.match(logs.tail, /^\[pingmon: \d+ bytes of output left out at the start\]\n[\s\S]*the real error\n/);
    t.notMatch(logs.tail, /line 0\n/);
    for (const log of Object.values(logs)) t.ok(log.length <= 10_000, `${log.length} characters`);
  });

  t.test('a job printing hundreds of MB keeps the wrapper small', async (t) => {
    const m = await api.monitor(account, 'loud');
    const result = await pingmonRaw(
      ['run', '--', 'sh', '-c', 'head -c 300000000 /dev/zero | tr "\\0" "x"; exit 2'],
      env(m),
    );
    t.equal(result.code, 2);
    t.equal(result.stdout.length, 300_000_000, 'every byte passed through');
    t.ok(
      result.peakRss > 0 && result.peakRss < 150 * 1024 * 1024,
      `peak RSS ${Math.round(result.peakRss / 1048576)} MB`,
    );
    const run = await lastRun(m);
    t.ok((await logOf(m, run.runId)).content.length <= 10_000);
  });

  t.test('meta comes from --meta and from the file named in PINGMON_META_FILE', async (t) => {
    const m = await api.monitor(account, 'meta');
    const result = await pingmon(
      [
        'run',
        '--meta',
        'rowsExpected=10',
        '--meta',
        'batch=3',
        '--',
        'sh',
        '-c',
        'echo "rowsProcessed=0" >> "$PINGMON_META_FILE"; echo "# done" >> "$PINGMON_META_FILE"',
      ],
      env(m),
    );
    t.equal(result.code, 0);
    t.same((await lastRun(m)).meta, { rowsExpected: 10, batch: 3, rowsProcessed: 0, exitCode: 0 });
    const bad = await pingmon(['run', '--', 'sh', '-c', 'echo "nonsense" >> "$PINGMON_META_FILE"'], env(m));
    t.equal(bad.code, 0, 'a bad meta file never fails the job');
    t.match(bad.stderr, /\[pingmon\] PINGMON_META_FILE: "nonsense" is not key=number/);
  });

  t.test('--timeout kills the command and reports it failed', async (t) => {
    const m = await api.monitor(account, 'slow');
    const result = await pingmon(
      ['run', '--timeout', '1s', '--kill-grace', '1s', '--', 'sh', '-c', 'trap "" TERM; sleep 30'],
      env(m),
    );
    t.equal(result.code, 137, 'TERM was ignored, so KILL after the grace');
    t.match((await lastRun(m)).errorMessage, /^timed out after 1s and was killed \(SIGKILL\)$/);
  });

  t.test('--timeout and --kill-grace read every duration the other flags read (1h30m, 2d)', async (t) => {
    const m = await api.monitor(account, 'long');
    for (const [timeout, grace] of [
      ['1h30m', '1m30s'],
      ['2d', '500ms'],
    ]) {
      const result = await pingmon(['run', '--timeout', timeout!, '--kill-grace', grace!, '--', 'true'], env(m));
      t.equal(result.code, 0, `--timeout ${timeout} --kill-grace ${grace}: ${result.stderr}`);
      t.equal(result.stderr, '');
      t.match(await lastRun(m), { status: 'success' });
    }
  });

  t.test('SIGTERM is forwarded to the command, and the result is still sent', async (t) => {
    const m = await api.monitor(account, 'stopped');
    const child = spawnCli(
      ['run', '--', 'sh', '-c', 'trap "echo cleaning up; exit 7" TERM; echo ready; while true; do sleep 0.05; done'],
      env(m),
    );
    const done = finished(child);
    await waitForLine(child, /ready\n/);
    child.kill('SIGTERM');
    const result = await done;
    t.equal(result.code, 7);
    t.match(result.stdout, /cleaning up/);
    // The last line on stderr, else stdout: the shell's "Terminated" for the sleep the signal ended, if it said so.
    t.match(await lastRun(m), { status: 'failed', errorMessage: /^exit code 7: (Terminated|cleaning up)$/ });
  });

  t.test('repeated words in the command are kept as they are', async (t) => {
    const m = await api.monitor(account, 'argv');
    const result = await pingmon(
      ['run', '--monitor', m, '--', 'echo', '--monitor', 'x', '--', 'a', 'a', '--json'],
      env(m),
    );
    t.equal(result.stdout, '--monitor x -- a a --json\n');
  });

  t.test('a command line that does not say what to run, or how, exits 2 and runs nothing', async (t) => {
    const noDash = await pingmon(['run', 'echo', 'hi'], env('mon_x'));
    t.equal(noDash.code, 2);
    t.match(noDash.stderr, /^pingmon: missing the command to run: put it after --/);
    t.equal(noDash.stdout, '');
    const ran = join(dir, 'ran-although-refused');
    const refused: Array<[string[], string]> = [
      [['--timeout', '5x'], '--timeout must be a duration such as 90s, 10m, 1h30m or 2d (got "5x")'],
      [['--timeout', '30m1h'], '--timeout must be a duration such as 90s, 10m, 1h30m or 2d (got "30m1h")'],
      [['--timeout', '-m', 'mon_x'], '--timeout needs a duration such as 90s, 10m, 1h30m or 2d'],
      [['--kill-grace', 'soon'], '--kill-grace must be a duration such as 90s, 10m, 1h30m or 2d (got "soon")'],
      // Longer than a Node timer holds: it would fire at once and kill the job as it starts.
      [['--timeout', '30d'], '--timeout must be at most 24d (got "30d")'],
    ];
    for (const [flags, message] of refused) {
      const result = await pingmon(['run', ...flags, '--', 'touch', ran], env('mon_x'));
      t.equal(result.code, 2, flags.join(' '));
      t.equal(result.stderr, `pingmon: ${message}; the job was not run\n`);
      t.notOk(existsSync(ran), 'the job did not run');
    }
  });

  t.test('without an API key, a monitor or a usable URL the job runs as usual, unreported, and says so', async (t) => {
    const receiver = await startReceiver(t, (_, __, res) => json(res, 500, {}));
    const job = ['sh', '-c', 'echo out; echo err >&2; echo rows=1 >> "$PINGMON_META_FILE"; exit 3'];
    const settings = { PINGMON_URL: receiver.url, PINGMON_API_KEY: account.apiKey, PINGMON_MONITOR: 'mon_x' };
    // Each warning says what is missing and how to set it.
    const cases: Array<[string, Record<string, string>, RegExp]> = [
      ['no API key', { PINGMON_API_KEY: '' }, /^\[pingmon\] missing the API key: add --api-key .*PINGMON_API_KEY/m],
      ['no monitor', { PINGMON_MONITOR: '' }, /^\[pingmon\] missing the monitor: add --monitor .*PINGMON_MONITOR/m],
      ['no URL', { PINGMON_URL: '' }, /^\[pingmon\] missing the server URL: add --url .*PINGMON_URL/m],
      [
        'a bad URL',
        { PINGMON_URL: 'example.com' },
        /^\[pingmon\] the server URL needs http:\/\/ or https:\/\/ in front \(got "example\.com"\)/m,
      ],
    ];
    const unreported = /^\[pingmon\] this run is NOT reported to pingmon: the job runs as usual, and nothing is sent$/m;
    for (const [what, change, warning] of cases) {
      const result = await pingmon(['run', '--', ...job], { ...settings, ...change, XDG_CONFIG_HOME: dir });
      t.equal(result.code, 3, `${what}: the job's exit code`);
      t.equal(result.stdout, 'out\n', what);
      t.match(result.stderr, warning, what);
      t.match(result.stderr, unreported, what);
      t.match(result.stderr, /^err$/m, `${what}: the job's own stderr`);
    }
    const data = randomBytes(200_000);
    const noKey = { ...settings, PINGMON_API_KEY: '', XDG_CONFIG_HOME: dir };
    const piped = await pingmonRaw(['run', '--', 'cat'], noKey, data);
    t.equal(piped.code, 0);
    t.ok(piped.stdout.equals(data), 'stdin and stdout untouched');
    t.equal(receiver.received.length, 0, 'nothing was sent');
  });

  t.test('flags pingmon cannot read are left out with a warning, and the run is reported without them', async (t) => {
    const m = await api.monitor(account, 'odd flags');
    const flags = ['--bogus', '--meta', 'rows=b', '--meta', 'rows=5', '--log-keep', 'middle', '--ping-timeout', '0'];
    const result = await pingmon(['run', ...flags, 'stray', '--', 'sh', '-c', 'echo ran; exit 1'], env(m));
    t.equal(result.code, 1);
    t.equal(result.stdout, 'ran\n');
    const warnings = result.stderr.split('\n').filter(Boolean);
    t.same(warnings, [
      '[pingmon] unknown option --bogus: ignored (see pingmon run --help)',
      '[pingmon] unexpected argument "stray" before --: ignored (see pingmon run --help)',
      '[pingmon] --ping-timeout must be a duration longer than 0 such as 2s (got "0"): using 2s',
      '[pingmon] --meta: "rows=b" is not key=number (e.g. rowsProcessed=120): ignored',
      '[pingmon] --log-keep must be one of head-tail, head, tail (got "middle"): using head-tail',
    ]);
    t.match(await lastRun(m), { status: 'failed', errorMessage: 'exit code 1: ran', meta: { rows: 5, exitCode: 1 } });
  });

  t.test('the job runs and keeps its exit code when the server is down, refuses the key or limits it', async (t) => {
    const m = await api.monitor(account, 'unlucky');
    const down = await pingmon(['run', '--ping-timeout', '1s', '--', 'sh', '-c', 'echo still ran; exit 4'], {
      ...env(m),
      PINGMON_URL: await deadUrl(),
    });
    t.equal(down.code, 4);
    t.equal(down.stdout, 'still ran\n');
    t.match(down.stderr, /^\[pingmon\] cannot reach the pingmon server/m);
    const refused = await pingmon(['run', '--', 'sh', '-c', 'exit 5'], {
      ...env(m),
      PINGMON_API_KEY: 'pm_revoked_or_wrong',
    });
    t.equal(refused.code, 5);
    t.match(refused.stderr, /\[pingmon\] Invalid or revoked API key/);
    const sameReason = '[pingmon] the fail was refused too, for the same reason as the start (invalid_api_key). ';
    t.ok(refused.stderr.endsWith(`\n${sameReason}This run is NOT recorded.\n`), refused.stderr);
    t.equal(refused.stderr.match(/Invalid or revoked API key/g)?.length, 1, 'the message is said once');
    const free = await api.account('free');
    const limited = await api.monitor(free, 'limited');
    await api.ping(free, limited, 'success');
    // 10s: time enough for a loaded machine to answer (1s was not, under two busy processes), and still shorter
    // than the Retry-After of the limit (about 60 s), so that the wrapper gives up at once instead of waiting.
    const slow = await pingmon(['run', '--ping-timeout', '10s', '--', 'true'], {
      ...env(limited),
      PINGMON_API_KEY: free.apiKey,
    });
    t.equal(slow.code, 0);
    t.match(slow.stderr, /\[pingmon\] .*Wait \d+ seconds/);
    // Its start refused, the success opens the run itself and is refused as well: one message, then what it means.
    const lines = slow.stderr.split('\n').filter(Boolean);
    t.equal(lines.length, 2, slow.stderr);
    t.match(lines[0], /^\[pingmon\] This monitor opened a run less than 60 seconds ago, .* Wait \d+ seconds/);
    t.equal(
      lines[1],
      '[pingmon] the success was refused too (rate_limited): with its start refused, the result ' +
        "opens the run itself, and the plan's interval had not passed. This run is NOT recorded.",
    );
    const runs = (await api.request(`/monitors/${limited}/runs`, { token: free.token })).body.runs;
    t.equal(runs.length, 1, 'no second run');
  });

  t.test('a command that leaves children behind still ends the wrapper, and a timeout kills them all', async (t) => {
    const left = join(dir, 'left-behind.pid');
    const m = await api.monitor(account, 'daemonizes');
    const result = await pingmon(['run', '--', 'sh', '-c', `sleep 60 & echo $! > ${left}; echo started`], env(m));
    t.equal(result.code, 0);
    t.equal(result.stdout, 'started\n');
    t.match(await lastRun(m), { status: 'success' });
    process.kill(Number(readFileSync(left, 'utf8')), 'SIGKILL');

    const grandchild = join(dir, 'grandchild.pid');
    const slow = await api.monitor(account, 'slow grandchild');
    const timedOut = await pingmon(
      ['run', '--timeout', '1s', '--', 'sh', '-c', `sleep 60 & echo $! > ${grandchild}; wait`],
      env(slow),
    );
    t.equal(timedOut.code, 143);
    t.match((await lastRun(slow)).errorMessage, /^timed out after 1s/);
    t.ok(await gone(Number(readFileSync(grandchild, 'utf8'))), 'the whole process group was killed');
  });

  t.test('a reader that goes away ends the command as a closed pipe would, and the result is still sent', async (t) => {
    const m = await api.monitor(account, 'yes | head -1');
    const child = spawnCli(['run', '--', 'yes'], env(m));
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout!.once('data', () => child.stdout!.destroy());
    const code = await new Promise((resolve) => child.on('close', resolve));
    t.not(code, 0);
    t.notMatch(stderr, /at .*\.js:\d+/, 'no stack trace');
    t.match(await lastRun(m), { status: 'failed' });
  });

  t.test('could-not-start says so on stderr too', async (t) => {
    const m = await api.monitor(account, 'missing');
    const result = await pingmon(['run', '--', 'no-such-command-anywhere'], env(m));
    t.equal(result.code, 127);
    t.equal(result.stderr, 'pingmon: could not start: command not found: no-such-command-anywhere\n');
  });

  t.test('a broken config file or meta file never stops the job', async (t) => {
    const m = await api.monitor(account, 'broken settings');
    const broken = tempDir('pingmon-broken-config-');
    mkdirSync(join(broken, 'pingmon'));
    writeFileSync(join(broken, 'pingmon', 'config.json'), '{ not json');
    const result = await pingmon(['run', '--', 'sh', '-c', 'echo ran'], { ...env(m), XDG_CONFIG_HOME: broken });
    t.equal(result.code, 0);
    t.equal(result.stdout, 'ran\n');
    t.match(result.stderr, /^\[pingmon\] cannot read .*config\.json/);
    t.match(await lastRun(m), { status: 'success' });

    const lines = ['good=1', 'not a number', ...Array.from({ length: 60 }, (_, i) => `k${i}=${i}`)].join('\n');
    const many = await pingmon(['run', '--', 'sh', '-c', `printf '${lines}\\n' > "$PINGMON_META_FILE"`], env(m));
    t.equal(many.code, 0);
    t.match(many.stderr, /"not a number" is not key=number.*line skipped/);
    t.match(many.stderr, /only the first 49 were sent/);
    const run = await lastRun(m);
    t.equal(run.status, 'success', 'the result was accepted');
    t.equal(Object.keys(run.meta).length, 50);
    t.match(run.meta, { good: 1, k0: 0, exitCode: 0 });
  });
});
