import { useEffect, useReducer, useRef } from 'react';
import type { Dispatch } from 'react';
import { useStdout } from 'ink';
import { listRows } from './layout.js';
import { problemOf } from './problem.js';
import type { BrowseSource } from './source.js';
import type { Action, State } from './state.js';
import { initialState, reduce } from './state.js';
import { EVENT_FILTERS } from './timeline.js';

export interface BrowseOptions {
  source: BrowseSource;
  /** Shown in messages about an unreachable server. */
  url: string;
  refreshMs: number;
  now?: () => number;
}

/** How often a running run's live output is read: pingmon run sends it about once a second. */
const LIVE_POLL_MS = 1_000;

/** The dashboard's state and the effects that feed it: loads, the refresh timer, paging, logs, resizes. */
export function useBrowse({ source, url, refreshMs, now = Date.now }: BrowseOptions): [State, Dispatch<Action>] {
  const { stdout } = useStdout();
  const [state, dispatch] = useReducer(reduce, undefined, () => initialState(sizeOf(stdout)));
  const runs = state.runs;
  const timeline = state.timeline;
  const detail = state.detail;
  const fail = (err: unknown) => problemOf(err, url);

  useEffect(() => {
    const onResize = () => dispatch({ type: 'resize', size: sizeOf(stdout) });
    stdout.on('resize', onResize);
    onResize(); // a resize before this effect ran would otherwise go unseen
    return () => void stdout.off('resize', onResize);
  }, [stdout]);

  useEffect(() => {
    const timer = setInterval(() => dispatch({ type: 'tick' }), refreshMs);
    return () => clearInterval(timer);
  }, [refreshMs]);

  // The open view, loaded when it opens and again on every refresh. An answer for a view that was left is dropped.
  const runsKey = `${runs?.monitorId} ${runs?.failedOnly} ${runs?.fingerprint}`;
  const viewKey = `${state.screen} ${runsKey} ${timeline?.filter} ${detail?.run.runId}`;
  useEffect(() => {
    let current = true;
    const load = async (): Promise<Action> => {
      if (state.screen === 'monitors') return { type: 'monitorsLoaded', rows: await source.listMonitors(), at: now() };
      if (state.screen === 'runs' && runs) {
        const { monitorId, failedOnly, fingerprint } = runs;
        const [page, hint] = await Promise.all([
          source.listRuns(monitorId, { failedOnly, fingerprint }),
          source.scheduleHint(monitorId),
        ]);
        return { type: 'runsLoaded', monitorId, failedOnly, fingerprint, page, hint, at: now() };
      }
      if (state.screen === 'timeline' && timeline) {
        const { monitorId, filter } = timeline;
        const page = await source.listEvents(monitorId, { kinds: EVENT_FILTERS[filter]!.kinds });
        return { type: 'timelineLoaded', monitorId, filter, page, at: now() };
      }
      return { type: 'runLoaded', run: await source.getRun(detail!.monitorId, detail!.run.runId), at: now() };
    };
    dispatch({ type: 'loadStarted' });
    load().then(
      (action) => current && dispatch(action),
      (err: unknown) => current && dispatch({ type: 'loadFailed', problem: fail(err) }),
    );
    return () => {
      current = false;
    };
    // viewKey and reload say when to load; the rest of the state is read as it is then.
  }, [viewKey, state.reload]);

  // More runs, once the cursor is within a screen of the last one loaded.
  const wantsMore =
    state.screen === 'runs' &&
    !!runs?.runs &&
    !!runs.nextCursor &&
    !runs.loadingMore &&
    !runs.moreFailed &&
    runs.cursor >= runs.runs.length - listRows(state.size);
  useEffect(() => {
    if (!wantsMore || !runs?.nextCursor) return;
    const { monitorId, failedOnly, fingerprint, nextCursor: after } = runs;
    dispatch({ type: 'moreStarted' });
    source.listRuns(monitorId, { failedOnly, fingerprint, cursor: after }).then(
      (page) => dispatch({ type: 'moreLoaded', monitorId, failedOnly, fingerprint, after, page }),
      (err: unknown) => dispatch({ type: 'moreFailed', problem: fail(err) }),
    );
  }, [wantsMore]);

  // More events, as for the runs.
  const wantsMoreEvents =
    state.screen === 'timeline' &&
    !!timeline?.events &&
    !!timeline.nextCursor &&
    !timeline.loadingMore &&
    !timeline.moreFailed &&
    timeline.cursor >= timeline.events.length - listRows(state.size);
  useEffect(() => {
    if (!wantsMoreEvents || !timeline?.nextCursor) return;
    const { monitorId, filter, nextCursor: after } = timeline;
    dispatch({ type: 'moreEventsStarted' });
    source.listEvents(monitorId, { kinds: EVENT_FILTERS[filter]!.kinds, cursor: after }).then(
      (page) => dispatch({ type: 'moreEventsLoaded', monitorId, filter, after, page }),
      (err: unknown) => dispatch({ type: 'moreEventsFailed', problem: fail(err) }),
    );
  }, [wantsMoreEvents]);

  // The log: read only for the run that is open, once (and again after a failure and a refresh).
  const logWanted = detail?.log.state === 'idle' ? detail : undefined;
  useEffect(() => {
    if (!logWanted) return;
    const { monitorId, run } = logWanted;
    dispatch({ type: 'logStarted', runId: run.runId });
    source.getLog(monitorId, run.runId).then(
      (result) => dispatch({ type: 'logLoaded', runId: run.runId, result }),
      (err: unknown) => dispatch({ type: 'logFailed', runId: run.runId, message: fail(err).message }),
    );
  }, [logWanted]);

  // A running run's live output, read once a second from where the last read ended, while its view is open.
  const following = detail?.run.status === 'running' ? detail : undefined;
  const followKey = following && `${following.monitorId} ${following.run.runId}`;
  const liveNext = useRef(0);
  liveNext.current = following?.live?.next ?? 0;
  useEffect(() => {
    if (!following) return;
    const { monitorId, run } = following;
    let busy = false;
    const read = () => {
      if (busy) return;
      busy = true;
      source
        .getRunOutput(monitorId, run.runId, liveNext.current)
        .then(
          (output) => dispatch({ type: 'outputLoaded', runId: run.runId, output }),
          // The next read tries again; the view's own refresh says what is wrong with the server.
          () => undefined,
        )
        .finally(() => (busy = false));
    };
    read();
    const timer = setInterval(read, LIVE_POLL_MS);
    return () => clearInterval(timer);
  }, [followKey]);

  // p: the pause or resume, then the monitors again.
  const pausing = state.pausing;
  useEffect(() => {
    if (!pausing) return;
    source.setPaused(pausing.monitorId, pausing.paused).then(
      () => dispatch({ type: 'pauseDone' }),
      (err: unknown) => dispatch({ type: 'pauseFailed', problem: fail(err) }),
    );
  }, [pausing]);

  // z: the snooze, then the monitors again.
  const snoozing = state.snoozing;
  useEffect(() => {
    if (!snoozing) return;
    source.setSnooze(snoozing.monitorId, snoozing.seconds).then(
      () => dispatch({ type: 'snoozeDone' }),
      (err: unknown) => dispatch({ type: 'snoozeFailed', problem: fail(err) }),
    );
  }, [snoozing]);

  return [state, dispatch];
}

function sizeOf(stdout: NodeJS.WriteStream): { columns: number; rows: number } {
  return { columns: stdout.columns || 80, rows: stdout.rows || 24 };
}
