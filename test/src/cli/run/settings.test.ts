import type { ServerResponse } from 'node:http';
import t from 'tap';
import { pingmon } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/databases.js';
import { json, startReceiver } from '../../helpers/receiver.js';
import type { Received } from '../../helpers/receiver.js';

// `pingmon run`'s monitor settings (--cron, --grace…) as they leave it, seen by a local receiver: what each flag
// becomes, what is left out and said, and what happens when the server refuses them. The real server's side:
// test/src/e2e/run-settings.test.ts.

const ACK = {
  success: true,
  data: { received: true, monitorId: 'mon_x', runId: 'r', status: 'running', timestamp: '' },
};

function ok(_: Received, __: number, res: ServerResponse) {
  json(res, 200, ACK);
}

const pings = (received: Received[]) =>
  received.map((r) => ({ path: r.url, body: JSON.parse(r.body) as Record<string, unknown> }));

/** `pingmon run` with the settings flags given, reporting to `url` as monitor nightly-backup. */
function run(url: string, flags: string[], env: Record<string, string> = {}) {
  const reporting = ['--monitor', 'nightly-backup', '--api-key', 'pm_test', '--url', url];
  return pingmon(['run', ...reporting, ...flags, '--', 'sh', '-c', 'echo out'], {
    XDG_CONFIG_HOME: tempDir('pingmon-run-settings-'),
    ...env,
  });
}

t.test('pingmon run sends the settings its flags give with the start, and only with the start', async (t) => {
  const cases: Array<[string[], Record<string, unknown> | undefined]> = [
    [
      ['--cron', '0 3 * * *', '--tz', 'Europe/Berlin', '--grace', '10m', '--max-runtime', '2h'],
      { schedule: { cron: '0 3 * * *', timezone: 'Europe/Berlin' }, startGrace: 600, maxRuntime: 7200 },
    ],
    [['--cron', '*/5 * * * *'], { schedule: { cron: '*/5 * * * *' } }],
    [['--every', '1h30m', '--grace', '90'], { schedule: { every: 5400 }, startGrace: 90 }],
    [['--failure-threshold', '2', '--recovery-threshold', '3'], { failureThreshold: 2, recoveryThreshold: 3 }],
    // The range is the server's call: sent as given.
    [['--failure-threshold', '0'], { failureThreshold: 0 }],
    [[], undefined],
  ];
  for (const [flags, settings] of cases) {
    const receiver = await startReceiver(t, ok);
    const result = await run(receiver.url, flags);
    t.equal(result.code, 0, flags.join(' '));
    t.equal(result.stdout, 'out\n');
    t.equal(result.stderr, '', `${flags.join(' ')}: nothing to say`);
    const [start, success] = pings(receiver.received);
    t.equal(start?.path, '/api/v1/ping/nightly-backup/start');
    t.same(start?.body.monitor, settings, flags.join(' '));
    t.equal(success?.path, '/api/v1/ping/nightly-backup/success');
    t.notOk('monitor' in success!.body, 'the result carries no settings');
    await receiver.close();
  }
});

t.test('a settings flag pingmon cannot read is left out with a warning, and the job runs', async (t) => {
  const cases: Array<[string[], string, Record<string, unknown> | undefined]> = [
    [
      ['--cron', '0 3 * * *', '--grace', '10 minutes'],
      '--grace must be a duration such as 90s, 10m, 1h30m or 2d (got "10 minutes"): ignored',
      { schedule: { cron: '0 3 * * *' } },
    ],
    [
      ['--max-runtime', '1500ms', '--grace', '5m'],
      '--max-runtime must be a duration of whole seconds such as 90s, 10m, 1h30m or 2d (got "1500ms"): ignored',
      { startGrace: 300 },
    ],
    [
      ['--every', '0'],
      '--every must be a duration longer than 0 such as 90s, 10m, 1h30m or 2d (got "0"): ignored',
      undefined,
    ],
    [
      ['--recovery-threshold', 'two'],
      '--recovery-threshold must be a whole number such as 2 (got "two"): ignored',
      undefined,
    ],
    [
      ['--tz', 'Europe/Berlin', '--grace', '1m'],
      "--tz goes with a cron schedule: give --cron too, e.g. --cron '0 3 * * *': ignored",
      { startGrace: 60 },
    ],
    [
      ['--cron', '0 3 * * *', '--every', '1d'],
      '--cron and --every are two kinds of schedule: both ignored (give one of them)',
      undefined,
    ],
    [['--cron'], '--cron has no value: ignored', undefined],
  ];
  for (const [flags, warning, settings] of cases) {
    const receiver = await startReceiver(t, ok);
    const result = await run(receiver.url, flags);
    t.equal(result.code, 0, flags.join(' '));
    t.equal(result.stdout, 'out\n');
    t.equal(result.stderr, `[pingmon] ${warning}\n`, flags.join(' '));
    const [start] = pings(receiver.received);
    t.same(start?.body.monitor, settings, `${flags.join(' ')}: the rest is sent`);
    t.equal(receiver.received.length, 2, 'the run is reported');
    await receiver.close();
  }
});

