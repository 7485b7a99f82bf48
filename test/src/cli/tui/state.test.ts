import t from 'tap';
import type { Run } from '@pingmon/sdk';
import { initialState, listRows, nextSnooze, readKeys, reduce } from 'pingmon/internal';
import type { Action, MonitorRow, State } from 'pingmon/internal';

const SIZE = { columns: 100, rows: 30 };
const HEIGHT = listRows(SIZE);

const monitor = (id: string, name: string, status: Run['status'] | null = 'success'): MonitorRow => ({
  monitorId: id,
  slug: name.toLowerCase().replace(/[^a-z0-9_-]+/g, '-'),
  name,
  status: status === 'failed' ? 'down' : status === 'running' ? 'running' : status ? 'up' : 'new',
  nextExpectedAt: null,
  lastRun: status && { status, startedAt: '2026-11-22T04:00:00.000Z', durationMs: 1000, silentFailure: false },
  recentFailures: status === 'failed' ? 1 : 0,
  recentRuns: status ? 1 : 0,
  snoozedUntil: null,
});

const run = (n: number, fields: Partial<Run> = {}): Run => ({
  runId: `run_${String(n).padStart(5, '0')}`,
  monitorId: 'mon_a',
  status: 'success',
  startedAt: new Date(Date.UTC(2026, 10, 22) + n * 60_000).toISOString(),
  finishedAt: null,
  durationMs: 1000,
  meta: {},
  errorMessage: null,
  hasLog: false,
  silentFailure: false,
  matchedRules: [],
  host: null,
  fingerprint: null,
  redactions: 0,
  ...fields,
});

/** Runs newest first, numbered from `from` down. */
const runs = (count: number, from = count) => Array.from({ length: count }, (_, i) => run(from - i));

const apply = (state: State, ...actions: Action[]) => actions.reduce(reduce, state);
const key = (input: string, flags: Record<string, boolean> = {}): Action => ({ type: 'key', input, key: flags });

const withMonitors = (rows: MonitorRow[]) => apply(initialState(SIZE), { type: 'monitorsLoaded', rows, at: 1 });

/** The runs view of monitor mon_a, with `loaded` runs and more on the server when `next` is given. */
const withRuns = (loaded: Run[], next: string | null = null) =>
  apply(
    withMonitors([monitor('mon_a', 'a')]),
    { type: 'open' },
    {
      type: 'runsLoaded',
      monitorId: 'mon_a',
      failedOnly: false,
      fingerprint: null,
      page: { runs: loaded, nextCursor: next },
      hint: null,
      at: 2,
    },
  );

t.test(
  'monitors are listed failing first, then by name, and the cursor follows its monitor when the order changes',
  async (t) => {
    let state = withMonitors([
      monitor('mon_b', 'beta'),
      monitor('mon_c', 'gamma', 'failed'),
      monitor('mon_a', 'alpha'),
      monitor('mon_n', 'new', null),
    ]);
    t.same(
      state.monitors.rows!.map((row) => row.name),
      ['gamma', 'alpha', 'beta', 'new'],
    );
    state = apply(state, key('j'), key('j'));
    t.equal(state.monitors.cursor, 2, 'on beta');
    state = apply(state, {
      type: 'monitorsLoaded',
      rows: [monitor('mon_b', 'beta', 'failed'), monitor('mon_c', 'gamma'), monitor('mon_a', 'alpha')],
      at: 3,
    });
    t.equal(state.monitors.rows![state.monitors.cursor]!.name, 'beta', 'still on beta, now first');
    t.equal(state.updatedAt, 3);
  },
);

