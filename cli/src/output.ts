import { clean } from '@pingmon/sdk/wire';
export { SILENT_MARK, STATUS, duration, exactDuration, statusText } from '@pingmon/sdk/wire';
import { columnsVariable } from './settings.js';
import { cell, fit, textWidth } from './width.js';

/** The terminal's width; COLUMNS, or 120, when the output is not a terminal. */
export function terminalWidth(): number {
  return process.stdout.columns || columnsVariable() || 120;
}

/**
 * Prints rows as a table that fits the terminal: the widest columns give way first, cut with "…". Cells are cleaned
 * before they are measured, so that an escape sequence neither reaches the terminal nor skews the columns.
 */
export function printTable(
  headers: string[],
  rows: string[][],
  write: (line: string) => void,
  width = terminalWidth(),
): void {
  const all = [headers, ...rows].map((row) => row.map((text) => clean(text).replace(/\s+/g, ' ')));
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

/** "1 run", "2 runs" */
export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** "2026-11-22 04:37:35" in UTC, or "—". */
export function when(iso: string | null): string {
  return iso ? iso.replace('T', ' ').slice(0, 19) : '—';
}
