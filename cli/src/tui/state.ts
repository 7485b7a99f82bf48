import type { LogResult, Run, RunDetail, RunOutput } from '@pingmon/sdk';
import type { KeyFlags, KeyPress } from './key-reader.js';
import { commandFor } from './keys.js';
import type { LogState, Size } from './layout.js';
import type { Problem } from './problem.js';
import type { MonitorRow, RunPage } from './source.js';
import { mergeRuns, sortMonitors, visibleMonitors } from './lists.js';
import { keepOnScreen, moveBy, pageSize } from './positions.js';
import { EVENT_FILTERS, newTimeline, timelineAfter } from './timeline.js';
import type { TimelineAction, TimelineState } from './timeline.js';

// The whole dashboard as one value and one pure function: what a key or an answer from the server does.
// Effects (fetching, timers) live in use-browse.ts and only dispatch these actions.

export type Screen = 'monitors' | 'runs' | 'timeline' | 'detail';

export interface ListPosition {
  cursor: number;
  /** The first item on screen. */
  offset: number;
}

export interface MonitorsState extends ListPosition {
  /** null until the first answer. */
  rows: MonitorRow[] | null;
  filter: string;
  filtering: boolean;
}

export interface RunsState extends ListPosition {
  monitorId: string;
  name: string;
  failedOnly: boolean;
  /** Only the runs that failed the same way: with this failure fingerprint (s), or null. */
  fingerprint: string | null;
  runs: Run[] | null;
  nextCursor: string | null;
  loadingMore: boolean;
  /** Loading more failed: not tried again until a refresh succeeds. */
  moreFailed: boolean;
  /** What the monitor's runs say about its schedule (its scheduleHint), or null. */
  hint: string | null;
}

export interface DetailState {
  monitorId: string;
  name: string;
  /** The run as listed, then as read on its own (with its `failure`). */
  run: Run | RunDetail;
  /** When the run was read on its own: the "now" of its "first seen 3d ago". */
  readAt: number | null;
  log: LogState;
  /** A running run's live output read so far (its newest 64 KiB), and the offset to read on from. */
  live?: { text: string; next: number };
  expanded: boolean;
  scroll: number;
}

/** The live output kept, as the server keeps it. */
const LIVE_KEPT_CHARS = 65_536;

export interface State {
  screen: Screen;
  size: Size;
  help: boolean;
  monitors: MonitorsState;
  runs: RunsState | null;
  /** The monitor's timeline, shown in place of its runs (t). */
  timeline: TimelineState | null;
  detail: DetailState | null;
  /** A load of the open view is under way. */
  loading: boolean;
  /** Why the last load failed; cleared by the next success or by moving to another view. */
  problem: Problem | null;
  /** When the data on screen was fetched (ms). */
  updatedAt: number | null;
  /** Bumped to load the open view again. */
  reload: number;
  /** q was pressed: the app unmounts. */
  quit: boolean;
  /** A pause or resume asked for with p, until the server has answered. */
  pausing: { monitorId: string; paused: boolean } | null;
  /** A snooze asked for with z (seconds from now; 0 ends it), until the server has answered. */
  snoozing: { monitorId: string; seconds: number } | null;
}

export type Action =
  | { type: 'key'; input: string; key: KeyFlags }
  /** The keys of one chunk of input, in order. */
  | { type: 'keys'; keys: KeyPress[] }
  | { type: 'quit' }
  | { type: 'resize'; size: Size }
  | { type: 'move'; by: number }
  | { type: 'page'; by: 1 | -1 }
  | { type: 'jump'; to: 'top' | 'bottom' }
  | { type: 'open' }
  | { type: 'back' }
  | { type: 'refresh' }
  | { type: 'tick' }
  | { type: 'toggleHelp' }
  | { type: 'toggleFailedOnly' }
  | { type: 'toggleSameFailure' }
  | { type: 'toggleTimeline' }
  | { type: 'cycleEventFilter' }
  | TimelineAction
  | { type: 'toggleLog' }
  | { type: 'togglePause' }
  | { type: 'pauseDone' }
  | { type: 'pauseFailed'; problem: Problem }
  | { type: 'cycleSnooze' }
  | { type: 'snoozeDone' }
  | { type: 'snoozeFailed'; problem: Problem }
  | { type: 'filterStart' }
  | { type: 'filterType'; text: string }
  | { type: 'filterErase' }
  | { type: 'filterDone' }
  | { type: 'filterClear' }
  | { type: 'loadStarted' }
  | { type: 'loadFailed'; problem: Problem }
  | { type: 'monitorsLoaded'; rows: MonitorRow[]; at: number }
  | ({ type: 'runsLoaded'; page: RunPage; hint: string | null; at: number } & RunsQuery)
  | { type: 'moreStarted' }
  | ({ type: 'moreLoaded'; after: string; page: RunPage } & RunsQuery)
  | { type: 'moreFailed'; problem: Problem }
  | { type: 'runLoaded'; run: Run | RunDetail; at: number }
  | { type: 'logStarted'; runId: string }
  | { type: 'logLoaded'; runId: string; result: LogResult }
  | { type: 'logFailed'; runId: string; message: string }
  | { type: 'outputLoaded'; runId: string; output: RunOutput };