t.test('moving stops at both ends and keeps the cursor inside the window of visible rows', async (t) => {
  const rows = Array.from({ length: 100 }, (_, i) => monitor(`mon_${i}`, `m${String(i).padStart(3, '0')}`));
  let state = withMonitors(rows);
  state = apply(state, key('k', { upArrow: true }));
  t.equal(state.monitors.cursor, 0);
  state = apply(state, ...Array.from({ length: HEIGHT }, () => key('', { downArrow: true })));
  t.equal(state.monitors.cursor, HEIGHT);
  t.equal(state.monitors.offset, 1, 'the window moved by one row');
  state = apply(state, key('G'));
  t.same([state.monitors.cursor, state.monitors.offset], [99, 100 - HEIGHT]);
  state = apply(state, key('', { pageUp: true }));
  t.equal(state.monitors.cursor, 99 - (HEIGHT - 1));
  t.equal(state.monitors.offset, state.monitors.cursor, 'the cursor is the first visible row');
  state = apply(state, key('g'));
  t.same([state.monitors.cursor, state.monitors.offset], [0, 0]);
  state = apply(state, key('j'), key('j'), { type: 'resize', size: { columns: 60, rows: 12 } });
  t.ok(
    state.monitors.cursor - state.monitors.offset < listRows(state.size),
    'a smaller terminal keeps the cursor on screen',
  );
});

t.test('the filter keeps monitors whose name or id contains the text, ignoring case', async (t) => {
  let state = withMonitors([
    monitor('mon_x1', 'Nightly Backup'),
    monitor('mon_x2', 'hourly sync'),
    monitor('mon_back', 'reports'),
  ]);
  state = apply(state, key('/'), key('B'), key('a'), key('c'), key('k'));
  t.equal(state.monitors.filter, 'Back');
  t.ok(state.monitors.filtering, 'letters are typed, not keys: k did not move');
  state = apply(state, key('', { backspace: true }), key('', { delete: true }), key('q'));
  t.equal(state.monitors.filter, 'Baq', 'backspace erases, q is a letter while typing');
  state = apply(state, key('', { escape: true }));
  t.same([state.monitors.filter, state.monitors.filtering], ['', false], 'Esc clears');
  state = apply(state, key('/'), key('BACK'), key('', { return: true }));
  t.same(
    [state.monitors.filter, state.monitors.filtering],
    ['BACK', false],
    'Enter keeps the filter, pasted text arrives at once',
  );
  state = apply(state, key('', { return: true }));
  t.equal(state.screen, 'runs');
  t.equal(state.runs!.name, 'Nightly Backup', 'Enter opens the first match');
  state = apply(state, key('', { escape: true }), key('', { escape: true }));
  t.equal(state.monitors.filter, '', 'Esc on the monitors view clears the kept filter');
});

t.test('Enter opens, Esc and Backspace go back, and answers for a view that was left are dropped', async (t) => {
  let state = withRuns([run(2, { status: 'failed', hasLog: true }), run(1)]);
  t.equal(state.screen, 'runs');
  state = apply(state, key('', { return: true }));
  t.equal(state.screen, 'detail');
  t.equal(state.detail!.run.runId, 'run_00002');
  t.same(state.detail!.log, { state: 'idle' }, 'the log is asked for only now');
  t.equal(state.detail!.expanded, false);
  state = apply(state, key('', { backspace: true }));
  t.equal(state.screen, 'runs');
  const left = apply(state, key('', { escape: true }));
  t.equal(left.screen, 'monitors');
  t.equal(left.runs, null);
  t.same(
    apply(left, {
      type: 'runsLoaded',
      monitorId: 'mon_a',
      failedOnly: false,
      fingerprint: null,
      page: { runs: [], nextCursor: null },
      hint: null,
      at: 9,
    }),
    left,
  );
  t.same(apply(left, { type: 'logLoaded', runId: 'run_00002', result: { hasLog: true, content: 'x' } }), left);
});

