import t from 'tap';
import { OutputCapture } from '../../../../cli/dist/run/capture.js';
import { outcomeOf } from '../../../../cli/dist/run/outcome.js';
import { parseMetaLines } from '../../../../cli/dist/run/meta.js';
import { printTable } from '../../../../cli/dist/output.js';

const feed = (capture: OutputCapture, text: string, chunk = 333) => {
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += chunk) capture.add(bytes.subarray(i, i + chunk));
  return capture.text();
};

/** As `feed`, but every chunk arrives in one reused buffer, as `pingmon run` reads a FIFO: overwritten after `add`. */
const feedReused = (capture: OutputCapture, text: string, chunk: number) => {
  const bytes = Buffer.from(text);
  const reused = Buffer.alloc(chunk);
  for (let i = 0; i < bytes.length; i += chunk) {
    const n = bytes.copy(reused, 0, i, i + chunk);
    capture.add(reused.subarray(0, n));
    reused.fill(0x21);
  }
  return capture.text();
};

t.test('OutputCapture keeps what it needs of a chunk whose buffer is reused after add', async (t) => {
  const lines = Array.from({ length: 4_000 }, (_, i) => `line ${i} é∑🙂\n`).join('');
  for (const keep of ['head-tail', 'head', 'tail'] as const) {
    for (const chunk of [1, 7, 4_096, 65_536, 200_000]) {
      t.equal(
        feedReused(new OutputCapture(keep), lines, chunk),
        feed(new OutputCapture(keep), lines, chunk),
        `${keep}, chunks of ${chunk} bytes`,
      );
    }
    t.equal(feedReused(new OutputCapture(keep), 'short\n', 3), 'short\n');
  }
});

t.test('OutputCapture keeps all of a short output', async (t) => {
  t.equal(feed(new OutputCapture(), 'hello\nworld\n'), 'hello\nworld\n');
  t.equal(feed(new OutputCapture('head'), ''), '');
});

t.test('OutputCapture head-tail keeps 2,000 + 8,000 characters and says how many it left out', async (t) => {
  const text = 'H'.repeat(2_000) + 'm'.repeat(50_000) + 'T'.repeat(8_000);
  const log = feed(new OutputCapture('head-tail'), text);
  // The marker takes its room from the tail: the whole log stays within the 10,000 characters the server keeps.
  t.equal(log, `${'H'.repeat(2_000)}\n[pingmon: 50080 bytes of output left out here]\n${'T'.repeat(7_920)}`);
  t.ok(log.length <= 10_000);
});

t.test('OutputCapture head and tail modes', async (t) => {
  const text = 'a'.repeat(10_000) + 'b'.repeat(5_000);
  t.equal(
    feed(new OutputCapture('head'), text),
    `${'a'.repeat(9_920)}\n[pingmon: 5080 bytes of output left out at the end]\n`,
  );
  t.equal(
    feed(new OutputCapture('tail'), text),
    `[pingmon: 5080 bytes of output left out at the start]\n${'a'.repeat(4_920)}${'b'.repeat(5_000)}`,
  );
  t.equal(
    feed(new OutputCapture('tail'), 'z'.repeat(10_000)),
    'z'.repeat(10_000),
    'exactly 10,000 characters need no marker',
  );
});

t.test('OutputCapture never splits a UTF-8 character across chunks', async (t) => {
  const text = 'é€😀'.repeat(100);
  t.equal(feed(new OutputCapture(), text, 1), text);
});

t.test('OutputCapture counts the bytes it leaves out, whatever they are', async (t) => {
  // 3-byte characters, then invalid UTF-8: the count is of bytes, not of characters or replacement marks.
  const euros = Buffer.from('€'.repeat(20_000));
  const invalid = Buffer.alloc(30_000, 0xff);
  for (const [name, bytes] of [
    ['multi-byte', euros],
    ['invalid', invalid],
  ] as const) {
    for (const keep of ['head-tail', 'head', 'tail'] as const) {
      const capture = new OutputCapture(keep);
      for (let i = 0; i < bytes.length; i += 1_000) capture.add(bytes.subarray(i, i + 1_000));
      const log = capture.text();
      const marker = /\n?\[pingmon: (\d+) bytes of output left out [a-z ]+\]\n/.exec(log)!;
      const kept = Buffer.byteLength(log.replace(marker[0], ''));
      const keptBytes = name === 'invalid' ? log.replace(marker[0], '').length : kept;
      t.equal(Number(marker[1]) + keptBytes, bytes.length, `${name}, ${keep}: kept + left out = all`);
      t.ok(log.length <= 10_000, `${name}, ${keep}: ${log.length} characters`);
    }
  }
});

