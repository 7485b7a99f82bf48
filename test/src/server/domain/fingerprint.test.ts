import t from 'tap';
import { fingerprint, normalise } from '@pingmon/server/internal';

// Each failure as two runs of it would log it, on different days, with different pids, temp names and durations.
const pythonTraceback = (when: string, pid: number, tmp: string) => `${when} INFO starting export (pid ${pid})
Traceback (most recent call last):
  File "/opt/export/export.py", line 214, in <module>
    main()
  File "/opt/export/export.py", line 198, in main
    rows = fetch(conn, since)
  File "/opt/export/db.py", line 57, in fetch
    cur.execute(QUERY, (since,))
psycopg2.errors.UndefinedColumn: column "updated_at" does not exist
LINE 1: SELECT id, updated_at FROM orders WHERE updated_at > '${when}'
                   ^
cleanup: removed ${tmp}`;

const nodeStack = (requestId: string, port: number) => `[${requestId}] fetching https://api.example.com/v2/items
Error: connect ECONNREFUSED 10.0.3.17:${port}
    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1595:16)
    at async fetchAll (/srv/sync/dist/fetch.js:41:19)
    at async main (/srv/sync/dist/index.js:12:5) {
  errno: -111,
  code: 'ECONNREFUSED',
  syscall: 'connect',
  address: '10.0.3.17',
  port: ${port}
}`;

const pgDumpRefused = (when: string, host: string) => `${when}: backup of db "shop" starting
pg_dump: error: connection to server at "${host}", port 5432 failed: Connection refused
\tIs the server running on that host and accepting TCP/IP connections?`;

const pgDumpAuth = (when: string, host: string) => `${when}: backup of db "shop" starting
pg_dump: error: connection to server at "${host}", port 5432 failed: FATAL:  password authentication failed \
for user "backup"`;

const pgDumpDiskFull = (when: string) => `${when}: backup of db "shop" starting
pg_dump: error: could not write to output file: No space left on device`;

const rsync23 = (file: string, took: string) => `sending incremental file list
rsync: [sender] send_files failed to open "/srv/media/${file}": Permission denied (13)
sent 1,204,331 bytes  received 9,818 bytes  ${took}
total size is 88,120,993,112  speedup is 72,583.12
rsync error: some files/attrs were not transferred (see previous errors) (code 23) at main.c(1338) [sender=3.2.7]`;

const rsync24 = (file: string, took: string) => `sending incremental file list
file has vanished: "/srv/media/${file}"
sent 1,204,331 bytes  received 9,818 bytes  ${took}
total size is 88,120,993,112  speedup is 72,583.12
rsync warning: some files vanished before they could be transferred (code 24) at main.c(1338) [sender=3.2.7]`;

const shellTrace = (date: string, tmp: string, pid: number) => `+ date
${date}
++ mktemp -d
+ WORK=${tmp}
+ cd ${tmp}
+ curl -fsS -o dump.tar.gz https://backups.example.com/nightly.tar.gz
+ tar -xzf dump.tar.gz
tar: Unexpected EOF in archive
tar: Error is not recoverable: exiting now
+ echo 'extract failed in ${tmp} (pid ${pid})'
extract failed in ${tmp} (pid ${pid})`;