t.test('f shows failed runs only and back; the list starts again from the top', async (t) => {
  let state = apply(withRuns(runs(10)), key('j'), key('j'), key('f'));
  t.equal(state.runs!.failedOnly, true);
  t.same([state.runs!.runs, state.runs!.cursor], [null, 0]);
  const stale = apply(state, {
    type: 'runsLoaded',
    monitorId: 'mon_a',
    failedOnly: false,
    fingerprint: null,
    page: { runs: runs(3), nextCursor: null },
    hint: null,
    at: 5,
  });
  t.equal(stale.runs!.runs, null, 'a page of all runs does not fill the failed-only list');
  state = apply(state, key('f'));
  t.equal(state.runs!.failedOnly, false);
  t.same(apply(withMonitors([monitor('mon_a', 'a')]), key('f')).runs, null, 'f means nothing on the monitors view');
});

t.test(
  'a refresh puts new runs on top, updates changed ones, keeps the runs loaded by scrolling and the cursor on its run',
  async (t) => {
    let state = withRuns(runs(100, 300), 'c1');
    state = apply(
      state,
      { type: 'moreStarted' },
      {
        type: 'moreLoaded',
        monitorId: 'mon_a',
        failedOnly: false,
        fingerprint: null,
        after: 'c1',
        page: { runs: runs(100, 200), nextCursor: 'c2' },
      },
    );
    t.equal(state.runs!.runs!.length, 200);
    t.equal(state.runs!.nextCursor, 'c2');
    state = apply(state, key('G'));
    t.equal(state.runs!.cursor, 199);
    const page = [run(302), run(301, { status: 'running' }), ...runs(98, 300)];
    page[2] = { ...page[2]!, status: 'failed' };
    state = apply(state, {
      type: 'runsLoaded',
      monitorId: 'mon_a',
      failedOnly: false,
      fingerprint: null,
      page: { runs: page, nextCursor: 'c1b' },
      hint: null,
      at: 9,
    });
    const list = state.runs!.runs!;
    t.equal(list.length, 202);
    t.same(
      list.slice(0, 3).map((r) => [r.runId, r.status]),
      [
        ['run_00302', 'success'],
        ['run_00301', 'running'],
        ['run_00300', 'failed'],
      ],
    );
    t.equal(new Set(list.map((r) => r.runId)).size, 202, 'no run twice');
    t.equal(list[state.runs!.cursor]!.runId, 'run_00101', 'the cursor is still on the oldest run');
    t.equal(state.runs!.nextCursor, 'c2', 'more still loads from where scrolling stopped');
  },
);

t.test(
  'loading more: appended once, a failure is not retried until a refresh succeeds, ' +
    'a page that no longer follows on is dropped',
  async (t) => {
    const state = apply(withRuns(runs(5, 10), 'c1'), { type: 'moreStarted' });
    t.equal(state.runs!.loadingMore, true);
    const failed = apply(state, { type: 'moreFailed', problem: { kind: 'unreachable', message: 'down' } });
    t.same([failed.runs!.loadingMore, failed.runs!.moreFailed, failed.problem?.kind], [false, true, 'unreachable']);
    const refreshed = apply(failed, {
      type: 'runsLoaded',
      monitorId: 'mon_a',
      failedOnly: false,
      fingerprint: null,
      page: { runs: runs(5, 10), nextCursor: 'c1' },
      hint: null,
      at: 3,
    });
    t.same([refreshed.runs!.moreFailed, refreshed.problem], [false, null]);
    const moved = apply(state, {
      type: 'moreLoaded',
      monitorId: 'mon_a',
      failedOnly: false,
      fingerprint: null,
      after: 'other',
      page: { runs: runs(5, 5), nextCursor: null },
    });
    t.same([moved.runs!.runs!.length, moved.runs!.loadingMore], [5, false]);
    const done = apply(state, {
      type: 'moreLoaded',
      monitorId: 'mon_a',
      failedOnly: false,
      fingerprint: null,
      after: 'c1',
      page: { runs: runs(5, 5), nextCursor: null },
    });
    t.same([done.runs!.runs!.length, done.runs!.nextCursor, done.runs!.loadingMore], [10, null, false]);
  },
);