t.test('OutputCapture memory stays bounded', async (t) => {
  const capture = new OutputCapture();
  const chunk = Buffer.alloc(64 * 1024, 'x');
  for (let i = 0; i < 2_000; i++) capture.add(chunk); // 125 MiB
  const log = capture.text();
  t.ok(log.length < 10_200, `log of ${log.length} characters`);
  const omitted = 2_000 * chunk.length - 10_000 + 80;
  t.ok(log.includes(`[pingmon: ${omitted} bytes of output left out here]`), 'the marker counts what was left out');
});

t.test('parseMetaLines', async (t) => {
  t.same(parseMetaLines(['rows=12', ' seconds = 1.5 ', '', '# comment'], 'x'), {
    ok: true,
    meta: { rows: 12, seconds: 1.5 },
  });
  for (const bad of ['rows', 'rows=', '=3', 'rows=many', 'rows=Infinity', `${'k'.repeat(65)}=1`]) {
    t.match(parseMetaLines([bad], '--meta'), { ok: false, error: /--meta: .* is not key=number/ }, bad);
  }
});

t.test('outcomeOf names the three outcomes and the exit code passed on', async (t) => {
  const job = { command: 'backup.sh', timeoutMs: 60_000 };
  const base = { timedOut: false, failed: false };
  t.same(outcomeOf(job, { ...base, exitCode: 0 }), { kind: 'success', exitCode: 0 });
  const exited = { kind: 'failed', exitCode: 3, failure: 'exit code 3' };
  t.same(outcomeOf(job, { ...base, exitCode: 3, failed: true }), exited);
  const killed = { kind: 'failed', exitCode: 137, failure: 'killed by signal SIGKILL' };
  t.same(outcomeOf(job, { ...base, signal: 'SIGKILL', failed: true }), killed);
  const timedOut = { kind: 'failed', exitCode: 143, failure: 'timed out after 1m and was killed (SIGTERM)' };
  t.same(outcomeOf(job, { ...base, timedOut: true, signal: 'SIGTERM', failed: true }), timedOut);
  const notFound = { kind: 'not-started', exitCode: 127, failure: 'could not start: command not found: backup.sh' };
  t.same(outcomeOf(job, { ...base, code: 'ENOENT', failed: true }), notFound);
  const denied = { kind: 'not-started', exitCode: 126, failure: /permission denied/ };
  t.match(outcomeOf(job, { ...base, code: 'EACCES', failed: true }), denied);
});

t.test('printTable fits the width, cutting the widest column first', async (t) => {
  const lines: string[] = [];
  printTable(['ID', 'NAME'], [['mon_1', 'a very long monitor name that will not fit']], (l) => lines.push(l), 30);
  t.ok(
    lines.every((l) => l.length <= 30),
    lines.join('\n'),
  );
  t.match(lines[1], /…$/);
});

t.test('printTable measures display width: a wide character takes two columns, columns stay aligned', async (t) => {
  const lines: string[] = [];
  printTable(
    ['NAME', 'STATUS'],
    [
      ['界界界', '✓ success'],
      ['abc', '✗ failed'],
    ],
    (l) => lines.push(l),
    80,
  );
  t.same(lines, ['NAME    STATUS', '界界界  ✓ success', 'abc     ✗ failed']);
  const narrow: string[] = [];
  printTable(['NAME', 'X'], [['界界界界界界界界', 'y']], (l) => narrow.push(l), 10);
  t.same(narrow, ['NAME     X', '界界界…  y']);
});