/** Which runs a page of runs is of: an answer for another list than the one open is dropped. */
export type RunsQuery = Pick<RunsState, 'monitorId' | 'failedOnly' | 'fingerprint'>;

export function initialState(size: Size): State {
  return {
    screen: 'monitors',
    size,
    help: false,
    monitors: { rows: null, cursor: 0, offset: 0, filter: '', filtering: false },
    runs: null,
    timeline: null,
    detail: null,
    loading: false,
    problem: null,
    updatedAt: null,
    reload: 0,
    quit: false,
    pausing: null,
    snoozing: null,
  };
}

export function reduce(state: State, action: Action): State {
  switch (action.type) {
    case 'key': {
      // Read against the state it arrives in, not the last one rendered: fast typing loses nothing.
      const command = commandFor(state, action.input, action.key);
      return command ? reduce(state, command) : state;
    }
    case 'keys':
      return action.keys.reduce((next, { input, key }) => reduce(next, { type: 'key', input, key }), state);
    case 'quit':
      return { ...state, quit: true };
    case 'resize':
      return keepOnScreen({ ...state, size: action.size });
    case 'move':
      return moveBy(state, action.by);
    case 'page':
      return moveBy(state, action.by * pageSize(state));
    case 'jump':
      return moveBy(state, action.to === 'top' ? -Infinity : Infinity);
    case 'open':
      return open(state);
    case 'back':
      return back(state);
    case 'refresh':
      return refresh(state);
    case 'tick':
      return state.loading || state.help ? state : { ...state, reload: state.reload + 1 };
    case 'toggleHelp':
      return { ...state, help: !state.help };
    case 'toggleFailedOnly':
      if (state.screen !== 'runs' || !state.runs) return state;
      return refiltered(state, state.runs, { failedOnly: !state.runs.failedOnly });
    case 'toggleSameFailure':
      return sameFailure(state);
    case 'toggleTimeline':
      if (state.screen === 'timeline') return { ...state, screen: 'runs', timeline: null, problem: null };
      if (state.screen !== 'runs' || !state.runs) return state;
      return {
        ...state,
        screen: 'timeline',
        timeline: newTimeline(state.runs.monitorId, state.runs.name),
        problem: null,
      };
    case 'cycleEventFilter': {
      const timeline = state.timeline;
      if (state.screen !== 'timeline' || !timeline) return state;
      const filter = (timeline.filter + 1) % EVENT_FILTERS.length;
      return { ...state, problem: null, timeline: newTimeline(timeline.monitorId, timeline.name, filter) };
    }
    case 'toggleLog':
      if (state.screen !== 'detail' || !state.detail) return state;
      return { ...state, detail: { ...state.detail, expanded: !state.detail.expanded, scroll: 0 } };
    case 'togglePause': {
      const row = state.screen === 'monitors' ? visibleMonitors(state.monitors)[state.monitors.cursor] : undefined;
      if (!row || state.pausing) return state;
      return { ...state, pausing: { monitorId: row.monitorId, paused: row.status !== 'paused' } };
    }
    case 'cycleSnooze': {
      const row = state.screen === 'monitors' ? visibleMonitors(state.monitors)[state.monitors.cursor] : undefined;
      if (!row || state.snoozing) return state;
      const seconds = nextSnooze(row.snoozedUntil, state.updatedAt ?? 0);
      return { ...state, snoozing: { monitorId: row.monitorId, seconds } };
    }
    case 'filterStart':
      return state.screen === 'monitors' ? withFilter(state, state.monitors.filter, true) : state;
    case 'filterType':
      return withFilter(state, state.monitors.filter + action.text, true);
    case 'filterErase':
      return withFilter(state, [...state.monitors.filter].slice(0, -1).join(''), true);
    case 'filterDone':
      return withFilter(state, state.monitors.filter, false);
    case 'filterClear':
      return withFilter(state, '', false);
    default:
      return loaded(state, action);
  }
}

/** The snoozes z steps through, in seconds: 1h, 4h, 1d, then none. */
export const SNOOZE_STEPS = [3_600, 14_400, 86_400];