t.test('the refresh timer waits for a load under way; r always loads again', async (t) => {
  let state = apply(withMonitors([]), { type: 'loadStarted' });
  t.equal(apply(state, { type: 'tick' }).reload, state.reload);
  t.equal(apply(state, key('r')).reload, state.reload + 1);
  state = apply(state, { type: 'loadFailed', problem: { kind: 'unreachable', message: 'down' } });
  t.equal(state.loading, false);
  t.equal(apply(state, { type: 'tick' }).reload, state.reload + 1);
});

t.test('run detail: e expands the log, arrows scroll it within bounds, a collapsed log does not scroll', async (t) => {
  const log = Array.from({ length: 200 }, (_, i) => `line ${i + 1}`).join('\n');
  let state = apply(withRuns([run(1, { status: 'failed', hasLog: true })]), key('', { return: true }));
  state = apply(
    state,
    { type: 'logStarted', runId: 'run_00001' },
    { type: 'logLoaded', runId: 'run_00001', result: { hasLog: true, content: log } },
  );
  t.equal(apply(state, key('j')).detail!.scroll, 0, 'collapsed');
  state = apply(state, key('e'));
  t.equal(state.detail!.expanded, true);
  state = apply(state, key('j'), key('', { downArrow: true }));
  t.equal(state.detail!.scroll, 2);
  state = apply(state, key('G'));
  const bottom = state.detail!.scroll;
  t.ok(bottom > 150 && bottom < 200, `scrolled to the end (${bottom})`);
  t.equal(apply(state, key('j')).detail!.scroll, bottom, 'not past the end');
  state = apply(state, key('', { pageUp: true }));
  t.ok(state.detail!.scroll < bottom - 5);
  state = apply(state, key('g'));
  t.equal(state.detail!.scroll, 0);
  state = apply(state, key('G'), key('e'));
  t.same([state.detail!.expanded, state.detail!.scroll], [false, 0], 'collapsing starts from the top again');
});

t.test('run detail: a run that gains a log is asked for it again; a failed log load is retried by r', async (t) => {
  let state = apply(withRuns([run(1, { status: 'running' })]), key('', { return: true }));
  state = apply(state, { type: 'logLoaded', runId: 'run_00001', result: { hasLog: false, content: null } });
  state = apply(state, { type: 'runLoaded', run: run(1, { status: 'failed', hasLog: true }), at: 5 });
  t.same(state.detail!.log, { state: 'idle' });
  t.equal(state.detail!.run.status, 'failed');
  state = apply(state, { type: 'logFailed', runId: 'run_00001', message: 'down' });
  t.same(apply(state, key('r')).detail!.log, { state: 'idle' });
});

t.test('the key map: q quits, ? opens and closes help, keys of other views do nothing', async (t) => {
  const state = withMonitors([monitor('mon_a', 'a')]);
  t.equal(apply(state, key('q')).quit, true);
  t.equal(apply(state, key('c', { ctrl: true })).quit, true);
  const help = apply(state, key('?'));
  t.equal(help.help, true);
  t.equal(apply(help, key('j')).monitors.cursor, 0, 'the list does not move under the help');
  t.equal(apply(help, key('', { escape: true })).help, false);
  t.equal(apply(help, key('?')).help, false);
  t.equal(apply(help, key('q')).quit, true);
  t.same(apply(state, key('e')), state);
  t.same(apply(state, key('x')), state);
});

