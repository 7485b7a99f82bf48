import type { Database } from './db/index.js';
import type { SweepResult } from './use-cases/sweep.js';
import { sweep } from './use-cases/sweep.js';

export interface SweeperOptions {
  intervalMs: number;
  clock: () => number;
  /** Called after each sweep that queued alert deliveries. */
  queued: () => void;
  /** Called after each sweep that timed runs out (for metrics). */
  timedOut?: (runs: number) => void;
  log: (tags: string[], message: string, err: unknown) => void;
}

/** A gap between two sweeps longer than this (and than three intervals) means no server was sweeping. */
const OUTAGE_AFTER_MS = 60_000;

/**
 * Runs use-cases/sweep.ts every `intervalMs` in this process, one sweep at a time. Every server runs one;
 * the database decides which of them handles each due row.
 */
export class Sweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = true;

  constructor(
    private readonly db: Database,
    private readonly options: SweeperOptions,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops the loop; resolves once a sweep under way has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running.catch(() => undefined);
  }

  /** Sweeps now (after a sweep under way), at the clock's time: for tests that move the clock. */
  sweepNow(): Promise<SweepResult> {
    const next = this.running.catch(() => undefined).then(() => this.sweepOnce());
    this.running = next.catch(() => undefined);
    return next;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.sweepNow()
        .catch((err: unknown) =>
          this.options.log(['sweeper', 'error'], `sweeping failed: ${(err as Error).message}`, err),
        )
        .finally(() => this.schedule(this.options.intervalMs));
    }, delayMs);
  }

  private async sweepOnce(): Promise<SweepResult> {
    const outageAfterMs = Math.max(OUTAGE_AFTER_MS, 3 * this.options.intervalMs);
    const result = await sweep(this.db, this.options.clock(), outageAfterMs);
    if (result.queued > 0) this.options.queued();
    if (result.timedOut > 0) this.options.timedOut?.(result.timedOut);
    if (result.outage !== null) {
      const { from, to } = result.outage;
      this.options.log(
        ['sweeper', 'warn'],
        `no pingmon server swept from ${new Date(from).toISOString()} to ${new Date(to).toISOString()}: ` +
          'deadlines that fell in between were given their grace again from now',
        undefined,
      );
    }
    return result;
  }
}
