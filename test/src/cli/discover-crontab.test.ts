import { spawnSync } from 'node:child_process';
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import {
  candidates,
  diffText,
  hostZone,
  initialReview,
  isSystemCrontab,
  jobsOf,
  planOf,
  propose,
  readCrontab,
  readWrapped,
  reduceReview,
  resyncLine,
  slugOf,
  wrapLine,
} from 'pingmon/internal';
import type { Candidate } from 'pingmon/internal';
import { tempDir } from '../helpers/databases.js';

// Issue 27, items 4 and 8: crontabs read as cron reads them, and their lines wrapped in `pingmon run` so that
// the job still runs exactly as before.

const USER = { system: false, hostZone: 'UTC' };
const SYSTEM = { system: true, hostZone: 'UTC' };
const PINGMON = { bin: '/opt/pingmon/bin/run.js', node: '/usr/bin/node' };

/** Debian 12's /etc/crontab, as installed by the cron package. */
const DEBIAN_CRONTAB = `# /etc/crontab: system-wide crontab
# Unlike any other crontab you don't have to run the \`crontab'
# command to install the new version when you edit this file
# and files in /etc/cron.d. These files also have username fields,
# that none of the other crontabs do.

SHELL=/bin/sh
PATH=/usr/local/sbin:/usr/local/bin:/sbin:/bin:/usr/sbin:/usr/bin

# Example of job definition:
# .---------------- minute (0 - 59)
# |  .------------- hour (0 - 23)
# |  |  .---------- day of month (1 - 31)
# |  |  |  .------- month (1 - 12) OR jan,feb,mar,apr ...
# |  |  |  |  .---- day of week (0 - 6) (Sunday=0 or 7) OR sun,mon,tue,wed,thu,fri,sat
# |  |  |  |  |
# *  *  *  *  * user-name command to be executed
17 *\t* * *\troot\tcd / && run-parts --report /etc/cron.hourly
25 6\t* * *\troot\ttest -x /usr/sbin/anacron || { cd / && run-parts --report /etc/cron.daily; }
47 6\t* * 7\troot\ttest -x /usr/sbin/anacron || { cd / && run-parts --report /etc/cron.weekly; }
52 6\t1 * *\troot\ttest -x /usr/sbin/anacron || { cd / && run-parts --report /etc/cron.monthly; }
#
`;

/** Debian 12's /etc/cron.d/e2scrub_all. */
const E2SCRUB =
  '30 3 * * 0 root test -e /run/systemd/system || ' +
  'SERVICE_MODE=1 /usr/lib/x86_64-linux-gnu/e2fsprogs/e2scrub_all_cron\n' +
  `10 3 * * * root test -e /run/systemd/system || SERVICE_MODE=1 /sbin/e2scrub_all -A -r
`;

function jobs(text: string, options = USER) {
  return jobsOf(readCrontab(text, options));
}