t.test('keys that arrive together in one chunk act one by one, whatever answers come between chunks', async (t) => {
  const chunk = (data: string): Action => ({ type: 'keys', keys: readKeys(data).keys });
  const state = withMonitors([monitor('mon_a', 'alpha'), monitor('mon_b', 'beta'), monitor('mon_c', 'gamma')]);
  const opened = apply(state, chunk('j\r'));
  t.same([opened.screen, opened.runs?.name], ['runs', 'beta']);
  t.equal(apply(state, chunk('\x1b[B\x1b[B\x1b[B')).monitors.cursor, 2, 'three ↓: the last row, not one down');
  const downEnter = apply(state, chunk('\x1b[B\r'));
  t.same([downEnter.screen, downEnter.runs?.name], ['runs', 'beta'], '↓ Enter moves, then opens');
  const filtered = apply(state, chunk('/gam\r'));
  t.same([filtered.monitors.filter, filtered.monitors.filtering], ['gam', false]);
  const erased = apply(state, chunk('/gamx\x7f'));
  t.equal(erased.monitors.filter, 'gam');
  const pasted = apply(state, chunk('/\x1b[200~be\nta\x1b[201~\r'));
  t.same([pasted.monitors.filter, pasted.screen], ['be ta', 'monitors'], 'a paste types, its line end does not');
  t.same(apply(state, chunk('\x1b[200~pzq\x1b[201~')), state, 'text pasted outside the filter does nothing');

  // A refresh between two chunks (with the order changed meanwhile) moves nothing the keys did.
  let refreshed = apply(state, chunk('\x1bOB'));
  refreshed = apply(refreshed, {
    type: 'monitorsLoaded',
    rows: [monitor('mon_a', 'alpha'), monitor('mon_b', 'beta', 'failed'), monitor('mon_c', 'gamma')],
    at: 5,
  });
  t.equal(refreshed.monitors.cursor, 0, 'the cursor followed beta to the top');
  refreshed = apply(refreshed, chunk('\x1b[B\x1b[B\x1b[A'), { type: 'tick' }, chunk('\x1b[B\r'));
  t.same([refreshed.screen, refreshed.runs?.name], ['runs', 'gamma']);
});

t.test('z snoozes the monitor under the cursor: 1h, pressed again 4h, then 1d, then no snooze', async (t) => {
  const now = Date.parse('2027-03-27T12:00:00.000Z');
  const inSeconds = (s: number) => new Date(now + s * 1000).toISOString();
  t.equal(nextSnooze(null, now), 3_600);
  t.equal(nextSnooze(inSeconds(3_590), now), 14_400, 'a fresh 1h snooze becomes 4h');
  t.equal(nextSnooze(inSeconds(14_390), now), 86_400);
  t.equal(nextSnooze(inSeconds(86_390), now), 0, 'after 1d the snooze ends');
  t.equal(nextSnooze(inSeconds(-5), now), 3_600, 'a snooze that is over counts as none');
  let state = reduce(initialState(SIZE), {
    type: 'monitorsLoaded',
    rows: [monitor('mon_a', 'a'), { ...monitor('mon_b', 'b'), snoozedUntil: inSeconds(3_590) }],
    at: now,
  });
  state = reduce(state, { type: 'key', input: 'z', key: {} });
  t.same(state.snoozing, { monitorId: 'mon_a', seconds: 3_600 });
  t.same(reduce(state, { type: 'key', input: 'z', key: {} }).snoozing, state.snoozing, 'one at a time');
  state = reduce(state, { type: 'snoozeDone' });
  t.equal(state.snoozing, null);
  state = reduce(reduce(state, { type: 'move', by: 1 }), { type: 'key', input: 'z', key: {} });
  t.same(state.snoozing, { monitorId: 'mon_b', seconds: 14_400 });
});

