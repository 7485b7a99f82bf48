import type { Server } from '@hapi/hapi';

/** How long requests in flight may take to finish once a clean stop has begun. */
const REQUEST_GRACE_MS = 10_000;

/** After `abandon`, how long the stop may still take before `onStuck`. */
const ABANDON_GRACE_MS = 3_000;

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