t.test("Debian's /etc/crontab: four jobs of root, their environment, and every other line kept", async (t) => {
  const crontab = readCrontab(DEBIAN_CRONTAB, SYSTEM);
  t.ok(isSystemCrontab('/etc/crontab') && isSystemCrontab('/etc/cron.d/e2scrub_all'), 'both have a user field');
  t.notOk(isSystemCrontab('/home/ops/jobs.cron'), 'a file elsewhere is a user crontab');
  const found = jobsOf(crontab);
  t.same(
    found.map((job) => [job.lineNumber, job.cron, job.user, job.timezone]),
    [
      [18, '17 * * * *', 'root', 'UTC'],
      [19, '25 6 * * *', 'root', 'UTC'],
      [20, '47 6 * * 7', 'root', 'UTC'],
      [21, '52 6 1 * *', 'root', 'UTC'],
    ],
  );
  t.equal(found[0]!.path, '/usr/local/sbin:/usr/local/bin:/sbin:/bin:/usr/sbin:/usr/bin', 'PATH from its line');
  t.same(
    candidates(crontab).map((c) => [c.slug, c.name]),
    [
      ['cron-hourly', 'run-parts --report /etc/cron.hourly'],
      ['cron-daily', 'run-parts --report /etc/cron.daily'],
      ['cron-weekly', 'run-parts --report /etc/cron.weekly'],
      ['cron-monthly', 'run-parts --report /etc/cron.monthly'],
    ],
  );
  const plan = planOf(crontab, candidates(crontab), new Map(), [], PINGMON);
  t.equal(
    plan.jobs[1]!.after,
    "25 6\t* * *\troot\t/opt/pingmon/bin/run.js run --monitor cron-daily --cron '25 6 * * *' -- " +
      "/bin/sh -c 'test -x /usr/sbin/anacron || { cd / && run-parts --report /etc/cron.daily; }'",
    "schedule and user kept as written, the command run by the crontab's shell",
  );
  const before = DEBIAN_CRONTAB.split('\n');
  const after = plan.after.split('\n');
  t.equal(after.length, before.length, 'as many lines');
  t.same(
    after.flatMap((line, i) => (line === before[i] ? [] : [i + 1])),
    [18, 19, 20, 21],
    'only the job lines change',
  );
  t.match(
    diffText(plan, '/etc/crontab'),
    /^--- \/etc\/crontab \(before\)\n\+\+\+ \/etc\/crontab \(after\)\n@@ -18 \+18 @@\n-17 \*/,
  );
});

t.test('a cron.d file: the user field, variables before the program, and slugs unique in the file', async (t) => {
  const crontab = readCrontab(
    E2SCRUB + '0 4 * * * backup /usr/local/bin/backup-db.sh --full\n' + '0 5 * * * backup /opt/other/backup-db.sh\n',
    SYSTEM,
  );
  t.same(
    candidates(crontab).map((c) => [c.job.user, c.slug, c.name]),
    [
      ['root', 'e2scrub_all_cron', 'e2scrub_all_cron'],
      ['root', 'e2scrub_all', 'e2scrub_all -A -r'],
      ['backup', 'backup-db', 'backup-db.sh --full'],
      ['backup', 'backup-db-2', 'backup-db.sh'],
    ],
  );
  const plan = planOf(crontab, candidates(crontab), new Map(), [], PINGMON);
  t.equal(
    plan.jobs[2]!.after,
    "0 4 * * * backup /opt/pingmon/bin/run.js run --monitor backup-db --cron '0 4 * * *' -- " +
      '/usr/local/bin/backup-db.sh --full',
    'a plain program with plain arguments is given to pingmon run as it is',
  );
});

