import t from 'tap';
import { FIXED_RULE } from '../../helpers/alert-fixtures.js';
import { PingmonError } from '@pingmon/sdk';
import {
  ago,
  capRows,
  clean,
  COLLAPSE_OVER,
  detailFields,
  exactDuration,
  exactWhen,
  firstLine,
  fit,
  logView,
  runDetailView,
  matchedRules,
  NotLoggedInError,
  problemOf,
  statusText,
  textWidth,
  windowStart,
  wrap,
} from 'pingmon/internal';

t.test(
  'clean leaves no escape sequence or control character that could move the cursor or colour the screen',
  async (t) => {
    const cases: Array<[string, string, string]> = [
      ['colours', '\x1b[31mred\x1b[0m and \x1b[1;38;5;208mbold orange\x1b[m', 'red and bold orange'],
      ['cursor moves and clears', 'a\x1b[2J\x1b[H\x1b[10;20Hb\x1b[?25l\x1b[Kc', 'abc'],
      ['OSC title and hyperlink', '\x1b]0;owned\x07x\x1b]8;;http://e.x\x1b\\link\x1b]8;;\x1b\\', 'xlink'],
      ['C1 CSI and DCS', '\x9b31mq\x1bPdata\x1b\\z', 'qz'],
      ['lone escape and two-byte sequences', 'a\x1bcb\x1b(Bc\x1b', 'abc'],
      ['controls, NUL, DEL, bell, backspace', 'a\x00b\x07c\x7fd\be', 'abcde'],
      ['bidi overrides', 'abc\u202edef\u2066g', 'abcdefg'],
      ['CR LF and lone CR become newlines', 'one\r\ntwo\rthree', 'one\ntwo\nthree'],
      ['tabs expand to stops of 8', 'a\tb\n\tc', 'a       b\n        c'],
    ];
    for (const [what, input, expected] of cases) t.equal(clean(input), expected, what);
    t.equal(firstLine('\n  \x1b[31mtar: failed\x1b[0m \nsecond'), 'tar: failed');
    t.equal(firstLine(null), '');
  },
);

t.test('wrap cuts every row to the width, counting wide characters as two columns', async (t) => {
  const rows = wrap(`${'x'.repeat(250)}\nshort\n\n界界界界界😀😀 end\n`, 8);
  t.ok(
    rows.every((row) => textWidth(row) <= 8),
    rows.join('|'),
  );
  t.same(rows.slice(0, 4), ['xxxxxxxx', 'xxxxxxxx', 'xxxxxxxx', 'xxxxxxxx']);
  t.same(rows.slice(-5), ['short', '', '界界界界', '界😀😀 e', 'nd'], 'empty lines kept; no row for the final newline');
  t.equal(fit('a long name of a monitor', 10), 'a long na…');
  t.equal(fit('界界界界', 5), '界界…');
  t.equal(fit('fits', 4), 'fits');
  t.same(capRows(['one', 'two', 'three'], 2, 10), ['one', 'two …']);
});

t.test(
  'a log of more than 400 characters starts collapsed, saying exactly how many characters are hidden',
  async (t) => {
    const size = { columns: 100, rows: 30 };
    const loaded = (content: string) => ({ state: 'loaded' as const, result: { hasLog: true, content } });
    const exactly = 'y'.repeat(COLLAPSE_OVER);
    t.equal(logView(size, 9, loaded(exactly), false, 0).mode, 'open', '400 characters are shown whole');
    const text = Array.from({ length: 50 }, (_, i) => `line ${String(i).padStart(2, '0')} ${'z'.repeat(10)}`).join(
      '\n',
    );
    const collapsed = logView(size, 9, loaded(text), false, 0);
    t.equal(collapsed.mode, 'collapsed');
    t.same(collapsed.rows, [
      'line 00 zzzzzzzzzz',
      'line 01 zzzzzzzzzz',
      'line 02 zzzzzzzzzz',
      'line 03 zzzzzzzzzz',
      'line 04 zzzzzzzzzz',
    ]);
    t.equal(collapsed.hidden, text.length - 5 * 19, 'five lines and their newlines are shown');
    const open = logView(size, 9, loaded(text), true, 1000);
    t.same(
      [open.mode, open.scroll, open.scroll + open.rows.length, open.totalRows],
      ['open', 50 - open.rows.length, 50, 50],
      'scroll is held within the log',
    );
    t.equal(logView(size, 9, { state: 'loaded', result: { hasLog: false, content: null } }, false, 0).mode, 'none');
    t.equal(logView(size, 9, { state: 'idle' }, false, 0).mode, 'loading');
  },
);

t.test('the window of visible rows follows the cursor and never runs past the list', async (t) => {
  t.equal(windowStart(0, 0, 10, 100), 0);
  t.equal(windowStart(9, 0, 10, 100), 0);
  t.equal(windowStart(10, 0, 10, 100), 1);
  t.equal(windowStart(50, 45, 10, 100), 45);
  t.equal(windowStart(3, 45, 10, 100), 3);
  t.equal(windowStart(99, 0, 10, 100), 90);
  t.equal(windowStart(2, 40, 10, 5), 0, 'a list shorter than the window starts at the top');
});

t.test('statuses read without colour; times are relative to when the data was fetched', async (t) => {
  t.equal(statusText('failed'), '✗ failed');
  t.equal(statusText('success', true), '✓ success ▲');
  t.equal(statusText('none'), '· no runs');
  const now = Date.parse('2026-11-22T12:00:00.000Z');
  t.same(
    [
      '2026-11-22T11:59:58.000Z',
      '2026-11-22T11:59:00.000Z',
      '2026-11-22T11:00:00.000Z',
      '2026-11-20T12:00:00.000Z',
      null,
    ].map((at) => ago(at, now)),
    ['just now', '1m ago', '1h ago', '2d ago', 'never'],
  );
  const matched = { ruleId: 'rule_1', metric: 'rows', op: 'lt', value: 1, actual: 0, ...FIXED_RULE } as const;
  t.same(matchedRules({ matchedRules: [matched] }), ['rows < 1 (was 0)']);
});

