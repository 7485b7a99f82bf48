import { hostname } from 'node:os';
import type { Database } from './db/index.js';
import type { SweeperRecord } from './db/sweepers.js';
import { stopSweeper } from './db/sweepers.js';
import { newId } from './ids.js';
import type { FailureLog } from './outage-log.js';
import type { SweeperSelf } from './use-cases/server-gap.js';
import type { SweepResult } from './use-cases/sweep.js';
import { sweep } from './use-cases/sweep.js';

export interface SweeperOptions {
  intervalMs: number;
  clock: () => number;
  /** Called after each sweep that queued alert deliveries. */
  queued: () => void;
  /** Called after each sweep that timed runs out (for metrics). */
  timedOut?: (runs: number) => void;
  log: FailureLog;
}

/** A gap between two sweeps longer than this (and than three intervals) means no server was sweeping. */
const OUTAGE_AFTER_MS = 60_000;

/** When this process began, to the millisecond: a later process that got the same pid began later. */
const PROCESS_STARTED_AT = Math.round(performance.timeOrigin);

/**
 * Sweeps every `intervalMs` in this process, one sweep at a time. Every server runs one; the database decides which
 * of them handles each due row.
 */
export class Sweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = true;
  /** Until a sweep succeeds (the first, or the first after the database failed), this process was not sweeping. */
  private resuming = true;
  /** The time of this process's last sweep: its beat, if stored, shows it was sweeping though the sweep failed. */
  private lastSweepAt: number | null = null;
  private readonly self: SweeperSelf;

  constructor(
    private readonly db: Database,
    private readonly options: SweeperOptions,
  ) {
    this.self = {
      sweeperId: newId('swp', options.clock()),
      host: hostname(),
      pid: process.pid,
      processStartedAt: PROCESS_STARTED_AT,
      intervalMs: options.intervalMs,
    };
  }

  /** Starts the loop with a sweep under way at once: a sweepNow() called after this comes after it. */
  start(): void {
    this.stopped = false;
    this.loop();
  }

  /**
   * Stops the loop; resolves once a sweep under way has ended and the stop is recorded, so that the next server
   * to start knows from when nobody swept. Unrecorded (the database unreachable), the last beat stands in.
   */
  async stop(): Promise<void> {
    const wasRunning = !this.stopped;
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running.catch(() => undefined);
    if (!wasRunning) return;
    try {
      await stopSweeper(this.db.sql, this.self.sweeperId, this.options.clock());
    } catch (err) {
      this.options.log(['sweeper', 'error'], `recording the sweeper's stop failed: ${(err as Error).message}`, err);
    }
  }

  /** Sweeps now (after a sweep under way), at the clock's time: for tests that move the clock. */
  sweepNow(): Promise<SweepResult> {
    const next = this.running.catch(() => undefined).then(() => this.sweepOnce());
    this.running = next.catch(() => undefined);
    return next;
  }

  private loop(): void {
    void this.sweepNow()
      .catch((err: unknown) =>
        this.options.log(['sweeper', 'error'], `sweeping failed: ${(err as Error).message}`, err),
      )
      .finally(() => this.schedule(this.options.intervalMs));
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => this.loop(), delayMs);
  }

  private async sweepOnce(): Promise<SweepResult> {
    const outageAfterMs = Math.max(OUTAGE_AFTER_MS, 3 * this.options.intervalMs);
    const now = this.options.clock();
    const watch = { self: this.self, resuming: this.resuming, lastSweepAt: this.lastSweepAt, outageAfterMs, isGone };
    this.resuming = true;
    this.lastSweepAt = now;
    const result = await sweep(this.db, now, watch);
    this.resuming = false;
    if (result.queued > 0) this.options.queued();
    if (result.timedOut > 0) this.options.timedOut?.(result.timedOut);
    if (result.outage !== null) {
      const { from, to } = result.outage;
      this.options.log(
        ['sweeper', 'warn'],
        `no pingmon server swept from ${new Date(from).toISOString()} to ${new Date(to).toISOString()}: ` +
          'expected runs and deadlines that fell in between were given a fresh grace from now',
      );
    }
    return result;
  }
}

/** A sweeper of this host whose process runs no more, or that was this process's pid in an earlier process. */
function isGone(row: SweeperRecord): boolean {
  if (row.host !== hostname()) return false;
  if (row.pid === process.pid) return row.processStartedAt !== PROCESS_STARTED_AT;
  try {
    process.kill(row.pid, 0);
    return false;
  } catch (err) {
    // EPERM: the pid runs, as another user's process.
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