t.test('CRON_TZ sets the zone of the lines below it; without it the host zone; TZ only gives a note', async (t) => {
  const text =
    '0 1 * * * /bin/a\nCRON_TZ=Europe/Berlin\n0 2 * * * /bin/b\n' +
    'TZ=Asia/Tokyo\nCRON_TZ = "America/New_York"\n0 3 * * * /bin/c\n';
  const crontab = readCrontab(text, { system: false, hostZone: 'Europe/Paris' });
  t.same(
    jobsOf(crontab).map((job) => job.timezone),
    ['Europe/Paris', 'Europe/Berlin', 'America/New_York'],
  );
  t.match(crontab.notes.join('\n'), /TZ= sets the jobs' environment, not the zone/);
  const plan = planOf(crontab, candidates(crontab), new Map(), [], PINGMON);
  t.match(plan.jobs[1]!.after, "--monitor b --cron '0 2 * * *' --tz Europe/Berlin -- /bin/b");
  t.same(
    ['Etc/UTC', 'UTC', 'Etc/GMT', 'Europe/Paris'].map((zone) => hostZone(zone)),
    ['UTC', 'UTC', 'UTC', 'Europe/Paris'],
  );
  const utc = planOf(
    readCrontab('0 1 * * * /bin/a\n', USER),
    candidates(readCrontab('0 1 * * * /bin/a\n', USER)),
    new Map(),
    [],
    PINGMON,
  );
  t.notMatch(utc.after, '--tz', 'UTC, the default, is not written');
});

t.test('macros stand for their five fields; @reboot is left as it is, with a note', async (t) => {
  const text =
    '@daily /bin/a\n@HOURLY /bin/b\n@weekly /bin/c\n@monthly /bin/d\n@annually /bin/e\n@reboot /bin/f\n' +
    '@every-so-often /bin/g\n';
  const crontab = readCrontab(text, USER);
  t.same(
    jobsOf(crontab).map((job) => [job.when, job.cron]),
    [
      ['@daily', '0 0 * * *'],
      ['@HOURLY', '0 * * * *'],
      ['@weekly', '0 0 * * 0'],
      ['@monthly', '0 0 1 * *'],
      ['@annually', '0 0 1 1 *'],
    ],
  );
  const plan = planOf(crontab, candidates(crontab), new Map(), [], PINGMON);
  t.same(
    plan.skipped.map((s) => s.line),
    [6, 7],
  );
  t.match(plan.skipped[0]!.reason, /@reboot runs at boot, not on a schedule/);
  t.match(plan.jobs[0]!.after, "@daily /opt/pingmon/bin/run.js run --monitor a --cron '0 0 * * *' -- /bin/a");
});

t.test('comments, blank lines and environment lines are kept byte for byte', async (t) => {
  const text = '  # indented comment\n\n\t\nMAILTO=""\nSHELL=/bin/bash\nFOO = \'two words \'\n* * * * * /bin/true\n';
  const crontab = readCrontab(text, USER);
  t.same(
    crontab.lines.filter((l) => l.kind === 'env').map((l) => (l.kind === 'env' ? [l.name, l.value] : [])),
    [
      ['MAILTO', ''],
      ['SHELL', '/bin/bash'],
      ['FOO', 'two words '],
    ],
  );
  const plan = planOf(crontab, candidates(crontab), new Map(), [], PINGMON);
  t.equal(plan.after.split('\n').slice(0, 6).join('\n'), text.split('\n').slice(0, 6).join('\n'));
  t.equal(plan.after.split('\n').length, text.split('\n').length);
  const bash = readCrontab('SHELL=/bin/bash\n0 1 * * * cd /srv && [[ -f x ]] && ./x\n', USER);
  t.match(
    planOf(bash, candidates(bash), new Map(), [], PINGMON).jobs[0]!.after,
    " -- /bin/bash -c 'cd /srv && [[ -f x ]] && ./x'",
    "the command runs in the crontab's SHELL, as cron ran it",
  );
});

t.test('slugs and names proposed from commands', async (t) => {
  const cases: Array<[string, string, string]> = [
    ['/usr/local/bin/backup-db.sh --full', 'backup-db', 'backup-db.sh --full'],
    ['cd /srv/app && php artisan schedule:run >> /dev/null 2>&1', 'artisan', 'php artisan schedule:run'],
    ['nice -n 10 flock -n /tmp/lock /opt/sync.py', 'sync', 'sync.py'],
    [
      'sudo -u www-data /usr/bin/python3 /srv/report.py --daily | mail -s report ops',
      'report',
      'python3 /srv/report.py --daily',
    ],
    ["sh -c 'cd /x && ./nightly-export.sh'", 'nightly-export', 'nightly-export.sh'],
    ['timeout 1h /opt/mon_abc.sh', 'mon-abc', 'mon_abc.sh'],
    ['cd /', 'cd', 'cd /'],
    ['"/opt/my tools/Do It!.sh"', 'do-it', 'Do It!.sh'],
  ];
  for (const [command, slug, name] of cases) t.same(propose(command), { slug, name }, command);
  t.equal(slugOf('x'.repeat(80)), 'x'.repeat(64), 'at most 64 characters');
  t.equal(slugOf('...'), 'monitor', 'never empty');
});

/** What a job does when cron runs `line`: cut at its first `%`, the rest as input, through /bin/sh. */
function cronRuns(command: string, cwd: string, pingmonBin: string): string {
  let shell = '';
  let input: string | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === '\\' && command[i + 1] === '%') {
      if (input === undefined) shell += '%';
      else input += '%';
      i++;
    } else if (c === '%') {
      if (input === undefined) input = '';
      else input += '\n';
    } else if (input === undefined) shell += c;
    else input += c;
  }
  const run = spawnSync('/bin/sh', ['-c', shell.replaceAll(PINGMON.bin, pingmonBin)], {
    cwd,
    input: input === undefined ? '' : `${input}\n`,
    encoding: 'utf8',
  });
  return `${run.stdout}|${run.stderr}|${run.status}`;
}