t.test('the run detail shows times to the millisecond, and durations as exactly under a minute', async (t) => {
  t.equal(exactWhen('2026-11-22T13:30:24.998Z'), '2026-11-22 13:30:24.998');
  t.equal(exactWhen(null), '—');
  const cases: Array<[number | null, string]> = [
    [null, '—'],
    [0, '0ms'],
    [8, '8ms'],
    [999, '999ms'],
    [1_000, '1.000s'],
    [1_520, '1.520s'],
    [59_999, '59.999s'],
    [60_000, '1m 0s'],
    [200_000, '3m 20s'],
    [7_260_000, '2h 1m'],
  ];
  for (const [ms, text] of cases) t.equal(exactDuration(ms), text, String(ms));
});

t.test('problems say what to do', async (t) => {
  const error = (status: number, code: string, message = 'm') =>
    new PingmonError({ status, code, message, method: 'GET', url: 'u' });
  t.same(problemOf(error(0, 'network_error'), 'http://h:1'), {
    kind: 'unreachable',
    message: 'Cannot reach the pingmon server at http://h:1.',
  });
  t.match(problemOf(error(0, 'timeout'), 'http://h:1').message, /no answer in time/);
  t.same(problemOf(error(401, 'token_expired'), ''), {
    kind: 'login',
    message: 'Your login has expired: run `pingmon login`, then press r.',
  });
  t.match(problemOf(error(401, 'invalid_token'), ''), { kind: 'login', message: /run `pingmon login`/ });
  t.match(problemOf(new NotLoggedInError('not logged in: run `pingmon login` first'), ''), {
    kind: 'login',
    message: 'Not logged in: run `pingmon login` first.',
  });
  t.same(problemOf(error(404, 'monitor_not_found', 'No monitor mon_x in your account.'), ''), {
    kind: 'gone',
    message: 'No monitor mon_x in your account.',
  });
  t.same(problemOf(new Error('boom'), ''), { kind: 'other', message: 'boom' });
});

t.test('the run detail names the host the run ran on, cleaned, or says none was sent', async (t) => {
  const run = {
    runId: 'run_0000000001',
    monitorId: 'mon_a',
    status: 'failed' as const,
    startedAt: '2026-11-22T04:00:00.000Z',
    finishedAt: '2026-11-22T04:00:01.000Z',
    durationMs: 1000,
    meta: {},
    errorMessage: 'exit code 3',
    hasLog: false,
    silentFailure: false,
    matchedRules: [],
    fingerprint: 'b7e2c01f9a3d4e56',
    redactions: 0,
  };
  const host = (value: string | null) =>
    detailFields({ ...run, host: value }, 'job', { columns: 80, rows: 24 }).find((f) => f.label === 'Host')?.rows;
  t.same(host('web-1'), ['web-1']);
  t.same(host('web\x1b[31m-2'), ['web-2'], 'escapes are removed');
  t.same(host(null), ['— (not sent)']);
  const redacted = (redactions: number) =>
    detailFields({ ...run, host: null, redactions }, 'job', { columns: 80, rows: 24 }).find(
      (f) => f.label === 'Redacted',
    )?.rows;
  t.same(redacted(3), ['3 values'], 'how many secrets were redacted before the run left its host');
  t.same(redacted(1), ['1 value']);
  t.equal(redacted(0), undefined, 'no line when none were');
});

t.test('an expanded log gets every row below a two-line summary of the run, at any terminal size', async (t) => {
  const run = {
    runId: 'run_0000000002',
    monitorId: 'mon_a',
    status: 'failed' as const,
    startedAt: '2026-11-22T04:00:00.000Z',
    finishedAt: '2026-11-22T04:00:01.520Z',
    durationMs: 1520,
    meta: { rows: 0 },
    errorMessage: 'tar: /data: Permission denied\nexit code 2',
    hasLog: true,
    silentFailure: false,
    matchedRules: [],
    host: 'db-1',
    fingerprint: 'b7e2c01f9a3d4e56',
    redactions: 0,
  };
  const content = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join('\n');
  const detail = (expanded: boolean) => ({
    run,
    name: 'nightly backup',
    log: { state: 'loaded' as const, result: { hasLog: true, content } },
    expanded,
    scroll: 0,
  });
  const small = { columns: 80, rows: 24 };
  const collapsed = runDetailView(detail(false), small);
  t.equal(collapsed.log.mode, 'collapsed');
  t.ok(collapsed.fields.length >= 9, 'collapsed: every field');
  const expanded = runDetailView(detail(true), small);
  t.same(expanded.fields, [
    { label: 'Status', rows: ['✗ failed · started 2026-11-22 04:00:00.000 UTC · 1.520s · on db-1'] },
    { label: 'Error', rows: ['tar: /data: Permission denied …'] },
  ]);
  // 24 rows: one left undrawn, header, title, notice, footer, two field lines, the "Log" line and two borders.
  t.equal(expanded.log.rows.length, 24 - 1 - 4 - 2 - 3);
  t.equal(runDetailView(detail(true), { columns: 120, rows: 40 }).log.rows.length, 40 - 1 - 4 - 2 - 3);
  t.equal(runDetailView(detail(true), { columns: 120, rows: 200 }).log.rows.length, 100, 'a short log, whole');
});
