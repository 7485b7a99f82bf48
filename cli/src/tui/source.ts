import type { Client, LogResult, Run, RunStatus } from '@pingmon/sdk';
import { isSilentFailure } from './format.js';

/** How many of a monitor's latest runs the "recent failures" count looks at. */
export const RECENT_RUNS = 20;
/** Runs fetched per page of the runs view. */
export const RUNS_PAGE = 100;
const MONITORS_PAGE = 200;
const PARALLEL = 8;

/** One line of the monitors view. */
export interface MonitorRow {
  monitorId: string;
  name: string;
  lastRun: { status: RunStatus; startedAt: string; durationMs: number | null; silentFailure: boolean } | null;
  /** Failed runs among the latest `recentRuns` (at most RECENT_RUNS). */
  recentFailures: number;
  recentRuns: number;
}

export interface RunPage {
  runs: Run[];
  nextCursor: string | null;
}

/** What the dashboard reads: the management API, shaped for its views. */
export interface BrowseSource {
  listMonitors(): Promise<MonitorRow[]>;
  listRuns(monitorId: string, query: { failedOnly: boolean; cursor?: string }): Promise<RunPage>;
  getRun(monitorId: string, runId: string): Promise<Run>;
  getLog(monitorId: string, runId: string): Promise<LogResult>;
}

/**
 * `connect` makes a client from the stored login. After the server refuses the token it is called again,
 * so a `pingmon login` in another terminal takes effect on the next refresh.
 */
export function createSource(connect: () => Client): BrowseSource {
  let client: Client | undefined;
  const call = async <T>(fn: (c: Client) => Promise<T>): Promise<T> => {
    client ??= connect();
    try {
      return await fn(client);
    } catch (err) {
      if ((err as { status?: unknown }).status === 401) client = undefined;
      throw err;
    }
  };

  return {
    async listMonitors() {
      const monitors = [];
      let cursor: string | undefined;
      do {
        const page = await call((c) => c.listMonitors({ limit: MONITORS_PAGE, cursor }));
        monitors.push(...page.monitors);
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      const rows = await inBatches(monitors, PARALLEL, async (monitor): Promise<MonitorRow | undefined> => {
        const runs = await call((c) => c.listRuns(monitor.monitorId, { limit: RECENT_RUNS })).then(
          (page) => page.runs,
          // Deleted since it was listed: it is simply not shown.
          (err) => ((err as { status?: unknown }).status === 404 ? undefined : Promise.reject(err)),
        );
        if (!runs) return undefined;
        const last = monitor.lastRun;
        return {
          monitorId: monitor.monitorId,
          name: monitor.name,
          lastRun: last && {
            status: last.status,
            startedAt: last.startedAt,
            durationMs: last.durationMs,
            silentFailure: runs[0]?.runId === last.runId && isSilentFailure(runs[0]),
          },
          recentFailures: runs.filter((run) => run.status === 'failed').length,
          recentRuns: runs.length,
        };
      });
      return rows.filter((row) => row !== undefined);
    },
    listRuns: (monitorId, { failedOnly, cursor }) =>
      call((c) => c.listRuns(monitorId, { status: failedOnly ? 'failed' : undefined, limit: RUNS_PAGE, cursor })),
    getRun: (monitorId, runId) => call((c) => c.getRun(monitorId, runId)),
    getLog: (monitorId, runId) => call((c) => c.getLog(monitorId, runId)),
  };
}

/** fn over every item, at most `size` at a time, results in the items' order. */
async function inBatches<T, R>(items: T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size) results.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return results;
}