t.test('a wrapped line runs the same command as before: quotes, %, pipes, && and redirections', async (t) => {
  const dir = tempDir('pingmon-crontab-');
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // Stands in for pingmon: what follows `--` is run as `pingmon run` runs it, as a program and its arguments.
  const fake = join(dir, 'fake-pingmon');
  writeFileSync(fake, '#!/bin/sh\nwhile [ "$1" != "--" ]; do shift; done\nshift\nexec "$@"\n');
  chmodSync(fake, 0o755);
  const commands = [
    'echo "it\'s $((1 + 2))" && echo \'single "quoted"\' | tr a-z A-Z',
    'cat%first line%second line',
    'printf \'\\%s\\n\' "$(date -d @0 +\\%Y)" > out.txt; cat out.txt >&2; exit 3',
    'echo 100\\% done%ignored input',
    "sed 's/a/b/' %a line with an ' apostrophe%",
    'false || echo "after false" 2>&1 | cat',
    '/bin/echo plain -- args',
  ];
  t.equal(cronRuns('cat%first%second', dir, fake), 'first\nsecond\n||0', 'the input after % reaches the job');
  t.equal(cronRuns("echo 'a  b' 100\\%", dir, fake), 'a  b 100%\n||0', 'quotes and \\% as cron and sh read them');
  for (const command of commands) {
    const crontab = readCrontab(`* * * * * ${command}\n`, USER);
    const [line] = planOf(crontab, candidates(crontab), new Map(), [], PINGMON).jobs;
    const rewritten = line!.after.replace(/^\* \* \* \* \* /, '');
    t.equal(cronRuns(rewritten, dir, fake), cronRuns(command, dir, fake), command);
    t.equal(readWrapped(jobsOf(readCrontab(`${line!.after}\n`, USER))[0]!)?.monitor, line!.slug, 'read back');
  }
});

t.test('a line already wrapped keeps its monitor; a schedule changed since is written into its flags', async (t) => {
  const text =
    "0 3 * * * /usr/bin/pingmon run --monitor nightly --cron '0 3 * * *' --timeout 2h -- /opt/backup.sh\n" +
    "30 4 * * * PINGMON_API_KEY=pm_x pingmon run -m mon_0mwre28zi1Ycax5mIt1 --cron='0 4 * * *' --tz UTC -- /opt/b\n" +
    'CRON_TZ=Europe/Berlin\n' +
    '0 5 * * * node /x/cli/bin/run.js run --monitor=sync -- /opt/sync.sh\n' +
    '0 6 * * * pingmon run -- /opt/nameless.sh\n' +
    '0 7 * * * /opt/backup.sh\n' +
    '0 8 * * * /opt/nightly.sh\n';
  const crontab = readCrontab(text, USER);
  const found = candidates(crontab);
  t.same(
    found.map((c) => [c.slug, c.include]),
    [
      ['nightly', true],
      ['mon_0mwre28zi1Ycax5mIt1', true],
      ['sync', true],
      ['', false],
      ['backup', true],
      ['nightly-2', true],
    ],
    'wrapped lines keep their monitor (by slug or id); one without --monitor is left out',
  );
  const wrapped = jobsOf(crontab).map(readWrapped);
  t.equal(resyncLine(jobsOf(crontab)[0]!, wrapped[0]!), text.split('\n')[0], 'unchanged: the line stays');
  t.equal(
    resyncLine(jobsOf(crontab)[1]!, wrapped[1]!),
    "30 4 * * * PINGMON_API_KEY=pm_x pingmon run -m mon_0mwre28zi1Ycax5mIt1 --cron='30 4 * * *' --tz UTC -- /opt/b",
  );
  t.equal(
    resyncLine(jobsOf(crontab)[2]!, wrapped[2]!),
    "0 5 * * * node /x/cli/bin/run.js run --monitor=sync --cron '0 5 * * *' --tz Europe/Berlin -- /opt/sync.sh",
  );
  const plan = planOf(crontab, found, new Map(), ['nightly', 'old-job'], PINGMON);
  t.same(plan.skipped, [{ line: 5, reason: 'wrapped by pingmon run without --monitor: left as it is' }]);
  const twice = readCrontab(`${text}0 9 * * 6 pingmon run --monitor nightly -- /opt/backup.sh\n`, USER);
  const shared = planOf(twice, candidates(twice), new Map(), [], PINGMON);
  t.same(
    shared.jobs.filter((job) => job.slug === 'nightly').map((job) => job.action),
    ['create', 'unchanged'],
    'one monitor made once',
  );
  t.match(shared.notes, ["lines 1 and 8 report to nightly, which has one schedule (line 1's here)"]);
});

