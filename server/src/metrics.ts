import type { ChannelType, MonitorStatus, PingKind } from '@pingmon/sdk/wire';
import { MONITOR_STATUSES } from '@pingmon/sdk/wire';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { countPendingDeliveries } from './db/deliveries.js';
import type { Database } from './db/index.js';
import { countStatusGroups } from './db/monitors.js';
import { CHANNEL_TYPES } from './alerts/channels/index.js';
import { monitorStatus } from './domain/incidents.js';
import type { PingOutcome } from './use-cases/record-ping.js';

/** What became of a ping: the use case's outcomes, a replay apart, and what never reached it. */
type PingResult = 'recorded' | 'replay' | 'invalid' | 'not_found' | 'too_close' | 'rate_limited' | 'error';

const PING_KINDS: readonly PingKind[] = ['start', 'success', 'fail'];
const PING_RESULTS: readonly PingResult[] = [
  'recorded',
  'replay',
  'invalid',
  'not_found',
  'too_close',
  'rate_limited',
  'error',
];

/** Monitors per statement of a scrape: SQLite runs a statement in the process, and 100,000 in one took 250 ms. */
const STATUS_PAGE = 2_000;

/** Seconds. Pings answer in about a millisecond, so the buckets start well below Prometheus's default 5 ms. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface MetricsOptions {
  clock: () => number;
  /** A scrape could not read the database: the gauges read from it are left out of that scrape. */
  log: (tags: string[], message: string, err: unknown) => void;
}

/**
 * The process's own metrics (CPU, memory, event loop, GC), collected once per process, in a registry of their own:
 * collectDefaultMetrics starts a GC observer and an event loop sampler that are never stopped, so whatever their
 * registry holds lives as long as the process. Made at the first server's start, it outlives every server.
 */
let processRegistry: Registry | undefined;

export function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * This server's Prometheus metrics (docs/metrics.md), in registries of its own: several servers in one process
 * (the tests) never share one. Counters count what this process did; the gauges are read from the database at
 * scrape time, so every server of one database reports the same numbers for them.
 */
export class Metrics {
  /** What this process counted: with `--workers`, each worker's is summed by the primary. */
  readonly registry = new Registry();
  /** The gauges read from the database: with `--workers`, read by the worker a scrape reaches alone. */
  private readonly database = new Registry();
  private readonly pings: Counter<'kind' | 'outcome'>;
  private readonly runsFailed: Counter<'cause'>;
  private readonly deliveries: Counter<'channel_type' | 'outcome'>;
  private readonly latency: Histogram<'method' | 'route' | 'status_code'>;