t.test('settings the server refuses: one [pingmon] line, the start sent again without them', async (t) => {
  const refusal = {
    success: false,
    statusCode: 400,
    error: 'Bad Request',
    code: 'invalid_monitor',
    message: 'monitor.schedule.timezone: unknown timezone "Europe/Berln"; use an IANA name such as Europe/Berlin',
  };
  const receiver = await startReceiver(t, (req, _, res) => {
    if (req.url.endsWith('/start') && 'monitor' in JSON.parse(req.body)) json(res, 400, refusal);
    else json(res, 200, ACK);
  });
  const flags = ['--cron', '0 3 * * *', '--tz', 'Europe/Berln'];
  const result = await run(receiver.url, [...flags, '--timeout', '1m']);
  t.equal(result.code, 0);
  t.equal(result.stdout, 'out\n', 'the job ran');
  t.equal(
    result.stderr,
    `[pingmon] the monitor settings were refused (${refusal.message}): the run is reported without them\n`,
  );
  const sent = pings(receiver.received);
  t.same(
    sent.map((p) => [p.path.replace('/api/v1/ping/nightly-backup/', ''), 'monitor' in p.body]),
    [
      ['start', true],
      ['start', false],
      ['success', false],
    ],
  );
  t.equal(sent[0]!.body.runId, sent[1]!.body.runId, 'the same run');
});

t.test(
  'a refusal about the monitor or the key is not blamed on the settings: the start is not sent twice',
  async (t) => {
    for (const [status, code] of [
      [404, 'monitor_not_found'],
      [401, 'invalid_api_key'],
    ] as const) {
      const answer = { success: false, statusCode: status, error: 'No', code, message: `refused (${code})` };
      const receiver = await startReceiver(t, (_, __, res) => json(res, status, answer));
      const result = await run(receiver.url, ['--cron', '0 3 * * *']);
      t.equal(result.code, 0);
      t.equal(result.stdout, 'out\n');
      t.match(result.stderr, `[pingmon] refused (${code})\n`);
      t.notMatch(result.stderr, /settings/);
      t.same(
        pings(receiver.received).map((p) => p.path.split('/').pop()),
        ['start', 'success'],
        `${status}: one start`,
      );
      await receiver.close();
    }
  },
);

t.test('a start kept in the spool keeps its settings, and the flush drops them if they are refused', async (t) => {
  const state = { XDG_STATE_HOME: tempDir('pingmon-run-settings-state-') };
  const first = await startReceiver(t, ok);
  const { port, url } = first;
  await first.close();
  const result = await run(url, ['--cron', '0 3 * * *', '--ping-timeout', '300ms'], state);
  t.equal(result.code, 0);
  t.match(result.stderr, /the start is kept in the spool/);
  const refusal = { success: false, statusCode: 403, error: 'Forbidden', code: 'provision_refused', message: 'no' };
  const back = await startReceiver(
    t,
    (req, _, res) => {
      if (req.url.endsWith('/start') && 'monitor' in JSON.parse(req.body)) json(res, 403, refusal);
      else json(res, 200, ACK);
    },
    { port },
  );
  const flushed = await pingmon(['flush', '--json'], state);
  t.equal(flushed.code, 0, flushed.stderr);
  const report = JSON.parse(flushed.stdout) as { delivered: number; withoutSettings: Array<{ reason: string }> };
  t.equal(report.delivered, 2);
  t.match(report.withoutSettings, [
    { reason: 'the monitor settings were refused (no): the run is reported without them' },
  ]);
  const sent = pings(back.received);
  t.same(sent[0]!.body.monitor, { schedule: { cron: '0 3 * * *' } }, 'the spooled start carried the settings');
  t.same(
    sent.map((p) => [p.path.split('/').pop(), 'monitor' in p.body]),
    [
      ['start', true],
      ['start', false],
      ['success', false],
    ],
  );
});