t.test("node is named too when cron's PATH would not find it", async (t) => {
  const job = jobs('0 1 * * * /bin/a\n')[0]!;
  t.match(
    wrapLine(job, 'a', { bin: '/opt/p/bin/run.js', node: '/opt/node/bin/node' }),
    '* /opt/node/bin/node /opt/p/bin/run.js run',
  );
  t.match(wrapLine(job, 'a', PINGMON), '* /opt/pingmon/bin/run.js run', "/usr/bin is on cron's PATH");
  const withPath = jobs('PATH=/opt/node/bin:/usr/bin:/bin\n0 1 * * * /bin/a\n')[0]!;
  t.match(wrapLine(withPath, 'a', { bin: '/opt/p/bin/run.js', node: '/opt/node/bin/node' }), '* /opt/p/bin/run.js run');
  const percent = jobs('0 1 * * * /bin/a\n')[0]!;
  t.match(
    wrapLine(percent, 'a', { bin: '/opt/100%/run.js', node: '/usr/bin/node' }),
    "'/opt/100\\%/run.js' run",
    '% escaped',
  );
});

t.test('the review: leave a job out, edit a slug (checked) and a name, accept or cancel', async (t) => {
  const rows: Candidate[] = candidates(readCrontab('0 1 * * * /bin/a\n0 2 * * * /bin/b\n', USER));
  let state = initialReview(rows);
  state = reduceReview(state, { kind: 'text', text: ' ' });
  t.equal(state.rows[0]!.include, false, 'space leaves the first out');
  state = reduceReview(reduceReview(state, { kind: 'down' }), { kind: 'text', text: 's' });
  t.same(state.editing, { field: 'slug', text: 'b' });
  for (const key of [{ kind: 'backspace' }, { kind: 'text', text: 'Bad!' }, { kind: 'accept' }] as const)
    state = reduceReview(state, key);
  t.match(state.error, 'a slug is 1 to 64 of a-z, 0-9, - and _, not beginning with mon_');
  state = reduceReview(reduceReview(reduceReview(state, { kind: 'cancel' }), { kind: 'text', text: 's' }), {
    kind: 'text',
    text: '-x',
  });
  state = reduceReview(state, { kind: 'accept' });
  t.equal(state.rows[1]!.slug, 'b-x');
  state = reduceReview(reduceReview(state, { kind: 'text', text: 'n' }), { kind: 'text', text: ' nightly' });
  state = reduceReview(state, { kind: 'accept' });
  t.equal(state.rows[1]!.name, 'b nightly');
  t.equal(reduceReview(state, { kind: 'accept' }).outcome, 'accepted');
  t.equal(reduceReview(state, { kind: 'cancel' }).outcome, 'cancelled');
});
