import t from 'tap';
import type { Monitor } from '@pingmon/sdk';
import { pingmon } from '../helpers/cli.js';
import { TestClock } from '../helpers/clock.js';
import { TestServer } from '../helpers/server.js';

// `pingmon monitors create|update|pause|resume|list|show` with schedules, on a server whose clock is a day before
// Berlin's spring-forward night: few processes, each checking several things.

t.test('schedules from the command line', async (t) => {
  const clock = new TestClock(Date.parse('2027-03-27T12:00:00Z'));
  // Sweeps only when told to (an hour of real time between its own): a jump of the clock under 3 hours is not an
  // outage of pingmon (docs/schedules.md).
  const api = await TestServer.start(t, 'sqlite', { clock: clock.read, sweepIntervalMs: 3_600_000 });
  const account = await api.account('unlimited');
  const env = { PINGMON_URL: api.url, PINGMON_TOKEN: account.token };
  const cli = (...args: string[]) => pingmon(args, env);

  const created = await cli(
    'monitors',
    'create',
    'nightly backup',
    '--cron',
    '30 2 * * *',
    '--tz',
    'Europe/Berlin',
    '--grace',
    '10m',
    '--max-runtime',
    '2h',
    '--failure-threshold',
    '2',
    '--json',
  );
  t.equal(created.code, 0, created.stderr);
  const monitor = JSON.parse(created.stdout) as Monitor;
  t.match(monitor, {
    schedule: { cron: '30 2 * * *', timezone: 'Europe/Berlin' },
    startGrace: 600,
    maxRuntime: 7200,
    failureThreshold: 2,
    status: 'new',
    nextExpectedAt: '2027-03-28T01:30:00.000Z',
  });
  const id = monitor.monitorId;

  const show = await cli('monitors', 'show', id);
  t.equal(show.code, 0, show.stderr);
  t.match(show.stdout, /^status\s+· new$/m);
  t.match(show.stdout, /^schedule\s+30 2 \* \* \* \(Europe\/Berlin\)$/m);
  t.match(show.stdout, /^grace\s+10m/m);
  t.match(show.stdout, /^max runtime\s+2h$/m);
  t.match(show.stdout, /^thresholds\s+down after 2 failures in a row, up after 1 success$/m);
  t.match(
    show.stdout,
    /Next expected\n {2}Sun 2027-03-28 03:30 CEST \(01:30 UTC\)\n {2}Mon 2027-03-29 02:30 CEST \(00:30 UTC\)\n/,
    'the night 02:30 does not exist, it is expected at 03:30 CEST; local time and UTC side by side',
  );

  t.match(show.stdout, /^fail alerts\s+every: each failed run alerts$/m);
  const first = await cli('monitors', 'create', 'noisy job', '--fail-alerts', 'first');
  t.equal(first.code, 0, first.stderr);
  const noisy = /Created (mon_\w+)/.exec(first.stdout)![1]!;
  const noisyShow = await cli('monitors', 'show', noisy);
  t.match(noisyShow.stdout, /^fail alerts\s+first: only the failed run that opens an incident alerts$/m);
  for (const n of [1, 2, 3]) await api.ping(account, noisy, 'fail', { errorMessage: `exit code ${n}` });
  t.match(
    (await cli('monitors', 'show', noisy)).stdout,
    /^status\s+✗ down since .* \(a run failed; 3 failed runs so far\)$/m,
    'the incident counts its failed runs',
  );
  const every = await cli('monitors', 'update', noisy, '--fail-alerts', 'every', '--json');
  t.match(JSON.parse(every.stdout), { failAlerts: 'every' });
  const badChoice = await cli('monitors', 'update', noisy, '--fail-alerts', 'once');
  t.equal(badChoice.code, 2, 'an unknown choice is a usage error');
  t.match(badChoice.stderr, /Expected --fail-alerts=once to be one of: every, first/);

  const update = await cli('monitors', 'update', id, '--tz', 'America/New_York', '--renotify', '1h', '--json');
  t.equal(update.code, 0, update.stderr);
  t.match(JSON.parse(update.stdout), {
    schedule: { cron: '30 2 * * *', timezone: 'America/New_York' },
    renotifyAfter: 3600,
    nextExpectedAt: '2027-03-28T06:30:00.000Z',
  });

  const badDuration = await cli('monitors', 'update', id, '--grace', '10 minutes');
  t.equal(badDuration.code, 2, 'a duration that cannot be read is a usage error');
  t.equal(badDuration.stderr, 'pingmon: --grace must be a duration such as 90s, 10m, 1h30m or 2d (got "10 minutes")\n');
  const fraction = await cli('monitors', 'update', id, '--max-runtime', '1500ms');
  t.equal(fraction.code, 2, 'the API counts whole seconds');
  t.match(
    fraction.stderr,
    /^pingmon: --max-runtime must be a duration of whole seconds such as 90s, .* \(got "1500ms"\)/,
  );
  const days = await cli('monitors', 'create', 'weekly export', '--max-runtime', '2d', '--grace', '1.5h', '--json');
  t.equal(days.code, 0, days.stderr);
  t.match(JSON.parse(days.stdout), { maxRuntime: 172_800, startGrace: 5_400 });
  const nothing = await cli('monitors', 'update', id);
  t.equal(nothing.code, 2);
  t.match(nothing.stderr, /^pingmon: say what to change: --name, --slug, --cron/);
  const badZone = await cli('monitors', 'update', id, '--tz', 'Europe/Berln');
  t.equal(badZone.code, 1);
  t.match(badZone.stderr, /^pingmon: schedule\.timezone: unknown timezone "Europe\/Berln"; use an IANA name/);

  const paused = await cli('monitors', 'pause', id);
  t.equal(paused.code, 0, paused.stderr);
  t.match(paused.stdout, new RegExp(`^Paused ${id} \\(nightly backup\\): no alerts until pingmon monitors resume`));
  const plain = await api.monitor(account, 'plain job');
  await api.ping(account, plain, 'fail', { errorMessage: 'exit code 1' });
  const list = await cli('monitors', 'list');
  t.equal(list.code, 0, list.stderr);
  const rows = list.stdout.split('\n');
  t.match(rows[0], /^SLUG\s+NAME\s+STATUS\s+NEXT \(UTC\)\s+LAST RUN/);
  t.match(
    rows.find((r) => r.includes('nightly backup')),
    /nightly backup\s+- paused\s+—/,
  );
  t.match(
    rows.find((r) => r.includes('plain job')),
    /plain job\s+✗ down\s+—\s+✗ failed/,
  );

  const resumed = await cli('monitors', 'resume', id);
  t.equal(resumed.code, 0, resumed.stderr);
  t.match(resumed.stdout, /· new; next run expected 2027-03-28 06:30:00 UTC\.$/m);
  const cleared = await cli('monitors', 'update', id, '--no-schedule', '--no-max-runtime', '--json');
  t.match(JSON.parse(cleared.stdout), { schedule: null, maxRuntime: null, nextExpectedAt: null });

  const tenMinutes = await api.request<Monitor>('/monitors', {
    token: account.token,
    body: { name: 'every ten minutes', schedule: { every: 600 }, startGrace: 60 },
  });
  clock.advance(11 * 60_000);
  await api.server.app.sweeper.sweepNow();
  const alerts = await cli('alerts', '--monitor', tenMinutes.body.monitorId);
  t.equal(alerts.code, 0, alerts.stderr);
  const [head, message, deliveries] = alerts.stdout.split('\n');
  t.match(head, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}✗ missed {2}every ten minutes \(mon_\w+\)$/);
  t.match(message, /^ {2}No run started by .*\(startGrace 1m\)\. It has neve/, 'a missed alert: its message instead');
  t.equal(deliveries, '  no channel took it');
});
