import type { LogResult, Run, RunDetail } from '@pingmon/sdk';
import { failureSeen, LOG_COLLAPSE_OVER, redactedText } from '@pingmon/sdk/wire';
import { count, exactDuration, exactWhen, matchedRules, metaText, statusText } from './format.js';
import { capRows, clean, wrap, wrapLine } from './text.js';

// Where every row of the screen goes, as pure functions of the terminal size and the data: the reducer
// uses them to keep cursors and scroll positions on screen, the components to draw exactly that.

export interface Size {
  columns: number;
  rows: number;
}

/** SPEC §6 and §8: a log longer than this starts collapsed. */
export const COLLAPSE_OVER = LOG_COLLAPSE_OVER;
/** Rows of a collapsed log shown above the "more characters hidden" line. */
export const PREVIEW_ROWS = 5;
/** Header, title, notice and footer lines around every view's body. */
const CHROME_ROWS = 4;
export const LABEL_WIDTH = 10;

/** The rows drawn: one fewer than the terminal has, because ink redraws the whole screen when output fills it. */
export function screenRows(size: Size): number {
  return Math.max(10, size.rows - 1);
}

export function screenColumns(size: Size): number {
  return Math.max(20, size.columns);
}

/** Rows of a list view that show items (below the column headers). */
export function listRows(size: Size): number {
  return screenRows(size) - CHROME_ROWS - 1;
}

/** The first item shown so that `cursor` is on screen, moving the window as little as possible. */
export function windowStart(cursor: number, offset: number, height: number, length: number): number {
  let start = Math.min(offset, cursor);
  if (cursor >= start + height) start = cursor - height + 1;
  return Math.max(0, Math.min(start, length - height));
}

export interface Field {
  label: string;
  rows: string[];
}

/**
 * The labelled lines above the log: status, failure, ids, times, meta, matched rules, error. `readAt`: when the
 * run was read on its own, with its `failure` ("first seen 3d ago" is measured from then).
 */
export function detailFields(
  run: Run | RunDetail,
  monitorName: string,
  size: Size,
  readAt: number | null = null,
): Field[] {
  const width = screenColumns(size) - LABEL_WIDTH;
  const silent = run.silentFailure;
  const rules = matchedRules(run);
  const fields: Field[] = [
    {
      label: 'Status',
      rows: [statusText(run.status, silent) + (silent ? ' (succeeded, but matched an alert rule)' : '')],
    },
    ...failureField(run, readAt),
    { label: 'Run', rows: [run.runId] },
    { label: 'Monitor', rows: [`${clean(monitorName)} (${run.monitorId})`] },
    // To the millisecond, as is the duration under a minute: 13:30:24 to 13:30:25 in 8ms would not add up.
    { label: 'Started', rows: [`${exactWhen(run.startedAt)} UTC`] },
    { label: 'Finished', rows: [run.finishedAt ? `${exactWhen(run.finishedAt)} UTC` : '— (still running)'] },
    { label: 'Duration', rows: [exactDuration(run.durationMs)] },
    { label: 'Host', rows: [run.host ? clean(run.host) : '— (not sent)'] },
    ...(run.redactions > 0 ? [{ label: 'Redacted', rows: [redactedText(run.redactions)] }] : []),
    { label: 'Meta', rows: capRows(wrap(metaText(run.meta), width), 2, width) },
  ];
  if (rules.length > 0) fields.push({ label: 'Rules', rows: capRows(wrap(rules.join(', '), width), 2, width) });
  fields.push({ label: 'Error', rows: run.errorMessage ? capRows(wrap(run.errorMessage, width), 4, width) : ['none'] });
  return fields;
}

/** "first seen 3d ago, 14 times (fingerprint 3f9c2a71d04be816)", "…" until the run is read on its own. */
function failureField(run: Run | RunDetail, readAt: number | null): Field[] {
  if (run.fingerprint === null) return [];
  const seen = 'failure' in run && readAt !== null ? failureSeen(run.failure, readAt) : null;
  return [{ label: 'Failure', rows: [`${seen ?? '…'} (fingerprint ${run.fingerprint})`] }];
}

/**
 * The fields of a run whose log is expanded: one line of status, start, duration and host, and the error's first
 * line, so that the log gets the rest of the screen (at 80×24, 14 rows rather than 7).
 */
