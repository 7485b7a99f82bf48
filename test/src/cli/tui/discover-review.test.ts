import t from 'tap';
import { Review, candidates, readCrontab } from 'pingmon/internal';
import type { Candidate } from 'pingmon/internal';
import { waitFor } from '../../helpers/wait.js';
import { KEYS, renderScreen } from './ink.js';

// `pingmon discover` in a terminal: the proposals as a list to edit before anything is done (docs/cli.md).

const CRONTAB = '0 3 * * * /usr/local/bin/backup-db.sh --full\n*/5 * * * * /opt/sync.sh\n';

t.test('the review list: a slug edited, a job left out, Enter goes on with the list as left', async (t) => {
  const rows = candidates(readCrontab(CRONTAB, { system: false, hostZone: 'UTC' }));
  let done: Candidate[] | undefined | 'pending' = 'pending';
  const screen = renderScreen(Review, { rows, monitors: new Map(), onDone: (result) => (done = result) });
  t.teardown(screen.unmount);
  const first = await screen.waitFor('Enter go on · q stop');
  t.match(first, '2 jobs found in the crontab\n[x] line 1  backup-db  (new)  0 3 * * *  backup-db.sh --full');
  screen.press('s', KEYS.backspace, KEYS.backspace, 'X', KEYS.enter);
  await screen.waitFor('a slug is 1 to 64 of a-z, 0-9, - and _');
  screen.press(KEYS.backspace, KEYS.backspace, KEYS.enter);
  await screen.waitFor('[x] line 1  backup  (new)');
  screen.press(KEYS.down, ' ');
  await screen.waitFor('[ ] line 2  sync');
  screen.press(KEYS.enter);
  const result = await waitFor(() => (done === 'pending' ? undefined : { done }));
  t.same(
    (result.done as Candidate[]).map((row) => [row.slug, row.include]),
    [
      ['backup', true],
      ['sync', false],
    ],
  );
});

t.test('the review list: q stops with nothing taken', async (t) => {
  const rows = candidates(readCrontab(CRONTAB, { system: false, hostZone: 'UTC' }));
  let done: Candidate[] | undefined | 'pending' = 'pending';
  const screen = renderScreen(Review, { rows, monitors: new Map(), onDone: (result) => (done = result) });
  t.teardown(screen.unmount);
  await screen.waitFor('q stop');
  screen.press('q');
  await waitFor(() => done !== 'pending');
  t.equal(done, undefined);
});

t.test('the review list: keys arriving together (typed fast, pasted) are taken one by one', async (t) => {
  const rows = candidates(readCrontab(CRONTAB, { system: false, hostZone: 'UTC' }));
  const screen = renderScreen(Review, { rows, monitors: new Map(), onDone: () => undefined });
  t.teardown(screen.unmount);
  await screen.waitFor('q stop');
  screen.press('s\x7f\x7f\x7fdb\r');
  await screen.waitFor('[x] line 1  backupdb  (new)');
});
