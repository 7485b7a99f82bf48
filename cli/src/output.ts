import type { Monitor, RecentRuns } from '@pingmon/sdk';

/** The terminal's width; COLUMNS, or 120, when the output is not a terminal. */
export function terminalWidth(): number {
  return process.stdout.columns || Number(process.env.COLUMNS) || 120;
}

/** Prints rows as a table that fits the terminal: the widest columns give way first, cut with "…". */
export function printTable(headers: string[], rows: string[][], write: (line: string) => void, width = terminalWidth()): void {
  const all = [headers, ...rows].map((row) => row.map((cell) => cell.replace(/\s+/g, ' ')));
  const widths = headers.map((_, i) => Math.max(...all.map((row) => row[i]!.length)));
  const gap = 2;
  while (widths.reduce((a, b) => a + b, 0) + gap * (widths.length - 1) > width) {
    const widest = widths.indexOf(Math.max(...widths));
    if (widths[widest]! <= 6) break;
    widths[widest]! -= 1;
  }
  for (const row of all) {
    write(row.map((cell, i) => fit(cell, widths[i]!).padEnd(i === row.length - 1 ? 0 : widths[i]!)).join(' '.repeat(gap)).trimEnd());
  }
}

/** `text` cut to `width` characters, ending in "…" when cut. */
export function fit(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
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

/** A monitor's recent-run counts; older servers send none, read as no runs. */
export function recentRunsOf(monitor: Pick<Monitor, 'recentRuns'>): RecentRuns {
  return monitor.recentRuns ?? { runs: 0, failed: 0, silentFailures: 0 };
}

export const STATUS_MARK: Record<string, string> = { success: '✔ success', failed: '✖ failed', running: '… running' };