export function compactFields(run: Run, size: Size): Field[] {
  const width = screenColumns(size) - LABEL_WIDTH;
  const host = run.host ? ` · on ${clean(run.host)}` : '';
  const started = `started ${exactWhen(run.startedAt)} UTC`;
  const status = `${statusText(run.status, run.silentFailure)} · ${started} · ${exactDuration(run.durationMs)}${host}`;
  const fields: Field[] = [{ label: 'Status', rows: capRows(wrap(status, width), 1, width) }];
  if (run.errorMessage) fields.push({ label: 'Error', rows: capRows(wrap(run.errorMessage, width), 1, width) });
  return fields;
}

/** A run detail as drawn: its fields and its log block. */
export function runDetailView(
  detail: {
    run: Run | RunDetail;
    readAt?: number | null;
    name: string;
    log: LogState;
    /** A running run's live output, as read so far (docs/cli.md#live-output). */
    live?: { text: string };
    expanded: boolean;
    scroll: number;
  },
  size: Size,
): { fields: Field[]; log: LogView } {
  const { run, name, readAt = null } = detail;
  const fields = detail.expanded ? compactFields(run, size) : detailFields(run, name, size, readAt);
  const fieldRows = fields.reduce((sum, field) => sum + field.rows.length, 0);
  return { fields, log: logView(size, fieldRows, shownLog(detail), detail.expanded, detail.scroll) };
}

/** While the run runs, its live output stands in for the log it does not have yet. */
export function shownLog(detail: { run: Run | RunDetail; log: LogState; live?: { text: string } }): LogState {
  if (detail.run.status !== 'running' || !detail.live?.text) return detail.log;
  return { state: 'loaded', result: { hasLog: true, content: detail.live.text } };
}

export type LogState =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'loaded'; result: LogResult }
  | { state: 'failed'; message: string };

/** What the log block shows. `rows` are already cut to `width`; `scrollMax` bounds the scroll position. */
export interface LogView {
  mode: 'loading' | 'failed' | 'none' | 'collapsed' | 'open';
  width: number;
  rows: string[];
  totalRows: number;
  characters: number;
  hidden: number;
  scroll: number;
  scrollMax: number;
}

/** The log block of a run detail, given the rows its fields take, the log and the scroll position asked for. */
export function logView(size: Size, fieldRows: number, log: LogState, expanded: boolean, scroll: number): LogView {
  const width = screenColumns(size) - 4;
  // Body rows minus the fields, the "Log" label line and the two border lines.
  const height = Math.max(1, screenRows(size) - CHROME_ROWS - fieldRows - 3);
  const base = { width, rows: [] as string[], totalRows: 0, characters: 0, hidden: 0, scroll: 0, scrollMax: 0 };
  if (log.state === 'idle' || log.state === 'loading') return { ...base, mode: 'loading' };
  if (log.state === 'failed') return { ...base, mode: 'failed' };
  if (!log.result.hasLog || log.result.content === null) return { ...base, mode: 'none' };
  const text = clean(log.result.content);
  const lines = wrappedLog(text, width);
  if (text.length > COLLAPSE_OVER && !expanded) {
    const { rows, shown } = preview(text, width, Math.max(1, Math.min(PREVIEW_ROWS, height - 1)));
    return {
      ...base,
      mode: 'collapsed',
      rows,
      totalRows: lines.length,
      characters: text.length,
      hidden: Math.max(0, text.length - shown),
    };
  }
  const visible = Math.min(lines.length, height);
  const scrollMax = lines.length - visible;
  const at = Math.max(0, Math.min(scroll, scrollMax));
  return {
    ...base,
    mode: 'open',
    rows: lines.slice(at, at + visible),
    totalRows: lines.length,
    characters: text.length,
    scroll: at,
    scrollMax,
  };
}

export function hiddenText(hidden: number): string {
  return `${count(hidden)} more character${hidden === 1 ? '' : 's'} hidden — press e to expand`;
}

/** The first `max` rows of `text`, and how many of its characters they show. */
function preview(text: string, width: number, max: number): { rows: string[]; shown: number } {
  const rows: string[] = [];
  let shown = 0;
  for (const line of text.split('\n')) {
    for (const row of wrapLine(line, width)) {
      if (rows.length === max) return { rows, shown };
      rows.push(row);
      shown += row.length;
    }
    shown += 1;
  }
  return { rows, shown: Math.min(shown, text.length) };
}

// Wrapping 10,000 characters on every key press would be wasted work: the last result is kept.
let lastWrap: { text: string; width: number; lines: string[] } | undefined;

function wrappedLog(text: string, width: number): string[] {
  if (lastWrap?.text !== text || lastWrap.width !== width) lastWrap = { text, width, lines: wrap(text, width) };
  return lastWrap.lines;
}
