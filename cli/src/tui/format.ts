import type { Meta, Run, RunStatus } from '@pingmon/sdk';
import { formatMatch } from '../rule-expression.js';
import { clean } from './text.js';

export { SILENT_MARK, STATUS, duration, exactDuration, statusText } from '../output.js';
export { ago, until } from '@pingmon/sdk/wire';

/** Every status has its colour; the symbol and the word (STATUS) read without it. */
const STATUS_COLOR: Record<RunStatus | 'none', string> = {
  failed: 'red',
  success: 'green',
  running: 'cyan',
  none: 'gray',
};

/** The colour of a status: silent failures are yellow, whatever their status says. */
export function statusColor(status: RunStatus | 'none', silent = false): string {
  return silent ? 'yellow' : STATUS_COLOR[status];
}

/** The alert rules a run matched, as "rows < 1 (was 0)". */
export function matchedRules(run: Pick<Run, 'matchedRules'>): string[] {
  return run.matchedRules.map((rule) => clean(formatMatch(rule)));
}

/** "exitCode=1  rows=0", or "none". */
export function metaText(meta: Meta | null | undefined): string {
  const entries = Object.entries(meta ?? {});
  return entries.length === 0 ? 'none' : entries.map(([key, value]) => `${clean(key)}=${value}`).join('  ');
}

/** "2026-11-22 04:37:35" (UTC); "11-22 04:37:35" when `short`. */
export function when(iso: string | null, short = false): string {
  if (!iso) return '—';
  const text = iso.replace('T', ' ').slice(0, 19);
  return short ? text.slice(5) : text;
}

/** "2026-11-22 04:37:35.412" (UTC), to the millisecond: the run detail's times, which a short duration must match. */
export function exactWhen(iso: string | null): string {
  return iso ? iso.replace('T', ' ').slice(0, 23) : '—';
}

/** "04:37:35" (UTC) of a time in milliseconds. */
export function clock(ms: number): string {
  return new Date(ms).toISOString().slice(11, 19);
}

/** "12,345" */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}
