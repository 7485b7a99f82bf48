import t from 'tap';
import type { MonitorEvent } from '@pingmon/sdk';
import { pingmon } from '../helpers/cli.js';
import { TestClock } from '../helpers/clock.js';
import { TestServer } from '../helpers/server.js';

// `pingmon monitors events` as a real process (docs/cli.md#pingmon-monitors-events).

t.test("a monitor's timeline from the command line", async (t) => {
  const clock = new TestClock(Date.parse('2027-03-27T12:00:00.000Z'));
  const api = await TestServer.start(t, 'sqlite', { clock: clock.read });
  const account = await api.account('unlimited');
  const cli = (...args: string[]) => pingmon(args, { PINGMON_URL: api.url, PINGMON_TOKEN: account.token });
  const id = await api.monitor(account, 'nightly backup');

  const empty = await cli('monitors', 'events', id);
  t.equal(empty.code, 0, empty.stderr);
  t.equal(empty.stdout, 'Nothing has happened yet.\n');
  await api.ping(account, id, 'start', { runId: 'cli-run-0001', host: 'web-1' });
  clock.advance(200_000);
  await api.ping(account, id, 'fail', { runId: 'cli-run-0001', errorMessage: 'exit code 2\nat line 3' });
  clock.advance(60_000);
  await api.request(`/monitors/${id}`, { method: 'PATCH', token: account.token, body: { paused: true } });

  const all = await cli('monitors', 'events', id);
  t.equal(all.code, 0, all.stderr);
  t.same(all.stdout.split('\n'), [
    'TIME                 EVENT          DETAIL',
    '2027-03-27 12:04:20  · paused',
    '2027-03-27 12:03:20  » alert        fail: no channel took it',
    '2027-03-27 12:03:20  ✗ down         a run failed (cli-run-0001)',
    '2027-03-27 12:03:20  ✗ run failed   cli-run-0001 in 3m 20s: exit code 2',
    '2027-03-27 12:00:00  ● run started  cli-run-0001 on web-1',
    '',
  ]);
  const some = await cli('monitors', 'events', id, '--kind', 'paused,run_started', '--kind', 'alert', '--json');
  t.equal(some.code, 0, some.stderr);
  t.same(
    (JSON.parse(some.stdout) as MonitorEvent[]).map((e) => e.kind),
    ['paused', 'alert', 'run_started'],
  );
  const limited = await cli('monitors', 'events', id, '--limit', '1', '--json');
  t.same(JSON.parse(limited.stdout), [{ kind: 'paused', at: '2027-03-27T12:04:20.000Z' }]);
  const none = await cli('monitors', 'events', id, '--kind', 'missed,timed_out');
  t.equal(none.stdout, 'No missed or timed_out events.\n');
  const bad = await cli('monitors', 'events', id, '--kind', 'exploded');
  t.equal(bad.code, 2, 'an unknown kind is a usage error');
  t.match(bad.stderr, /exploded/);
  const missing = await cli('monitors', 'events', 'mon_nope');
  t.equal(missing.code, 1);
  t.match(missing.stderr, /No monitor mon_nope in your account/);
});
