import type { Meta, RunStatus } from '@pingmon/sdk';
import { SILENT_MARK } from '../output.js';
import { clean } from './text.js';

export { SILENT_MARK, duration } from '../output.js';

/**
 * Every status reads without colour too: a symbol and a word. The symbols are ones that every terminal and ink
 * agree are one column wide (✔ ✖ ⚠ are emoji to ink, two columns, and would shift the layout by one).
 */
export const STATUS: Record<RunStatus | 'none', { symbol: string; word: string; color: string }> = {
  failed: { symbol: '✗', word: 'failed', color: 'red' },
  success: { symbol: '✓', word: 'success', color: 'green' },
  running: { symbol: '●', word: 'running', color: 'cyan' },
  none: { symbol: '·', word: 'no runs', color: 'gray' },
};

/** "✗ failed", "✓ success ▲" (a silent failure: it succeeded but matched an alert rule). */
export function statusText(status: RunStatus | 'none', silent = false): string {
  const { symbol, word } = STATUS[status];
  return `${symbol} ${word}${silent ? ` ${SILENT_MARK}` : ''}`;
}

/** The colour of a status: silent failures are yellow, whatever their status says. */
export function statusColor(status: RunStatus | 'none', silent = false): string {
  return silent ? 'yellow' : STATUS[status].color;
}

/** Older servers send no `silentFailure`: read as false. */
export function isSilentFailure(run: object): boolean {
  return (run as { silentFailure?: unknown }).silentFailure === true;
}

const OPS: Record<string, string> = { lt: '<', lte: '≤', gt: '>', gte: '≥', eq: '=', neq: '≠' };

/** The alert rules a run matched, as "rows < 1 (was 0)", read defensively (older servers send none). */
export function matchedRules(run: object): string[] {
  const rules = (run as { matchedRules?: unknown }).matchedRules;
  if (!Array.isArray(rules)) return [];
  return rules.map((rule: unknown) => {
    if (typeof rule === 'string') return clean(rule);
    if (rule && typeof rule === 'object') {
      const { metric, op, value, actual } = rule as { metric?: unknown; op?: unknown; value?: unknown; actual?: unknown };
      const was = typeof actual === 'number' ? ` (was ${actual})` : '';
      if (typeof metric === 'string' && typeof op === 'string') return clean(`${metric} ${OPS[op] ?? op} ${String(value)}${was}`);
    }
    return clean(JSON.stringify(rule) ?? '');
  });
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

/** "just now", "42s ago", "3m ago", "5h ago", "2d ago": relative to `now`, the time the data was fetched. */
export function ago(iso: string | null, now: number): string {
  if (!iso) return 'never';
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 5) return 'just now';
  if (seconds < 60) return `${seconds}s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h ago`;
  return `${Math.floor(seconds / 86_400)}d ago`;
}

/** "04:37:35" (UTC) of a time in milliseconds. */
export function clock(ms: number): string {
  return new Date(ms).toISOString().slice(11, 19);
}

/** "12,345" */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}
