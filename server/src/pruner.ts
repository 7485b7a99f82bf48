import { setImmediate as yieldToPings } from 'node:timers/promises';
import { deleteAlertsBefore } from './db/alerts.js';
import { deleteAuditEntriesBefore } from './db/audit-entries.js';
import { deleteEventsAfter, deleteEventsBefore, findNthEvent } from './db/events.js';
import type { Database } from './db/index.js';
import { listMonitorIds } from './db/monitors.js';
import type { Deleted } from './db/runs.js';
import { deleteRunsAfter, deleteRunsBefore, findNthRun } from './db/runs.js';
import type { FailureLog } from './outage-log.js';

export interface PrunerOptions {
  intervalMs: number;
  retentionMs: number | null;
  retentionRuns: number | null;
  /** How long audit trail entries are kept (PINGMON_RETENTION_AUDIT_DAYS); null: for ever. */
  auditRetentionMs: number | null;
  clock: () => number;
  log: FailureLog;
}

export interface PruneResult {
  runs: number;
  alerts: number;
  /** Timeline events (db/events.ts): kept as long as runs are, by age and per monitor. */
  events: number;
  /** Audit trail entries (db/audit-entries.ts): kept by age, on a setting of their own. */
  auditEntries: number;
  /** True when the pass stopped at its bound with more left to delete. */
  more: boolean;
}

/** Rows per delete statement, and statements per pass: what one pass may hold the database for stays small. */
const BATCH = 200;
const BATCHES_PER_PASS = 100;
/** Monitors whose run count a pass checks against retentionRuns; the next pass goes on from the last one. */
const MONITORS_PER_PASS = 200;
/** The pause before the next pass when this one left work: pings go first, then pruning goes on. */
const BUSY_PAUSE_MS = 200;

/**
 * Deletes what retention no longer keeps in bounded batches, the event loop free between them: pings never wait
 * behind a large delete. Every server prunes; deleting is idempotent, so two at once delete each row once.
 */
export class Pruner {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = true;
  /** The last monitor checked against retentionRuns ('' starts from the first). */
  private monitorCursor = '';

  constructor(
    private readonly db: Database,
    private readonly options: PrunerOptions,
  ) {}

  /** The first pass comes one interval after the start: a server starting is busy enough, and nothing is urgent. */
  start(): void {
    this.stopped = false;
    const { retentionMs, retentionRuns, auditRetentionMs } = this.options;
    if (retentionMs !== null || retentionRuns !== null || auditRetentionMs !== null)
      this.schedule(this.options.intervalMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running.catch(() => undefined);
  }

  /** One pass now (after one under way), at the clock's time: for tests. */
  pruneNow(): Promise<PruneResult> {
    const next = this.running.catch(() => undefined).then(() => this.pass());
    this.running = next.catch(() => undefined);
    return next;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.pruneNow().then(
        (result) => this.schedule(result.more ? BUSY_PAUSE_MS : this.options.intervalMs),
        (err: unknown) => {
          this.options.log(['pruner', 'error'], `deleting old runs failed: ${(err as Error).message}`, err);
          this.schedule(this.options.intervalMs);
        },
      );
    }, delayMs);
  }

  private async pass(): Promise<PruneResult> {
    const { retentionMs, retentionRuns, auditRetentionMs } = this.options;
    const result: PruneResult = { runs: 0, alerts: 0, events: 0, auditEntries: 0, more: false };
    let budget = BATCHES_PER_PASS;
    // Batch after batch until one comes back short or the pass's budget is spent; a batch of runs says the latest
    // start it deleted, where the next one starts.
    const drain = async (
      step: (from: number) => Promise<Deleted>,
      into: 'runs' | 'alerts' | 'events' | 'auditEntries',
    ) => {
      let from = 0;
      while (budget > 0 && !this.stopped) {
        budget--;
        const batch = await step(from);
        result[into] += batch.deleted;
        from = batch.lastStartedAt ?? from;
        await yieldToPings();
        if (batch.deleted < BATCH) return;
      }
      result.more = true;
    };
    if (retentionMs !== null) {
      const before = this.options.clock() - retentionMs;
      await drain((from) => deleteRunsBefore(this.db.sql, before, from, BATCH), 'runs');
      await drain(async () => counted(await deleteAlertsBefore(this.db.sql, before, BATCH)), 'alerts');
      await drain(async () => counted(await deleteEventsBefore(this.db.sql, before, BATCH)), 'events');
    }
    if (auditRetentionMs !== null) {
      const before = this.options.clock() - auditRetentionMs;
      await drain(async () => counted(await deleteAuditEntriesBefore(this.db.sql, before, BATCH)), 'auditEntries');
    }
    if (retentionRuns !== null) {
      const ids = await listMonitorIds(this.db.sql, this.monitorCursor, MONITORS_PER_PASS);
      for (const monitorId of ids) {
        if (budget === 0) break;
        const last = await findNthRun(this.db.sql, monitorId, retentionRuns);
        if (last) await drain((from) => deleteRunsAfter(this.db.sql, monitorId, last, from, BATCH), 'runs');
        const lastEvent = budget > 0 ? await findNthEvent(this.db.sql, monitorId, retentionRuns) : undefined;
        if (lastEvent) {
          await drain(async () => counted(await deleteEventsAfter(this.db.sql, monitorId, lastEvent, BATCH)), 'events');
        }
        if (budget > 0) this.monitorCursor = monitorId;
      }
      // Back to the first monitor once the last has been checked (and that page was not cut short).
      if (ids.length < MONITORS_PER_PASS && budget > 0) this.monitorCursor = '';
      else result.more = true;
    }
    return result;
  }
}

/** A delete that does not page by start time. */
function counted(deleted: number): Deleted {
  return { deleted, lastStartedAt: null };
}
