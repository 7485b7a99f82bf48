import { DatabaseUnavailableError } from './db/index.js';

/** What failed for want of the database: a request (answered 503), or background work. */
export type OutageSource = 'request' | 'alerts' | 'sweeper' | 'pruner' | 'metrics';

const FIRST: Readonly<Record<OutageSource, string>> = {
  request: 'a request was answered 503',
  alerts: 'an operation of the alert sender failed',
  sweeper: 'a sweep for missed and timed-out runs failed',
  pruner: 'a retention pass (deleting old runs) failed',
  metrics: 'a scrape of /metrics could not read the database',
};

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

const COUNTED: Readonly<Record<OutageSource, (n: number) => string>> = {
  request: (n) => `${plural(n, 'more request')} answered 503`,
  alerts: (n) => `${plural(n, 'more operation')} of the alert sender failed`,
  sweeper: (n) => `${plural(n, 'more sweep')} failed`,
  pruner: (n) => `${plural(n, 'more retention pass')} failed`,
  metrics: (n) => `${plural(n, 'more read')} for /metrics failed`,
};

export type Log = (tags: string[], message: string) => void;

/** How background work reports a failure: `err` is the failure the message reports, when there is one. */
export type FailureLog = (tags: string[], message: string, err?: unknown) => void;

/**
 * A database outage in the log without a line per failure: the first at once with its cause, then a line per
 * interval counting them while they go on, and one once an interval passes without any. All at `warn`.
 */
export class OutageLog {
  private readonly counts = new Map<OutageSource, number>();
  private timer: NodeJS.Timeout | undefined;
  private firstAt = 0;
  private lastAt = 0;
  private total = 0;
  private lastCause = '';

  constructor(
    private readonly log: Log,
    private readonly intervalMs: number,
  ) {}

  failed(source: OutageSource, err: DatabaseUnavailableError): void {
    const now = Date.now();
    this.lastAt = now;
    this.lastCause = err.message;
    this.total += 1;
    if (this.timer) {
      this.counts.set(source, (this.counts.get(source) ?? 0) + 1);
      return;
    }
    this.firstAt = now;
    this.log(
      ['database', 'warn'],
      `${err.message} (${FIRST[source]}; more failures are counted, a line per ${this.seconds} s)`,
    );
    this.arm();
  }

  /** The one way background work logs its failures: those for want of the database are counted, as `source`. */
  failures(source: OutageSource): FailureLog {
    return (tags, message, err) => {
      if (err instanceof DatabaseUnavailableError) this.failed(source, err);
      else this.log(tags, message);
    };
  }

  /** Writes what is counted and not yet logged; the server calls it when it stops. */
  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.counts.size > 0) this.logCounts();
    this.total = 0;
  }

  private get seconds(): number {
    return this.intervalMs / 1000;
  }

  private arm(): void {
    // unref: a pending count never keeps a stopped server's process alive (close writes it anyway).
    this.timer = setTimeout(() => this.tick(), this.intervalMs).unref();
  }

  private tick(): void {
    if (this.counts.size > 0) {
      this.logCounts();
      this.arm();
      return;
    }
    const lastedS = Math.round((this.lastAt - this.firstAt) / 1000);
    this.log(
      ['database', 'warn'],
      `no database failure for ${this.seconds} s, after ${plural(this.total, 'failure')} in ${lastedS} s`,
    );
    this.timer = undefined;
    this.total = 0;
  }

  private logCounts(): void {
    const counted = [...this.counts].map(([source, n]) => COUNTED[source](n)).join(', ');
    this.counts.clear();
    this.log(
      ['database', 'warn'],
      `database unavailable since the last line: ${counted}; last cause: ${this.lastCause}`,
    );
  }
}
