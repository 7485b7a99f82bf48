import t from 'tap';
import type { AuditEntry } from '@pingmon/sdk';
import { pingmon } from '../helpers/cli.js';
import { TestClock } from '../helpers/clock.js';
import { TestServer } from '../helpers/server.js';

// `pingmon audit` as a real process (docs/cli.md#pingmon-audit).

t.test('the audit trail from the command line', async (t) => {
  const clock = new TestClock(Date.parse('2027-03-27T12:00:00.000Z'));
  const api = await TestServer.start(t, 'sqlite', { clock: clock.read });
  const account = await api.account('unlimited');
  const env = { PINGMON_URL: api.url, PINGMON_TOKEN: account.token, COLUMNS: '200' };
  const cli = (...args: string[]) => pingmon(args, env);
  clock.advance(60_000);
  const id = await api.monitor(account, 'nightly backup');
  clock.advance(60_000);
  await api.request(`/monitors/${id}`, { method: 'PATCH', token: account.token, body: { paused: true } });

  const all = await cli('audit');
  t.equal(all.code, 0, all.stderr);
  const lines = all.stdout.split('\n');
  t.match(lines[0], /^WHEN\s+WHO\s+FROM\s+ACTION\s+TARGET\s+CHANGES$/);
  t.match(lines[1], /^2027-03-27 12:02:00 {2}\S+@example\.com {2}127\.0\.0\.1 {2}monitor\.paused/);
  t.match(lines[1], /monitor\.paused +nightly backup +paused: false → true$/);
  t.match(lines[2], /monitor\.created\s+nightly backup/);
  t.match(lines[3], /user\.signed_in/);
  t.equal(lines.length, 5, 'three entries and the last newline');

  const paused = await cli('audit', '--action', 'monitor.paused', '--json');
  t.equal(paused.code, 0, paused.stderr);
  const entries = JSON.parse(paused.stdout) as AuditEntry[];
  t.match(entries, [{ action: 'monitor.paused', changes: [{ field: 'paused', from: false, to: true }] }]);
  t.equal(entries.length, 1);

  t.equal((await cli('audit', '--since', '2027-03-27T12:01:30Z')).stdout.split('\n').length, 3, 'since a time');
  t.equal((await cli('audit', '--limit', '1', '--json')).stdout.match(/entryId/g)?.length, 1);
  t.equal((await cli('audit', '--actor', 'someone@else.example')).stdout, 'No audit entries match.\n');
  const bad = await cli('audit', '--since', 'last tuesday');
  t.equal(bad.code, 2, 'a --since that is neither a time nor a duration is a usage error');
  t.match(bad.stderr, /ISO time/);
});