/**
 * The snooze z asks for: the first step longer than what is left of the current one (pressed again at once,
 * 1h becomes 4h, then 1d), and after the last, 0: the snooze ends. `now` is when the list was fetched.
 */
export function nextSnooze(snoozedUntil: string | null, now: number): number {
  const left = snoozedUntil === null ? 0 : (Date.parse(snoozedUntil) - now) / 1000;
  if (left <= 0) return SNOOZE_STEPS[0]!;
  // A minute of slack: the list may be a refresh old.
  return SNOOZE_STEPS.find((step) => step > left + 60) ?? 0;
}

/** Answers from the server. */
function loaded(state: State, action: Action): State {
  switch (action.type) {
    case 'loadStarted':
      return { ...state, loading: true };
    case 'loadFailed':
      return { ...state, loading: false, problem: action.problem };
    case 'pauseDone':
      return { ...state, pausing: null, reload: state.reload + 1 };
    case 'pauseFailed':
      return { ...state, pausing: null, problem: action.problem };
    case 'snoozeDone':
      return { ...state, snoozing: null, reload: state.reload + 1 };
    case 'snoozeFailed':
      return { ...state, snoozing: null, problem: action.problem };
    case 'monitorsLoaded': {
      const selected = visibleMonitors(state.monitors)[state.monitors.cursor]?.monitorId;
      const monitors = { ...state.monitors, rows: sortMonitors(action.rows) };
      const cursor = visibleMonitors(monitors).findIndex((row) => row.monitorId === selected);
      return keepOnScreen({
        ...state,
        ...fresh(action.at),
        monitors: { ...monitors, cursor: cursor >= 0 ? cursor : monitors.cursor },
      });
    }
    case 'runsLoaded': {
      const runs = state.runs;
      if (!runs || !sameQuery(runs, action)) return state;
      const selected = runs.runs?.[runs.cursor]?.runId;
      const merged = runs.runs ? mergeRuns(runs.runs, runs.nextCursor, action.page) : action.page;
      const cursor = merged.runs.findIndex((run) => run.runId === selected);
      return keepOnScreen({
        ...state,
        ...fresh(action.at),
        runs: {
          ...runs,
          runs: merged.runs,
          nextCursor: merged.nextCursor,
          moreFailed: false,
          hint: action.hint,
          cursor: cursor >= 0 ? cursor : runs.cursor,
        },
      });
    }
    case 'timelineLoaded': {
      const timeline = state.timeline;
      if (timeline?.monitorId !== action.monitorId || timeline.filter !== action.filter) return state;
      return keepOnScreen({ ...state, ...fresh(action.at), timeline: timelineAfter(timeline, action) });
    }
    case 'moreEventsStarted':
      return state.timeline ? { ...state, timeline: timelineAfter(state.timeline, action) } : state;
    case 'moreEventsLoaded': {
      const timeline = state.timeline;
      if (timeline?.monitorId !== action.monitorId || timeline.filter !== action.filter) return state;
      return { ...state, timeline: timelineAfter(timeline, action) };
    }
    case 'moreEventsFailed':
      return {
        ...state,
        problem: action.problem,
        timeline: state.timeline && timelineAfter(state.timeline, action),
      };
    case 'moreStarted':
      return state.runs ? { ...state, runs: { ...state.runs, loadingMore: true } } : state;
    case 'moreLoaded': {
      const runs = state.runs;
      if (!runs?.runs || !sameQuery(runs, action)) return state;
      // A refresh moved the end of the list meanwhile: this page may not follow on; ask again from the new end.
      if (runs.nextCursor !== action.after) return { ...state, runs: { ...runs, loadingMore: false } };
      const known = new Set(runs.runs.map((run) => run.runId));
      const added = action.page.runs.filter((run) => !known.has(run.runId));
      return {
        ...state,
        runs: { ...runs, runs: [...runs.runs, ...added], nextCursor: action.page.nextCursor, loadingMore: false },
      };
    }
    case 'moreFailed':
      return {
        ...state,
        problem: action.problem,
        runs: state.runs && { ...state.runs, loadingMore: false, moreFailed: true },
      };
    case 'runLoaded': {
      const detail = state.detail;
      if (!detail || detail.run.runId !== action.run.runId) return state;
      // A run that finished (with a log) since the log was asked for: ask again.
      const ended = detail.run.status === 'running' && action.run.status !== 'running';
      const log: LogState = ended || action.run.hasLog !== detail.run.hasLog ? { state: 'idle' } : detail.log;
      const read = { run: action.run, readAt: action.at, log };
      return keepOnScreen({ ...state, ...fresh(action.at), detail: { ...detail, ...read } });
    }
    case 'outputLoaded': {
      const detail = state.detail;
      if (!detail || detail.run.runId !== action.runId || detail.run.status !== 'running') return state;
      const { text, next, running } = action.output;
      const live = { text: ((detail.live?.text ?? '') + text).slice(-LIVE_KEPT_CHARS), next };
      // The run ended: read it again, and its stored log.
      const reload = running ? state.reload : state.reload + 1;
      return keepOnScreen({ ...state, reload, detail: { ...detail, live } });
    }
    case 'logStarted':
      return withLog(state, action.runId, { state: 'loading' });
    case 'logLoaded':
      return keepOnScreen(withLog(state, action.runId, { state: 'loaded', result: action.result }));
    case 'logFailed':
      return withLog(state, action.runId, { state: 'failed', message: action.message });
    default:
      return state;
  }
}

