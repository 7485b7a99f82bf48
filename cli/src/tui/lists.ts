import type { Run } from '@pingmon/sdk';
import type { RunPage, MonitorRow } from './source.js';

/** Failing monitors first, then silent failures, running, succeeding, never run; by name within each. */
export function sortMonitors(rows: MonitorRow[]): MonitorRow[] {
  return [...rows].sort(
    (a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name) || a.monitorId.localeCompare(b.monitorId),
  );
}

/** What needs attention first: down, late, a last run that failed or silently failed, running, up, new, paused. */
function rank(row: MonitorRow): number {
  if (row.status === 'down') return 0;
  if (row.status === 'late') return 1;
  if (row.status === 'paused') return 7;
  if (row.lastRun?.status === 'failed') return 2;
  if (row.lastRun?.silentFailure) return 3;
  if (row.status === 'running') return 4;
  return row.lastRun ? 5 : 6;
}

/** The monitors the filter lets through: the filter text anywhere in the name, slug or id, ignoring case. */
export function visibleMonitors(monitors: { rows: MonitorRow[] | null; filter: string }): MonitorRow[] {
  const rows = monitors.rows ?? [];
  const filter = monitors.filter.trim().toLowerCase();
  if (!filter) return rows;
  return rows.filter(
    (row) =>
      row.name.toLowerCase().includes(filter) ||
      row.slug.includes(filter) ||
      row.monitorId.toLowerCase().includes(filter),
  );
}

/**
 * A fresh first page merged into the runs already loaded: new and changed runs from the page, and the
 * older runs loaded earlier by scrolling kept below it, so a refresh never throws away what the cursor reached.
 */
export function mergeRuns(loaded: Run[], loadedNext: string | null, page: RunPage): RunPage {
  if (page.nextCursor === null) return page;
  const last = page.runs.at(-1);
  if (!last) return page;
  const inPage = new Set(page.runs.map((run) => run.runId));
  const at = loaded.findIndex((run) => run.runId === last.runId);
  const older = at >= 0 ? loaded.slice(at + 1) : loaded.filter((run) => run.startedAt < last.startedAt);
  const tail = older.filter((run) => !inPage.has(run.runId));
  return { runs: [...page.runs, ...tail], nextCursor: tail.length > 0 ? loadedNext : page.nextCursor };
}