t.test('t shows the timeline in place of the runs and back; f steps through the kinds; pages append', async (t) => {
  const event = (n: number) => ({
    kind: 'run_succeeded' as const,
    at: new Date(Date.UTC(2026, 10, 22) + n * 60_000).toISOString(),
    runId: `run_${n}`,
    status: 'success' as const,
    durationMs: 5,
    errorMessage: null,
    silentFailure: false,
    host: null,
  });
  const events = (from: number, count: number) => Array.from({ length: count }, (_, i) => event(from - i));
  let state = apply(withRuns(runs(3)), key('j'), key('t'));
  t.same([state.screen, state.timeline?.monitorId, state.timeline?.filter], ['timeline', 'mon_a', 0]);
  state = apply(state, {
    type: 'timelineLoaded',
    monitorId: 'mon_a',
    filter: 0,
    page: { events: events(100, 50), nextCursor: 'e50' },
    at: 3,
  });
  state = apply(state, key('G'));
  t.equal(state.timeline!.cursor, 49);
  state = apply(
    state,
    { type: 'moreEventsStarted' },
    {
      type: 'moreEventsLoaded',
      monitorId: 'mon_a',
      filter: 0,
      after: 'e50',
      page: { events: events(50, 10), nextCursor: null },
    },
  );
  t.same([state.timeline!.events!.length, state.timeline!.nextCursor, state.timeline!.loadingMore], [60, null, false]);
  state = apply(state, key('f'));
  t.same([state.timeline!.filter, state.timeline!.events, state.timeline!.cursor], [1, null, 0], 'f: the next kind');
  const stale = {
    type: 'timelineLoaded' as const,
    monitorId: 'mon_a',
    filter: 0,
    page: { events: [], nextCursor: null },
    at: 4,
  };
  t.same(apply(state, stale), state, 'an answer for the kind left is dropped');
  t.equal(apply(state, key('t')).screen, 'runs');
  t.equal(apply(state, key('t')).runs!.cursor, 1, 'the runs as they were');
  const left = apply(state, key('', { escape: true }));
  t.same([left.screen, left.timeline, left.runs], ['monitors', null, null]);
});

t.test(
  's: a failed run filters the runs to its fingerprint, from the list or its detail; s or Esc clears',
  async (t) => {
    const refused = run(3, { status: 'failed', fingerprint: 'aaaaaaaaaaaaaaaa' });
    const list = [refused, run(2), run(1, { status: 'failed', fingerprint: 'bbbbbbbbbbbbbbbb' })];
    const base = withRuns(list);
    const onSuccess = apply(base, key('j'));
    t.equal(apply(onSuccess, key('s')), onSuccess, 'a success has no failure to filter by');
    const state = apply(base, key('s'));
    t.same([state.runs!.fingerprint, state.runs!.runs, state.runs!.cursor], ['aaaaaaaaaaaaaaaa', null, 0]);
    const stale = apply(state, {
      type: 'runsLoaded',
      monitorId: 'mon_a',
      failedOnly: false,
      fingerprint: null,
      page: { runs: list, nextCursor: null },
      hint: null,
      at: 5,
    });
    t.equal(stale.runs!.runs, null, 'a page of all runs does not fill the filtered list');
    const filtered = apply(state, {
      type: 'runsLoaded',
      monitorId: 'mon_a',
      failedOnly: false,
      fingerprint: 'aaaaaaaaaaaaaaaa',
      page: { runs: [refused], nextCursor: null },
      hint: null,
      at: 5,
    });
    t.same(filtered.runs!.runs, [refused]);
    t.same(
      [apply(filtered, key('s')).runs!.fingerprint, apply(filtered, key('s')).runs!.runs],
      [null, null],
      's clears',
    );
    const escaped = apply(filtered, key('', { escape: true }));
    t.same([escaped.screen, escaped.runs!.fingerprint], ['runs', null], 'Esc clears, and stays on the runs');
    t.equal(apply(escaped, key('', { escape: true })).screen, 'monitors', 'then Esc goes back');

    const detail = apply(base, key('G'), key('', { return: true }));
    t.equal(detail.screen, 'detail');
    const fromDetail = apply(detail, key('s'));
    t.same([fromDetail.screen, fromDetail.detail, fromDetail.runs!.fingerprint], ['runs', null, 'bbbbbbbbbbbbbbbb']);
    const reopened = apply(filtered, key('', { return: true }), key('s'));
    t.same([reopened.screen, reopened.runs!.runs], ['runs', [refused]], 'its own filter: back to the same list');
    const success = apply(base, key('j'), key('', { return: true }));
    t.equal(apply(success, key('s')), success, 'a successful run: nothing');
  },
);