function fresh(at: number): Pick<State, 'loading' | 'problem' | 'updatedAt'> {
  return { loading: false, problem: null, updatedAt: at };
}

function open(state: State): State {
  if (state.help) return state;
  if (state.screen === 'monitors') {
    const row = visibleMonitors(state.monitors)[state.monitors.cursor];
    if (!row) return state;
    const runs: RunsState = {
      monitorId: row.monitorId,
      name: row.name,
      failedOnly: false,
      fingerprint: null,
      runs: null,
      nextCursor: null,
      loadingMore: false,
      moreFailed: false,
      cursor: 0,
      offset: 0,
      hint: null,
    };
    return { ...state, screen: 'runs', runs, problem: null, monitors: { ...state.monitors, filtering: false } };
  }
  if (state.screen === 'runs' && state.runs?.runs) {
    const run = state.runs.runs[state.runs.cursor];
    if (!run) return state;
    const detail: DetailState = {
      monitorId: state.runs.monitorId,
      name: state.runs.name,
      run,
      readAt: null,
      log: { state: 'idle' },
      expanded: false,
      scroll: 0,
    };
    return { ...state, screen: 'detail', detail, problem: null };
  }
  return state;
}

function back(state: State): State {
  if (state.help) return { ...state, help: false };
  if (state.screen === 'detail') return { ...state, screen: 'runs', detail: null, problem: null };
  if (state.screen === 'runs' && state.runs?.fingerprint) return refiltered(state, state.runs, { fingerprint: null });
  if (state.screen === 'runs' || state.screen === 'timeline')
    return { ...state, screen: 'monitors', runs: null, timeline: null, problem: null };
  return state.monitors.filter ? withFilter(state, '', false) : state;
}

function refresh(state: State): State {
  const detail = state.detail;
  const retryLog = detail?.log.state === 'failed';
  return {
    ...state,
    reload: state.reload + 1,
    detail: detail && retryLog ? { ...detail, log: { state: 'idle' } } : detail,
  };
}

function sameQuery(runs: RunsQuery, query: RunsQuery): boolean {
  return (
    runs.monitorId === query.monitorId && runs.failedOnly === query.failedOnly && runs.fingerprint === query.fingerprint
  );
}

/**
 * s: from a failed run (the one open, or the one under the cursor), the monitor's runs that failed the same way;
 * pressed again on those, all runs.
 */
function sameFailure(state: State): State {
  const runs = state.runs;
  if (!runs) return state;
  if (state.screen === 'detail') {
    const fingerprint = state.detail?.run.fingerprint;
    if (!fingerprint) return state;
    const back = { ...state, screen: 'runs' as const, detail: null, problem: null };
    return fingerprint === runs.fingerprint ? back : refiltered(back, runs, { fingerprint });
  }
  if (state.screen !== 'runs') return state;
  if (runs.fingerprint) return refiltered(state, runs, { fingerprint: null });
  const fingerprint = runs.runs?.[runs.cursor]?.fingerprint;
  return fingerprint ? refiltered(state, runs, { fingerprint }) : state;
}

/** The runs list with another filter: loaded again from the top. */
function refiltered(state: State, runs: RunsState, filter: Partial<Omit<RunsQuery, 'monitorId'>>): State {
  const empty = { runs: null, nextCursor: null, loadingMore: false, moreFailed: false, cursor: 0, offset: 0 };
  return { ...state, problem: null, runs: { ...runs, ...filter, ...empty } };
}

function withFilter(state: State, filter: string, filtering: boolean): State {
  const changed = filter !== state.monitors.filter;
  const monitors = {
    ...state.monitors,
    filter,
    filtering,
    cursor: changed ? 0 : state.monitors.cursor,
    offset: changed ? 0 : state.monitors.offset,
  };
  return { ...state, monitors };
}

function withLog(state: State, runId: string, log: LogState): State {
  const detail = state.detail;
  return detail?.run.runId === runId ? { ...state, detail: { ...detail, log } } : state;
}
