import { setTimeout as sleep } from 'node:timers/promises';
import type { FlushOptions, FlushReport, Spool } from './spool.js';

/** How long a spool is tried again after a ping went to it; past that, the next ping or `pingmon flush` takes over. */
export const SPOOL_RETRY_FOR_MS = 30 * 60_000;
/** The longest wait between two tries: a server that is back again is found within it. */
export const SPOOL_RETRY_WAIT_MAX_MS = 15_000;

/** The wait before try `attempt` (from 0): 1 s, 2 s, 4 s, 8 s, then 15 s each time. */
export function spoolRetryWaitMs(attempt: number): number {
  return Math.min(1_000 * 2 ** Math.min(attempt, 10), SPOOL_RETRY_WAIT_MAX_MS);
}

export interface BackoffOptions {
  /** How long to keep trying, from now. */
  forMs: number;
  /** Ends the tries at once (the delivery under way included); the lock is given back. */
  signal?: AbortSignal;
  /** Time one delivery may take (default 10 s). */
  timeoutMs?: number;
  /** Told what each try did. */
  onTry?: (report: FlushReport) => void;
  /** Told when a window ends with pings kept during it, and so another begins. */
  onWindow?: () => void;
}

/**
 * Tries the spool until it is empty, with backoff (spoolRetryWaitMs), for `forMs` at most (`forMs` more after each
 * window in which pings were kept), holding its lock the whole time: a second flush started meanwhile finds it
 * held and ends at once, and no ping is sent twice. The lock is given back before a last look at the spool, so
 * that a ping kept after that look finds the lock free for the flush its writer starts. Answers what was done in
 * all; busy when another process held the lock.
 */
export async function flushWithBackoff(spool: Spool, options: BackoffOptions): Promise<FlushReport> {
  let began = Date.now();
  let until = began + options.forMs;
  const total: FlushReport = { delivered: 0, dropped: [], withoutSettings: [], left: 0, busy: false };
  /** Tries while the lock is held: 'emptied' once the spool is seen empty, 'over' at the bound or the signal. */
  const tries = async (flush: (o: FlushOptions) => Promise<FlushReport>): Promise<'emptied' | 'over'> => {
    for (let attempt = 0; ; attempt++) {
      const wait = spoolRetryWaitMs(attempt);
      if (options.signal?.aborted || Date.now() + wait > until) return 'over';
      await sleep(wait, undefined, { signal: options.signal }).catch(() => undefined);
      if (options.signal?.aborted) return 'over';
      const report = await flush({ deadline: until, signal: options.signal, timeoutMs: options.timeoutMs });
      total.delivered += report.delivered;
      total.dropped.push(...report.dropped);
      total.withoutSettings.push(...report.withoutSettings);
      total.error = report.error;
      options.onTry?.(report);
      if ((await spool.files()).length === 0) return 'emptied';
    }
  };
  for (;;) {
    const ended = await spool.whileHeld(tries);
    total.left = (await spool.files()).length;
    if (!ended) return { ...total, busy: total.left > 0 };
    if (total.left === 0 || options.signal?.aborted) return total;
    if (ended === 'over') {
      // Pings kept during this window were left to it by their writers' flushes, which found the lock held:
      // they get a window of their own. Once one passes with nothing new kept, the next ping's flush takes over.
      if (!(await spool.keptSince(began))) return total;
      began = Date.now();
      until = began + options.forMs;
      options.onWindow?.();
    }
    // Emptied, and pings kept since: their writers' flushes found the lock held and left them to this one.
  }
}

/**
 * Pings one in-process try delivers: its requests keep the process alive, so a script that is done while a try is
 * under way waits for a few of them, not for a whole backlog. A full batch delivered calls for the next at once.
 */
export const SPOOL_RETRY_PINGS_PER_TRY = 5;

/**
 * Tries a spool again in this process after a ping went to it, with the same backoff and bound as a background
 * flush, on timers that never keep the process alive (a script that is done exits; its spool waits for the next
 * ping). Each try takes the spool's lock for that try only: `pingmon run` on the same host is not kept out.
 */
export class SpoolRetry {
  private timer: NodeJS.Timeout | undefined;
  private trying = false;
  private keptSinceTry = false;
  private attempt = 0;
  private until = 0;

  constructor(
    private readonly spool: Spool,
    private readonly timeoutMs: number,
    private readonly onReport: (report: FlushReport) => void,
  ) {}

  /** A ping just went to the spool: tries again from the first wait, for SPOOL_RETRY_FOR_MS from now. */
  readonly kept = (): void => {
    this.until = Date.now() + SPOOL_RETRY_FOR_MS;
    this.attempt = 0;
    this.keptSinceTry = true;
    if (!this.trying) this.schedule();
  };

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const wait = spoolRetryWaitMs(this.attempt++);
    if (Date.now() + wait > this.until) return;
    this.timer = setTimeout(() => void this.try(), wait).unref();
  }

  private async try(): Promise<void> {
    this.timer = undefined;
    this.trying = true;
    this.keptSinceTry = false;
    let left = 0;
    try {
      const limit = SPOOL_RETRY_PINGS_PER_TRY;
      const report = await this.spool.flush({ deadline: this.until, timeoutMs: this.timeoutMs, limit });
      this.onReport(report);
      left = (await this.spool.files()).length;
      if (report.delivered + report.dropped.length >= limit) this.attempt = 0;
    } catch {
      // The spool could not be read (removed, say): the next ping tries again.
    } finally {
      this.trying = false;
    }
    if (left > 0 || this.keptSinceTry) this.schedule();
  }
}
