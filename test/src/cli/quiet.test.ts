import t from 'tap';
import type { MaintenanceWindow, Monitor } from '@pingmon/sdk';
import { pingmon } from '../helpers/cli.js';
import { TestServer } from '../helpers/server.js';

// `pingmon monitors snooze` and `pingmon maintenance add|list|remove` as real processes (docs/cli.md).

t.test('snoozes and maintenance windows from the command line', async (t) => {
  const api = await TestServer.start(t, 'sqlite');
  const account = await api.account('unlimited');
  const env = { PINGMON_URL: api.url, PINGMON_TOKEN: account.token };
  const cli = (...args: string[]) => pingmon(args, env);
  const id = await api.monitor(account, 'nightly backup');

  const snoozed = await cli('monitors', 'snooze', id, '2h');
  t.equal(snoozed.code, 0, snoozed.stderr);
  const time = '\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC';
  t.match(snoozed.stdout, new RegExp(`^Snoozed ${id} \\(nightly backup\\) until ${time}`));
  t.match(snoozed.stdout, new RegExp(`End it early with \`pingmon monitors snooze ${id} 0\``));
  const json = await cli('monitors', 'snooze', id, '30m', '--json');
  const until = Date.parse((JSON.parse(json.stdout) as Monitor).snoozedUntil ?? '');
  t.ok(Math.abs(until - (Date.now() + 30 * 60_000)) < 60_000, '30m from now');
  const at = await cli('monitors', 'snooze', id, '--until', '2099-01-01T00:00:00Z', '--json');
  t.equal(at.code, 1, 'over a year ahead');
  t.match(at.stderr, /^pingmon: snoozedUntil is over a year ahead: pause the monitor instead\./);
  const past = await cli('monitors', 'snooze', id, '--until', '2001-01-01T00:00:00Z');
  t.equal(past.code, 1);
  t.match(past.stderr, /^pingmon: snoozedUntil 2001-01-01T00:00:00\.000Z is not in the future/);
  const bad = await cli('monitors', 'snooze', id, 'soon');
  t.equal(bad.code, 2, 'a duration that cannot be read is a usage error');
  t.equal(
    bad.stderr,
    'pingmon: DURATION must be a duration such as 90s, 10m, 1h30m or 2d (got "soon"), or 0 to end the snooze\n',
  );
  const none = await cli('monitors', 'snooze', id);
  t.equal(none.code, 2);
  t.match(none.stderr, /give how long/);
  const show = await cli('monitors', 'show', id);
  t.match(show.stdout, /^status\s+· new, snoozed until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/m);
  const ended = await cli('monitors', 'snooze', id, '0');
  t.equal(ended.code, 0, ended.stderr);
  t.match(ended.stdout, new RegExp(`^${id} \\(nightly backup\\) is not snoozed: it alerts again\\.`));
  t.equal((await api.request(`/monitors/${id}`, { token: account.token })).body.snoozedUntil, null);

  const empty = await cli('maintenance', 'list');
  t.match(empty.stdout, /^No maintenance windows: add one with `pingmon maintenance add/);
  const add = await cli('maintenance', 'add', '--cron', '0 2 * * 0', '--tz', 'Europe/Berlin', '--for', '2h');
  t.equal(add.code, 0, add.stderr);
  t.match(add.stdout, /^Added mw_\w+: '0 2 \* \* 0' \(Europe\/Berlin\) for 2h, every monitor\. Next: /);
  const one = await cli('maintenance', 'add', '--cron', '30 1 * * *', '--for', '45m', '--monitor', id, '--json');
  t.equal(one.code, 0, one.stderr);
  const window = JSON.parse(one.stdout) as MaintenanceWindow;
  t.match(window, { cron: '30 1 * * *', timezone: 'UTC', duration: 2700, monitorIds: [id] });
  const list = await cli('maintenance', 'list');
  t.match(list.stdout, /^ID\s+CRON\s+TIMEZONE\s+FOR\s+MONITORS\s+NEXT \(UTC\)$/m);
  t.match(list.stdout, /0 2 \* \* 0\s+Europe\/Berlin\s+2h\s+all\s/);
  t.match(list.stdout, new RegExp(`30 1 \\* \\* \\*\\s+UTC\\s+45m\\s+${id}\\s`));
  const badCron = await cli('maintenance', 'add', '--cron', '0 2 * *', '--for', '2h');
  t.equal(badCron.code, 1);
  t.match(badCron.stderr, /^pingmon: cron: "0 2 \* \*" has 4 field\(s\); use 5/);
  const badFor = await cli('maintenance', 'add', '--cron', '0 2 * * 0', '--for', 'a while');
  t.equal(badFor.code, 2);
  t.equal(badFor.stderr, 'pingmon: --for must be a duration such as 90s, 10m, 1h30m or 2d (got "a while")\n');
  const removed = await cli('maintenance', 'remove', window.windowId);
  t.equal(removed.code, 0, removed.stderr);
  t.equal(removed.stdout, `Removed ${window.windowId}.\n`);
  const gone = await cli('maintenance', 'remove', window.windowId);
  t.equal(gone.code, 1);
  t.match(gone.stderr, new RegExp(`^pingmon: No maintenance window ${window.windowId} in your account\\.`));
  const left = JSON.parse((await cli('maintenance', 'list', '--json')).stdout) as MaintenanceWindow[];
  t.equal(left.length, 1);
});
