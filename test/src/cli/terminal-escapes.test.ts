import { spawn } from 'node:child_process';
import t from 'tap';
import type { Test } from 'tap';
import { alertsCli } from '../helpers/alerts-cli.js';
import { CLI, cliEnv, pingmonRaw } from '../helpers/cli.js';
import { startReceiver } from '../helpers/receiver.js';
import { waitFor } from '../helpers/wait.js';

// Names, error messages and logs are written by whoever holds an API key or an account: none of it may reach an
// administrator's terminal as a control sequence (clear the screen, set the title, ring the bell, reorder text).

/** Erase the screen, an OSC title, a bell, an 8-bit CSI (C1) and a right-to-left override. */
const HOSTILE = '\x1b[2J\x1b]0;pwned\x07\x07\x9b31m\u202e';
/** What a terminal would act on: C0 controls but tab and newline, DEL, C1, bidi overrides. */
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;
const LOG = `progress 10%\rprogress 100%\n\x1b[31mred\x1b[0m\tafter a tab\n\x1b]0;pwned\x07done ${HOSTILE}\n`;

t.test('the commands print other people’s text without its control characters', async (t) => {
  const { api, as, configHome } = await alertsCli(t);
  const alice = await api.account();
  const { cli, json } = as(alice);
  const env = { PINGMON_URL: api.url, PINGMON_TOKEN: alice.token, XDG_CONFIG_HOME: configHome };
  const receiver = await startReceiver(t, (_req, _n, res) => {
    res.writeHead(400, { 'content-type': 'text/plain' });
    res.end(`refused ${HOSTILE}here`);
  });
  const safe = (t: Test, what: string, result: { code: number | null; stdout: string; stderr: string }) => {
    t.equal(result.code, 0, `${what}: ${result.stderr}`);
    t.notMatch(result.stdout + result.stderr, UNSAFE, `${what} prints no control character`);
    return result.stdout;
  };

  const created = safe(t, 'monitors create', await cli('monitors', 'create', `nightly ${HOSTILE}backup`));
  t.match(created, /nightly backup/);
  const monitorId = /mon_\w+/.exec(created)![0];
  safe(t, 'monitors rename', await cli('monitors', 'rename', monitorId, `db ${HOSTILE}backup`));
  const name = `--name=ops ${HOSTILE}hook`;
  const added = safe(t, 'channels add', await cli('channels', 'add', '--type=webhook', `--url=${receiver.url}`, name));
  t.match(added, /ops hook/);
  const channelId = /ch_\w+/.exec(added)![0];
  t.match(safe(t, 'keys create', await cli('keys', 'create', `--name=host ${HOSTILE}a`)), /host a/);
  const metric = `rows${HOSTILE}`;
  const rule = await api.request(`/monitors/${monitorId}/rules`, {
    token: alice.token,
    body: { metric, op: 'lt', value: 1 },
  });
  t.equal(rule.status, 201, 'the rule is added');
  for (const [runId, kind, body] of [
    ['failed-run', 'fail', { errorMessage: `disk ${HOSTILE}full\nsecond line`, logOutput: LOG }],
    ['silent-run', 'success', { meta: { [metric]: 0 } }],
  ] as const) {
    t.equal((await api.ping(alice, monitorId, 'start', { runId })).status, 200);
    t.equal((await api.ping(alice, monitorId, kind, { runId, ...body })).status, 200);
  }
  await waitFor(
    async () => {
      const { alerts } = (await api.request('/alerts', { token: alice.token })).body;
      const refused = alerts.filter((a: { deliveries: { lastError: unknown }[] }) => a.deliveries[0]?.lastError);
      return refused.length === 3;
    },
    { what: 'the fail, silent failure and recovered alerts refused by the channel', intervalMs: 200 },
  );

  t.test('tables, blocks and lines', async (t) => {
    t.match(safe(t, 'monitors list', await cli('monitors', 'list')), /db backup/);
    t.match(safe(t, 'monitors show', await cli('monitors', 'show', monitorId)), /name {8}db backup\n/);
    const runs = safe(t, 'runs', await cli('runs', monitorId));
    t.match(runs, /disk full\n/);
    t.match(runs, /silent failure: rows < 1 \(was 0\)/);
    const alerts = safe(t, 'alerts', await cli('alerts'));
    t.match(alerts, /db backup \(mon_/);
    t.match(alerts, /: disk full\n/);
    t.match(alerts, /ops hook.*refused here/);
    t.match(safe(t, 'channels list', await cli('channels', 'list')), /ops hook/);
    t.match(safe(t, 'keys list', await cli('keys', 'list')), /host a/);
    t.match(safe(t, 'rules list', await cli('rules', 'list', monitorId)), /rows < 1/);
  });

  t.test('an error, the receiver’s answer in it, on standard error', async (t) => {
    const tested = await cli('channels', 'test', channelId);
    t.equal(tested.code, 1);
    t.match(tested.stderr, /^pingmon: not delivered to ch_\w+: .*refused here/);
    t.notMatch(tested.stderr, UNSAFE);
  });

  t.test('--json escapes them, and parses back to the text as stored', async (t) => {
    const monitors = safe(t, 'monitors list --json', await cli('monitors', 'list', '--json'));
    t.equal(JSON.parse(monitors)[0].name, `db ${HOSTILE}backup`);
    for (const args of [
      ['runs', monitorId],
      ['alerts'],
      ['channels', 'list'],
      ['keys', 'list'],
      ['rules', 'list', monitorId],
    ]) {
      safe(t, `${args.join(' ')} --json`, await cli(...args, '--json'));
    }
    const [run] = await json('runs', monitorId, '--status', 'failed');
    t.equal(run.errorMessage, `disk ${HOSTILE}full\nsecond line`);
  });

  t.test('logs into a file or a pipe is the log as stored, byte for byte', async (t) => {
    const piped = await pingmonRaw(['logs', monitorId, 'failed-run'], env);
    t.equal(piped.code, 0, piped.stderr);
    t.same(piped.stdout, Buffer.from(LOG, 'utf8'));
  });

  t.test('logs onto a terminal is cleaned as `pingmon browse` shows it', async (t) => {
    // script(1) gives the command a real terminal and copies what it writes there (a newline becomes CR LF).
    const command = [process.execPath, CLI, 'logs', monitorId, 'failed-run'].map((a) => `'${a}'`).join(' ');
    const child = spawn('script', ['--quiet', '--return', '--command', command, '/dev/null'], {
      env: cliEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    const code = await new Promise((resolve, reject) => {
      child.on('error', (err) => reject(new Error(`this test needs script(1) from util-linux: ${err.message}`)));
      child.on('close', resolve);
    });
    t.equal(code, 0);
    const shown = Buffer.concat(out).toString('utf8').replaceAll('\r\n', '\n');
    t.equal(shown, 'progress 10%\nprogress 100%\nred     after a tab\ndone \n');
  });
});

t.test("pingmon run's warnings quote a server's refusal without its control characters", async (t) => {
  const server = await startReceiver(t, (_req, _n, res) => {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ success: false, statusCode: 404, code: 'not_found', message: `gone ${HOSTILE}here` }));
  });
  const env = { PINGMON_URL: server.url, PINGMON_API_KEY: 'pm_x', PINGMON_MONITOR: 'mon_x' };
  const result = await pingmonRaw(['run', '--', 'true'], env);
  t.equal(result.code, 0, 'the job exits with its own code');
  t.match(result.stderr, /\[pingmon\] .*gone .*here/);
  t.notMatch(result.stderr, UNSAFE, 'no control character on the job host’s terminal');
});