  constructor(db: Database, options: MetricsOptions) {
    const registers = [this.registry];
    processMetrics();
    this.pings = new Counter({
      name: 'pingmon_pings_total',
      help: 'Pings answered by this server, by kind and outcome.',
      labelNames: ['kind', 'outcome'],
      registers,
    });
    this.runsFailed = new Counter({
      name: 'pingmon_runs_failed_total',
      help: 'Runs finished as failed by this server: by a fail ping, or timed out by its sweeper.',
      labelNames: ['cause'],
      registers,
    });
    this.deliveries = new Counter({
      name: 'pingmon_alert_deliveries_total',
      help: 'Alert deliveries this server settled, by channel type: delivered, or failed for good.',
      labelNames: ['channel_type', 'outcome'],
      registers,
    });
    this.latency = new Histogram({
      name: 'pingmon_http_request_duration_seconds',
      help: 'Time from receiving a request to finishing its response, by route pattern, method and status code.',
      labelNames: ['method', 'route', 'status_code'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    // Every series exists from the start, at 0: a rate() needs a first sample from before the first increment.
    for (const kind of PING_KINDS) for (const outcome of PING_RESULTS) this.pings.inc({ kind, outcome }, 0);
    for (const cause of ['fail', 'timed_out']) this.runsFailed.inc({ cause }, 0);
    for (const type of CHANNEL_TYPES)
      for (const outcome of ['delivered', 'failed']) this.deliveries.inc({ channel_type: type, outcome }, 0);
    this.databaseGauges(db, options);
  }

  /** A ping's outcome, as the route answered it. One or two counter increments: pings are the hot path. */
  pinged(kind: PingKind, outcome: PingOutcome | { kind: 'invalid' | 'error' }): void {
    const replay = outcome.kind === 'recorded' && outcome.replay === true;
    this.pings.inc({ kind, outcome: replay ? 'replay' : outcome.kind });
    if (outcome.kind === 'recorded' && !replay && outcome.run.status === 'failed')
      this.runsFailed.inc({ cause: 'fail' });
  }

  timedOut(runs: number): void {
    this.runsFailed.inc({ cause: 'timed_out' }, runs);
  }

  settled(channelType: ChannelType, outcome: 'delivered' | 'failed'): void {
    this.deliveries.inc({ channel_type: channelType, outcome });
  }

  /** `route` is the route's pattern (`/api/v1/monitors/{monitorId}`), never the path: the series stay few. */
  responded(method: string, route: string, statusCode: number, seconds: number): void {
    this.latency.observe({ method, route, status_code: statusCode }, seconds);
  }

  /** The process's metrics and this server's, as Prometheus text. */
  text(): Promise<string> {
    return Registry.merge([processMetrics(), this.registry, this.database]).metrics();
  }

  /** What a worker of `pingmon server --workers` reports for the primary to sum: all but the database gauges. */
  counted(): Registry[] {
    return [processMetrics(), this.registry];
  }

  /** The database gauges alone, as Prometheus text: read once per scrape, whatever the number of workers. */
  databaseText(): Promise<string> {
    return this.database.metrics();
  }

  /** The server stopped: its metrics (and the database they read) are let go. */
  close(): void {
    this.registry.clear();
    this.database.clear();
  }

  private databaseGauges(db: Database, options: MetricsOptions): void {
    const registers = [this.database];
    // A scrape that cannot read the database still answers, with the process's own metrics; these are left out.
    const failed = (what: string, err: unknown) =>
      options.log(['metrics', 'warn'], `reading ${what} for /metrics failed: ${(err as Error).message}`, err);
    new Gauge({
      name: 'pingmon_alert_outbox_deliveries',
      help: 'Alert deliveries waiting in the outbox (not yet delivered nor failed for good), all accounts.',
      registers,
      async collect() {
        this.reset();
        try {
          this.set(await countPendingDeliveries(db.sql));
        } catch (err) {
          // reset() leaves a gauge without labels at 0: a number this scrape never read.
          this.remove();
          failed('the alert outbox', err);
        }
      },
    });
    new Gauge({
      name: 'pingmon_monitors',
      help: 'Monitors by status (new, up, late, down, running, paused), all accounts.',
      labelNames: ['status'],
      registers,
      async collect() {
        this.reset();
        try {
          const counts = await monitorCounts(db, options.clock());
          for (const status of MONITOR_STATUSES) this.set({ status }, counts.get(status) ?? 0);
        } catch (err) {
          failed('the monitors', err);
        }
      },
    });
  }
}

/**
 * Every monitor's status, counted as the API derives it for one monitor (of an incident, only whether one is open
 * matters). A page of monitors per statement: on SQLite a statement holds the process, and pings get their turn
 * between two.
 */
async function monitorCounts(db: Database, now: number): Promise<Map<MonitorStatus, number>> {
  const counts = new Map<MonitorStatus, number>();
  const incident = { openedAt: 0, cause: 'fail' as const };
  for (let after: string | null = ''; after !== null;) {
    const page = await countStatusGroups(db.sql, now, after, STATUS_PAGE);
    for (const g of page.groups) {
      const monitor = {
        paused: g.paused,
        health: { incident: g.down ? incident : null },
        nextExpectedAt: g.due ? now : null,
      };
      const status = monitorStatus(monitor, g.lastRunStatus === null ? undefined : { status: g.lastRunStatus }, now);
      counts.set(status, (counts.get(status) ?? 0) + g.monitors);
    }
    after = page.next;
    if (after !== null) await new Promise(setImmediate);
  }
  return counts;
}
