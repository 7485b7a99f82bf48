import type { Server } from '@hapi/hapi';
import { createMailer } from './alerts/email.js';
import type { Mailer } from './alerts/email.js';
import { DeliveryWorker } from './alerts/worker.js';
import type { Config } from './config.js';
import type { Database } from './db/index.js';
import { closeDatabase } from './db/index.js';
import { Metrics } from './metrics.js';
import type { Log } from './outage-log.js';
import { OutageLog } from './outage-log.js';
import { Pruner } from './pruner.js';
import { Sweeper } from './sweeper.js';

declare module '@hapi/hapi' {
  interface ServerApplicationState {
    /** The alert sender: `busy` counts its attempts in flight, `abandon()` gives them back at once. */
    deliveries: DeliveryWorker;
    /** Missed and timed-out runs, and reminders: `sweepNow()` sweeps at once. */
    sweeper: Sweeper;
    /** Retention: `pruneNow()` deletes what is no longer kept at once. */
    pruner: Pruner;
  }
}

/** No retry of an alert delivery waits longer than this, whatever Retry-After says. */
const MAX_RETRY_DELAY_MS = 60 * 60_000;
const DELIVERY_CONCURRENCY = 10;

/** While the database is unavailable, one log line per this interval counts the failures. */
const OUTAGE_LOG_INTERVAL_MS = 10_000;

/** How long requests in flight may take to finish once a clean stop has begun. */
const REQUEST_GRACE_MS = 10_000;

/** After `abandon`, how long the stop may still take before `onStuck`. */
const ABANDON_GRACE_MS = 3_000;

/** What a server does besides answering requests, and what it holds until it stops. */
export interface Background {
  readonly outages: OutageLog;
  readonly metrics: Metrics | undefined;
  readonly mailer: Mailer | undefined;
  readonly deliveries: DeliveryWorker;
  readonly sweeper: Sweeper;
  readonly pruner: Pruner;
}

/** The background work of a server on `db`; a database outage is counted in the outage log, not logged per failure. */
export function backgroundWork(config: Config, db: Database, log: Log): Background {
  const { clock } = config;
  const outages = new OutageLog(log, OUTAGE_LOG_INTERVAL_MS);
  const metrics = config.metrics ? new Metrics(db, { clock, log: outages.failures('metrics') }) : undefined;
  const mailer = createMailer(config);
  const deliveries = new DeliveryWorker(db, {
    pollMs: config.alertPollMs,
    attemptTimeoutMs: config.alertTimeoutMs,
    // Covers the attempt and recording it, with room to spare: a lease that ran out means the server died.
    leaseMs: 2 * config.alertTimeoutMs + 2_000,
    publicOnly: config.channelsPublicOnly,
    publicUrl: config.publicUrl,
    mailer,
    policy: {
      maxAttempts: config.alertMaxAttempts,
      baseDelayMs: config.alertRetryBaseMs,
      maxDelayMs: MAX_RETRY_DELAY_MS,
    },
    concurrency: DELIVERY_CONCURRENCY,
    clock,
    log: outages.failures('alerts'),
    settled: metrics && ((type, state) => metrics.settled(type, state)),
  });
  const sweeper = new Sweeper(db, {
    intervalMs: config.sweepIntervalMs,
    clock,
    queued: () => deliveries.nudge(),
    timedOut: metrics && ((runs) => metrics.timedOut(runs)),
    log: outages.failures('sweeper'),
  });
  const { pruneIntervalMs: intervalMs, retentionMs, retentionRuns, auditRetentionMs } = config;
  const failures = outages.failures('pruner');
  const pruner = new Pruner(db, { intervalMs, retentionMs, retentionRuns, auditRetentionMs, clock, log: failures });
  return { outages, metrics, mailer, deliveries, sweeper, pruner };
}

/**
 * Runs `work` while the server listens. Stopping ends the claims at once; alert attempts in flight end within the
 * alert timeout and are recorded (unless abandoned) before the database closes.
 */
export function runInBackground(server: Server, db: Database, work: Background): void {
  const { deliveries, sweeper, pruner } = work;
  server.app.deliveries = deliveries;
  server.app.sweeper = sweeper;
  server.app.pruner = pruner;
  server.ext('onPostStart', () => {
    deliveries.start();
    sweeper.start();
    pruner.start();
  });
  server.ext('onPreStop', async () => {
    await pruner.stop();
    await sweeper.stop();
    await deliveries.stop();
  });
  server.ext('onPostStop', async () => {
    await deliveries.drained();
    work.mailer?.transport.close();
    await closeDatabase(db);
    work.outages.close();
    work.metrics?.close();
  });
}

export interface StopHooks {
  /** The alert sender has made its last claim and `attempts` are still in flight: the stop waits for them. */
  onWaiting(attempts: number): void;
  /** The stop has not ended `afterMs` after `abandon` (requests in flight or the database). */
  onStuck(afterMs: number): void;
}

export interface Stopping {
  /** Resolves once the server has stopped and its database is closed. */
  readonly done: Promise<void>;
  /** Stops waiting for alert attempts in flight: they are given back at once for the next start to make. */
  abandon(): void;
}

/**
 * A clean stop: no new connections, requests in flight get REQUEST_GRACE_MS, alert attempts in flight
 * finish within their timeout and are recorded, then the database closes (the server's onPostStop).
 */
export function stopGracefully(server: Server, hooks: StopHooks): Stopping {
  // Added after the server's own onPreStop, so it runs once the alert sender has made its last claim.
  server.ext('onPreStop', () => {
    const { busy } = server.app.deliveries;
    if (busy > 0) hooks.onWaiting(busy);
  });
  const done = server.stop({ timeout: REQUEST_GRACE_MS });
  return {
    done,
    abandon() {
      server.app.deliveries.abandon();
      // Giving the attempts back takes a moment; requests in flight or a database that does not answer
      // are not waited for. Unref'd: the timer alone never keeps the process alive.
      const stuck = setTimeout(() => hooks.onStuck(ABANDON_GRACE_MS), ABANDON_GRACE_MS).unref();
      const ended = () => clearTimeout(stuck);
      void done.then(ended, ended);
    },
  };
}
