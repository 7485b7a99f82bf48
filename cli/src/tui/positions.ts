import { listRows, runDetailView, windowStart } from './layout.js';
import type { LogView } from './layout.js';
import { visibleMonitors } from './lists.js';
import type { ListPosition, State } from './state.js';

// Cursors, windows and scroll positions: kept on screen whatever the key, the data or the terminal size.

export function pageSize(state: State): number {
  if (state.screen !== 'detail') return Math.max(1, listRows(state.size) - 1);
  const view = detailLog(state);
  return Math.max(1, (view?.rows.length ?? 1) - 1);
}

function detailLog(state: State): LogView | undefined {
  return state.detail ? runDetailView(state.detail, state.size).log : undefined;
}

export function moveBy(state: State, by: number): State {
  if (state.help) return state;
  if (state.screen === 'monitors') {
    const length = visibleMonitors(state.monitors).length;
    return { ...state, monitors: { ...state.monitors, ...moved(state.monitors, by, length, listRows(state.size)) } };
  }
  if (state.screen === 'runs' && state.runs) {
    const length = state.runs.runs?.length ?? 0;
    return { ...state, runs: { ...state.runs, ...moved(state.runs, by, length, listRows(state.size)) } };
  }
  if (state.screen === 'timeline' && state.timeline) {
    const length = state.timeline.events?.length ?? 0;
    return { ...state, timeline: { ...state.timeline, ...moved(state.timeline, by, length, listRows(state.size)) } };
  }
  const view = detailLog(state);
  if (!view || view.mode !== 'open') return state;
  const scroll = Math.max(0, Math.min(view.scroll + by, view.scrollMax));
  return { ...state, detail: { ...state.detail!, scroll } };
}

function moved(position: ListPosition, by: number, length: number, height: number): ListPosition {
  const cursor = Math.max(0, Math.min(position.cursor + by, length - 1));
  return { cursor, offset: windowStart(cursor, position.offset, height, length) };
}

/** After new data or a new size: cursors within their lists, windows around them, scroll within the log. */
export function keepOnScreen(state: State): State {
  const height = listRows(state.size);
  const monitorsLength = visibleMonitors(state.monitors).length;
  const next = { ...state, monitors: { ...state.monitors, ...moved(state.monitors, 0, monitorsLength, height) } };
  if (state.runs) next.runs = { ...state.runs, ...moved(state.runs, 0, state.runs.runs?.length ?? 0, height) };
  const timeline = state.timeline;
  if (timeline) next.timeline = { ...timeline, ...moved(timeline, 0, timeline.events?.length ?? 0, height) };
  const view = detailLog(next);
  if (next.detail && view) next.detail = { ...next.detail, scroll: view.scroll };
  return next;
}
