import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import type { Test } from 'tap';
import { CLI, pingmon } from '../helpers/cli.js';
import { tempDir } from '../helpers/databases.js';
import { TestServer } from '../helpers/server.js';
import type { TestAccount } from '../helpers/server.js';
import { requireTools } from '../helpers/system-tools.js';
import { EXITED, Tmux } from '../helpers/tmux.js';

// Issue 27, item 4: `pingmon discover --file` against a real server: monitors made and synced from a crontab,
// the file rewritten in place after a copy is kept, and a second run that changes nothing.

const CRONTAB = `MAILTO=""
CRON_TZ=Europe/Berlin
0 3 * * * /usr/local/bin/backup-db.sh --full
*/15 * * * * cd /srv && ./sync.sh >> /var/log/sync.log 2>&1
@reboot /usr/local/bin/warmup
`;

async function setup(t: Test) {
  const api = await TestServer.start(t, 'sqlite');
  const account = await api.account('unlimited');
  const dir = tempDir('pingmon-discover-');
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const env = { PINGMON_URL: api.url, PINGMON_TOKEN: account.token, XDG_STATE_HOME: join(dir, 'state') };
  const discover = (...args: string[]) => pingmon(['discover', ...args], env);
  return { api, account, dir, env, discover };
}

async function monitor(api: TestServer, account: TestAccount, slug: string) {
  const reply = await api.request(`/monitors/${slug}`, { token: account.token });
  return reply.status === 200 ? reply.body : undefined;
}