t.test('the same failure at another time, pid or temp name has one fingerprint', async (t) => {
  const same: Array<[string, [string | null, string], [string | null, string]]> = [
    [
      'a Python traceback',
      ['exit status 1', pythonTraceback('2026-11-26 03:00:01,512', 4121, '/tmp/tmpq8x_3k2a')],
      ['exit status 1', pythonTraceback('2026-11-27T03:00:02.007Z', 88213, '/tmp/tmpz0a9w1bn')],
    ],
    [
      'a Node stack trace',
      ['sync failed', nodeStack('3f2c7a9e-1b4d-4e8a-9c0f-6a5b4c3d2e1f', 5432)],
      ['sync failed', nodeStack('a1b2c3d4-e5f6-4789-8abc-def012345678', 6432)],
    ],
    [
      'pg_dump refused',
      [null, pgDumpRefused('Thu Nov 26 03:00:01 UTC 2026', '10.0.0.5')],
      [null, pgDumpRefused('Fri Nov 27 03:00:12 UTC 2026', '10.0.0.6')],
    ],
    [
      'rsync code 23',
      ['rsync exited with code 23', rsync23('2026/11/img_4412.jpg', '2.31s')],
      ['rsync exited with code 23', rsync23('2026/12/img_5120.jpg', '1m4s')],
    ],
    [
      'a set -x trace',
      [null, shellTrace('Thu Nov 26 03:00:01 UTC 2026', '/tmp/tmp.x8Yz3QwLp1', 31337)],
      [null, shellTrace('Sat Dec  5 23:59:59 UTC 2026', '/tmp/tmp.Ab12CdEf34', 912)],
    ],
    [
      'a syslog line and a hex id',
      ['job 0x7f3a9c01 failed', 'Nov 26 03:00:01 web1 backup[2211]: lock held by a94f3e2b1c'],
      ['job 0x11aa22bb failed', 'Dec  1 14:22:09 web1 backup[17]: lock held by 0c8d7e6f5a'],
    ],
    [
      'an IPv6 address',
      ['connect to [2001:db8::17]:443 timed out after 30s', ''],
      ['connect to [2001:db8:0:1::9]:443 timed out after 1m30s', ''],
    ],
  ];
  for (const [name, [messageA, logA], [messageB, logB]] of same) {
    t.equal(fingerprint(messageA, logA), fingerprint(messageB, logB), name);
    t.match(fingerprint(messageA, logA), /^[0-9a-f]{16}$/, `${name}: 16 hex characters`);
  }
});

t.test('different causes have different fingerprints', async (t) => {
  const when = 'Thu Nov 26 03:00:01 UTC 2026';
  const causes: Array<[string, string | null, string]> = [
    ['connection refused', null, pgDumpRefused(when, '10.0.0.5')],
    ['authentication failed', null, pgDumpAuth(when, '10.0.0.5')],
    ['disk full', null, pgDumpDiskFull(when)],
    ['rsync permission denied', 'rsync exited with code 23', rsync23('a.jpg', '2s')],
    ['rsync vanished', 'rsync exited with code 24', rsync24('a.jpg', '2s')],
    ['the same log, another message', 'rsync killed', rsync23('a.jpg', '2s')],
    ['a Python traceback', 'exit status 1', pythonTraceback(when, 1, '/tmp/x')],
    ['a Node stack trace', 'exit status 1', nodeStack('3f2c7a9e-1b4d-4e8a-9c0f-6a5b4c3d2e1f', 5432)],
    ['no message, no log', null, ''],
  ];
  const seen = new Map<string, string>();
  for (const [name, message, log] of causes) {
    const print = fingerprint(message, log);
    t.notOk(seen.has(print), `${name}: not the same as ${seen.get(print) ?? 'another'}`);
    seen.set(print, name);
  }
});

t.test('only the end of a long log counts, cut where the normalised text says', async (t) => {
  const ending = pgDumpAuth('2026-11-26 03:00:01', '10.0.0.5');
  // Lines before the end whose lengths vary with their numbers: the end must start at the same line either way.
  const noise = (n: number) => Array.from({ length: 200 }, (_, i) => `copied table ${i * n} rows ${n}`).join('\n');
  t.equal(fingerprint(null, `${noise(7)}\n${ending}`), fingerprint(null, `${noise(123456)}\n${ending}`));
  t.not(fingerprint(null, `${noise(7)}\n${ending}`), fingerprint(null, ending), 'the lines just before it count');
  t.equal(
    fingerprint(null, `\u001b[31merror\u001b[0m: disk full\n\n`),
    fingerprint(null, 'error: disk full'),
    'colours and trailing blank lines do not count',
  );
});

t.test('normalise shows what it made constant', async (t) => {
  t.equal(
    normalise('Thu Nov 26 03:00:01 UTC 2026 pid 4121 wrote /tmp/tmp.x8Yz/out in 1.5s to 10.0.0.5:5432'),
    '<date> <clock> UTC <n> pid <n> wrote /tmp/<tmp>/out in <duration> to <ip>:<n>',
  );
  t.equal(normalise('  File "/opt/export/db.py", line 57, in fetch'), 'File "/opt/export/db.py", line <n>, in fetch');
  t.equal(
    normalise('request 3f2c7a9e-1b4d-4e8a-9c0f-6a5b4c3d2e1f at 2026-11-26T03:00:01Z'),
    'request <uuid> at <time>',
  );
});
