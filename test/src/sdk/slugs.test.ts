import t from 'tap';
import { isMonitorId, isSlug, numberedSlug, slugify } from '@pingmon/sdk';

t.test('slugify makes a slug of any text', async (t) => {
  const cases: Array<[string, string]> = [
    ['nightly backup', 'nightly-backup'],
    ['  Nightly Backup (db1) ', 'nightly-backup-db1'],
    ['/opt/backup.sh --full', 'opt-backup-sh-full'],
    ['Übersicht café', 'ubersicht-cafe'],
    ['snake_case_job', 'snake_case_job'],
    ['--leading and trailing--', 'leading-and-trailing'],
    ['日本語', 'monitor'],
    ['', 'monitor'],
    ['mon_report', 'mon-report'],
    ['x'.repeat(100), 'x'.repeat(64)],
    [`${'a'.repeat(63)} b`, 'a'.repeat(63)],
  ];
  for (const [text, slug] of cases) {
    t.equal(slugify(text), slug, JSON.stringify(text));
    t.ok(isSlug(slugify(text)), `${slug} is a slug`);
  }
});

t.test('isSlug: a-z, 0-9, - and _, 1 to 64, never of the form of an id', async (t) => {
  for (const good of ['a', 'nightly-backup', 'db_dump-7', '0', 'x'.repeat(64), 'mon', 'mon-x', 'monday_job']) {
    t.ok(isSlug(good), good);
  }
  for (const bad of ['', 'A', 'with space', 'a/b', 'x'.repeat(65), 'é', 'mon_0mwre28zi1ycax5mit1', 'mon_']) {
    t.notOk(isSlug(bad), JSON.stringify(bad));
  }
  t.ok(isMonitorId('mon_0mwre28zi1ycax5mit1'));
  t.notOk(isMonitorId('nightly-backup'));
});

t.test('numberedSlug adds -n within 64 characters', async (t) => {
  t.equal(numberedSlug('job', 2), 'job-2');
  t.equal(numberedSlug('x'.repeat(64), 12), `${'x'.repeat(61)}-12`);
});