t.test('discover --yes --file: monitors made, the file rewritten after a copy; again, nothing changes', async (t) => {
  const { api, account, dir, discover } = await setup(t);
  const file = join(dir, 'jobs.cron');
  writeFileSync(file, CRONTAB);
  const first = await discover('--file', file, '--yes');
  t.equal(first.code, 0, first.stderr);
  t.match(first.stdout, /backup-db\s+create\s+0 3 \* \* \* \(Europe\/Berlin\)\s+backup-db\.sh --full/);
  t.match(first.stdout, /sync\s+create\s+\*\/15 \* \* \* \* \(Europe\/Berlin\)/);
  t.match(first.stdout, 'line 5: @reboot runs at boot, not on a schedule: left as it is');
  t.match(first.stdout, 'note: no API key for `pingmon run`: the jobs run unreported until you run `pingmon config');
  t.match(
    first.stdout,
    `--- ${file} (before)\n+++ ${file} (after)\n@@ -3 +3 @@\n-0 3 * * * /usr/local/bin/backup-db.sh`,
  );
  t.match(first.stdout, '2 monitors created, 0 synced.');
  const copy = /kept in (\S+);/.exec(first.stdout)?.[1];
  t.equal(copy && readFileSync(copy, 'utf8'), CRONTAB, 'the copy is the crontab as it was');

  const rewritten = readFileSync(file, 'utf8').split('\n');
  t.match(
    rewritten[2],
    / run --monitor backup-db --cron '0 3 \* \* \*' --tz Europe\/Berlin -- \/usr\/local\/bin\/backup-db\.sh --full$/,
  );
  t.match(rewritten[3], /^\*\/15 \* \* \* \* \S+ run --monitor sync .* -- \/bin\/sh -c 'cd \/srv && \.\/sync\.sh >> /);
  t.same(
    [rewritten[0], rewritten[1], rewritten[4]],
    CRONTAB.split('\n').filter((_, i) => [0, 1, 4].includes(i)),
  );
  const backup = await monitor(api, account, 'backup-db');
  t.same([backup?.name, backup?.schedule], ['backup-db.sh --full', { cron: '0 3 * * *', timezone: 'Europe/Berlin' }]);

  const again = await discover('--file', file, '--yes');
  t.equal(again.code, 0, again.stderr);
  t.match(again.stdout, /backup-db\s+unchanged/);
  t.match(again.stdout, 'Nothing to change.');
  t.equal(readFileSync(file, 'utf8'), rewritten.join('\n'), 'the file is left as it was');
  t.equal(readdirSync(join(dir, 'state', 'pingmon', 'crontabs')).filter((f) => !f.endsWith('.json')).length, 1);

  // The schedule changed in the crontab is synced; a line that is gone is reported, its monitor kept.
  writeFileSync(file, [rewritten[0], rewritten[1], rewritten[2]!.replace(/^0 3/, '30 4'), rewritten[4], ''].join('\n'));
  const synced = await discover('--file', file, '--yes');
  t.equal(synced.code, 0, synced.stderr);
  t.match(synced.stdout, /backup-db\s+update\s+30 4 \* \* \*/);
  t.match(synced.stdout, 'No line runs sync any more: left as it is');
  t.match(synced.stdout, '0 monitors created, 1 synced.');
  t.match(readFileSync(file, 'utf8'), "--monitor backup-db --cron '30 4 * * *' --tz Europe/Berlin --");
  t.same((await monitor(api, account, 'backup-db'))?.schedule, { cron: '30 4 * * *', timezone: 'Europe/Berlin' });
  t.ok(await monitor(api, account, 'sync'), 'the monitor of the line that is gone is not deleted');
});

t.test('a cron.d file has a user field; a schedule the server refuses leaves its line as it was', async (t) => {
  const { api, account, dir, discover } = await setup(t);
  mkdirSync(join(dir, 'cron.d'));
  const file = join(dir, 'cron.d', 'backup');
  const text = '0 2 * * * backup /opt/dump.sh\n61 * * * * backup /opt/broken.sh\n';
  writeFileSync(file, text, { mode: 0o644 });
  const result = await discover('--file', file, '--yes');
  t.equal(result.code, 1, 'a monitor refused: exit 1');
  t.match(
    result.stderr,
    'pingmon: line 2: the server refused monitor broken, left as it was: schedule.cron: "61 * * * *" cannot be read',
  );
  const lines = readFileSync(file, 'utf8').split('\n');
  t.match(lines[0], /^0 2 \* \* \* backup \S+ run --monitor dump --cron '0 2 \* \* \*'/);
  t.equal(lines[1], '61 * * * * backup /opt/broken.sh');
  t.ok(await monitor(api, account, 'dump'));
  t.notOk(await monitor(api, account, 'broken'));
});

t.test('--dry-run changes nothing; with --json it prints the plan', async (t) => {
  const { api, account, dir, discover } = await setup(t);
  const file = join(dir, 'jobs.cron');
  writeFileSync(file, CRONTAB);
  const dry = await discover('--file', file, '--dry-run');
  t.equal(dry.code, 0, dry.stderr);
  t.match(dry.stdout, /backup-db\s+create/);
  t.match(dry.stdout, 'Dry run: nothing was changed.');
  const json = await discover('--file', file, '--dry-run', '--json');
  const plan = JSON.parse(json.stdout);
  t.same(
    plan.jobs.map((job: { line: number; slug: string; action: string }) => [job.line, job.slug, job.action]),
    [
      [3, 'backup-db', 'create'],
      [4, 'sync', 'create'],
    ],
  );
  t.same(plan.jobs[0].schedule, { cron: '0 3 * * *', timezone: 'Europe/Berlin' });
  t.match(plan.diff, '@@ -3 +3 @@');
  t.same(plan.skipped, [{ line: 5, reason: '@reboot runs at boot, not on a schedule: left as it is' }]);
  t.equal(readFileSync(file, 'utf8'), CRONTAB, 'the file is unchanged');
  t.notOk(await monitor(api, account, 'backup-db'), 'no monitor made');
});

t.test('without a terminal it asks for --yes or --dry-run; logged out, for pingmon login', async (t) => {
  const { dir, discover, env } = await setup(t);
  const file = join(dir, 'jobs.cron');
  writeFileSync(file, CRONTAB);
  const asked = await discover('--file', file);
  t.equal(asked.code, 2);
  t.match(asked.stderr, 'pingmon: no terminal to review the jobs in: pass --yes to take the proposals, or --dry-run');
  const loggedOut = await pingmon(['discover', '--file', file, '--yes'], {
    XDG_CONFIG_HOME: dir,
    XDG_STATE_HOME: env.XDG_STATE_HOME,
  });
  t.equal(loggedOut.code, 1);
  t.match(loggedOut.stderr, 'not logged in: run `pingmon login` first');
  t.equal(readFileSync(file, 'utf8'), CRONTAB);
});

t.test('in a terminal: the list edited, the plan and diff shown, installed on the word yes', async (t) => {
  if (!requireTools(t, 'tmux')) return;
  const { api, account, dir, env } = await setup(t);
  const file = join(dir, 'jobs.cron');
  writeFileSync(file, CRONTAB);
  const term = Tmux.start(t, [process.execPath, CLI, 'discover', '--file', file], { columns: 120, rows: 40, env });
  await term.waitFor('q stop');
  term.keys('s');
  await term.waitFor('backup-db▏');
  term.keys('BSpace', 'BSpace');
  term.type('nightly');
  term.keys('Enter');
  await term.waitFor('[x] line 3  backup-nightly  (new)');
  term.keys('Enter');
  const plan = await term.waitFor('Create the monitors and install this crontab? [y/N]');
  t.match(plan, /backup-nightly\s+create\s+0 3 \* \* \*/);
  t.match(plan, '+0 3 * * * ');
  t.equal(readFileSync(file, 'utf8'), CRONTAB, 'nothing installed before the answer');
  term.type('y');
  term.keys('Enter');
  const screen = await term.waitFor(EXITED);
  t.equal(EXITED.exec(screen)![1], '0', screen);
  t.match(readFileSync(file, 'utf8'), '--monitor backup-nightly ');
  t.ok(await monitor(api, account, 'backup-nightly'), 'made with the slug as edited');
});
