import t from 'tap';
import { DatabaseUnavailableError } from '@pingmon/server';
import { OutageLog } from '@pingmon/server/internal';
import { waitFor } from '../helpers/wait.js';

const INTERVAL_MS = 50;
const refused = new DatabaseUnavailableError('cannot use the database at pingmon.db: SQLITE_BUSY: database is locked');

function logged(): {
  log: (tags: string[], message: string) => void;
  lines: Array<{ tags: string[]; message: string }>;
} {
  const lines: Array<{ tags: string[]; message: string }> = [];
  return { lines, log: (tags, message) => lines.push({ tags, message }) };
}

t.test(
  'many failures give one line at once with the cause, one counting the rest, and one when they stop',
  async (t) => {
    const { log, lines } = logged();
    const outages = new OutageLog(log, INTERVAL_MS);
    t.teardown(() => outages.close());
    for (let i = 0; i < 100; i++) outages.failed('request', refused);
    for (let i = 0; i < 3; i++) outages.failed('alerts', refused);
    t.same(
      lines,
      [
        {
          tags: ['database', 'warn'],
          message:
            'cannot use the database at pingmon.db: SQLITE_BUSY: database is locked ' +
            '(a request was answered 503; more failures are counted, a line per 0.05 s)',
        },
      ],
      'the first failure is logged at once, and only it',
    );

    await waitFor(() => lines.length >= 2, { what: 'the counting line' });
    t.equal(
      lines[1]!.message,
      'database unavailable since the last line: 99 more requests answered 503, ' +
        '3 more operations of the alert sender failed; last cause: ' +
        refused.message,
    );

    await waitFor(() => lines.length >= 3, { what: 'the line saying the failures stopped' });
    t.match(lines[2]!.message, /^no database failure for 0\.05 s, after 103 failures in \d+ s$/);

    outages.failed('alerts', refused);
    t.equal(lines.length, 4, 'a failure after that begins a new outage, logged at once');
    t.match(lines[3]!.message, /\(an operation of the alert sender failed; /);
  },
);

t.test('a failure counted and not yet logged is written when the server stops', async (t) => {
  const { log, lines } = logged();
  const outages = new OutageLog(log, 60_000);
  outages.failed('request', refused);
  outages.failed('request', refused);
  outages.close();
  t.equal(lines.length, 2);
  t.match(lines[1]!.message, /^database unavailable since the last line: 1 more request answered 503; last cause: /);
  outages.close();
  t.equal(lines.length, 2, 'closing again writes nothing');
});
