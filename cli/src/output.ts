import type { RunStatus } from '@pingmon/sdk';
import { columnsVariable } from './settings.js';
import { cell, fit, textWidth } from './width.js';

/** The terminal's width; COLUMNS, or 120, when the output is not a terminal. */
export function terminalWidth(): number {
  return process.stdout.columns || columnsVariable() || 120;
}

/** Prints rows as a table that fits the terminal: the widest columns give way first, cut with "…". */
export function printTable(
  headers: string[],
  rows: string[][],
  write: (line: string) => void,
  width = terminalWidth(),
): void {
  const all = [headers, ...rows].map((row) => row.map((text) => text.replace(/\s+/g, ' ')));
  const widths = headers.map((_, i) => Math.max(...all.map((row) => textWidth(row[i]!))));
  const gap = 2;
  while (widths.reduce((a, b) => a + b, 0) + gap * (widths.length - 1) > width) {
    const widest = widths.indexOf(Math.max(...widths));
    // Three columns keep a cut cell readable as "x…"; below that the table may overflow rather than lose columns.
    if (widths[widest]! <= 3) break;
    widths[widest]! -= 1;
  }
  for (const row of all) {
    const cells = row.map((text, i) => (i === row.length - 1 ? fit(text, widths[i]!) : cell(text, widths[i]!)));
    write(cells.join(' '.repeat(gap)).trimEnd());
  }
}

/** "3m 20s", "850ms", "—" */
export function duration(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1_000) return `${ms}ms`;
  const s = Math.round(ms / 1_000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m ${s % 60}s` : `${Math.floor(m / 60)}h ${m % 60}m`;
}

/**
 * A duration as exact as a time to the millisecond: "8ms", "1.520s", then as `duration` from a minute on. For
 * the run detail, whose times show milliseconds: 13:30:24.998 to 13:30:25.006 reads as 8ms.
 */
export function exactDuration(ms: number | null): string {
  if (ms === null || ms < 1_000 || ms >= 60_000) return duration(ms);
  return `${(ms / 1_000).toFixed(3)}s`;
}

/** "1 run", "2 runs" */
export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** "2026-11-22 04:37:35" in UTC, or "—". */
export function when(iso: string | null): string {
  return iso ? iso.replace('T', ' ').slice(0, 19) : '—';
}

/** Marks a silent failure: a success whose meta matched alert rules. */
export const SILENT_MARK = '▲';

/**
 * A run's status as the tables and the dashboard both show it: a symbol and a word, readable without colour.
 * The symbols are ones that every terminal and ink agree are one column wide (✔ ✖ ⚠ are emoji to ink, two
 * columns, and would shift a row by one).
 */
export const STATUS: Record<RunStatus | 'none', { symbol: string; word: string }> = {
  failed: { symbol: '✗', word: 'failed' },
  success: { symbol: '✓', word: 'success' },
  running: { symbol: '●', word: 'running' },
  none: { symbol: '·', word: 'no runs' },
};

/** "✗ failed", "✓ success ▲" (a silent failure: it succeeded but its meta matched alert rules). */
export function statusText(status: RunStatus | 'none', silent = false): string {
  const { symbol, word } = STATUS[status];
  return `${symbol} ${word}${silent ? ` ${SILENT_MARK}` : ''}`;
}
