import type { ServerResponse } from 'node:http';
import Hapi from '@hapi/hapi';
import type { Request, Server } from '@hapi/hapi';
import HapiPino from 'hapi-pino';
import pino from 'pino';
import { createMailer } from './alerts/email.js';
import { DeliveryWorker } from './alerts/worker.js';
import { registerAuth } from './auth.js';
import type { Config } from './config.js';
import type { Database } from './db/index.js';
import { closeDatabase, DatabaseUnavailableError, openDatabase } from './db/index.js';
import { findOrInsertSetting } from './db/settings.js';
import { clientAddressOf, viaHttpsOf } from './client-address.js';
import { HAPI_CLIENT_ERROR_TAG, registerClientErrors } from './client-errors.js';
import { registerErrorShape } from './errors.js';
import { Metrics } from './metrics.js';
import type { GatherMetrics } from './metrics-route.js';
import { registerMetrics } from './metrics-route.js';
import { OutageLog } from './outage-log.js';
import { registerDepthGuard, registerTextGuard } from './routes/validation.js';
import { alertRoutes } from './routes/alerts.js';
import { authRoutes } from './routes/auth.js';
import { channelRoutes } from './routes/channels.js';
import type { RouteContext } from './routes/context.js';
import { healthRoutes } from './routes/health.js';
import { maintenanceWindowRoutes } from './routes/maintenance-windows.js';
import { meRoutes } from './routes/me.js';
import { monitorRoutes } from './routes/monitors.js';
import { openApiRoutes } from './routes/openapi.js';
import { pingRoutes } from './routes/pings.js';
import { ruleRoutes } from './routes/rules.js';
import { runRoutes } from './routes/runs.js';
import { apiKeyRoutes } from './routes/api-keys.js';
import { newJwtSecret } from './secrets.js';
import { Pruner } from './pruner.js';
import { sentStatus } from './sent-status.js';
import { Sweeper } from './sweeper.js';
import { registerDashboard } from './web.js';

export const API_PREFIX = '/api/v1';

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

/**
 * Builds the API server on the configured database (migrated on the way). Stopping the server
 * closes the database once in-flight requests have finished.
 */
export async function createServer(config: Config, options: ServerOptions = {}): Promise<Server> {
  const db = await openDatabase(config);
  try {
    return await buildServer(config, db, options);
  } catch (err) {
    await closeDatabase(db);
    throw err;
  }
}

export interface ServerOptions {
  /** In a worker of `pingmon server --workers`: what /metrics serves, every worker's metrics (metrics-route.ts). */
  gatherMetrics?: GatherMetrics;
}

async function buildServer(config: Config, db: Database, options: ServerOptions): Promise<Server> {
  // Every process on one database must sign with the same secret: the first one stores it.
  const jwtSecret = config.jwtSecret ?? (await findOrInsertSetting(db.sql, 'jwt_secret', newJwtSecret));
  const server = Hapi.server({
    host: config.host,
    port: config.port,
    router: { stripTrailingSlash: true },
    routes: {
      payload: { maxBytes: config.bodyLimitBytes },
      // Responses carry accounts' data: never stored by a cache (hapi's default is no-cache, kept and revalidated),
      // never sniffed as another type, never framed. The dashboard's routes set their own cache-control (web.ts).
      // No HSTS: whether the server is reached over HTTPS is the deployer's proxy's to say.
      cache: { otherwise: 'no-store' },
      security: { hsts: false, xframe: 'deny', xss: false, noOpen: false, noSniff: true, referrer: false },
    },
    debug: false,
  });
  const outages = new OutageLog((tags, message) => server.log(tags, message), OUTAGE_LOG_INTERVAL_MS);
  const metrics = config.metrics
    ? new Metrics(db, {
        clock: config.clock,
        log: (tags, message, err) => {
          if (err instanceof DatabaseUnavailableError) outages.failed('metrics', err);
          else server.log(tags, message);
        },
      })
    : undefined;
  const mailer = createMailer(config);
  const deliveries = new DeliveryWorker(db, {
    pollMs: config.alertPollMs,
    attemptTimeoutMs: config.alertTimeoutMs,
    // Covers the attempt and recording it, with room to spare: a lease that ran out means the server died.
    leaseMs: 2 * config.alertTimeoutMs + 2_000,
    publicOnly: config.channelsPublicOnly,
    mailer,
    policy: {
      maxAttempts: config.alertMaxAttempts,
      baseDelayMs: config.alertRetryBaseMs,
      maxDelayMs: MAX_RETRY_DELAY_MS,
    },
    concurrency: DELIVERY_CONCURRENCY,
    clock: config.clock,
    // An outage is counted in the outage log, not logged once per failed poll or attempt.
    log: (tags, message, err) => {
      if (err instanceof DatabaseUnavailableError) outages.failed('alerts', err);
      else server.log(tags, message);
    },
    settled: metrics && ((type, state) => metrics.settled(type, state)),
  });
  const sweeper = new Sweeper(db, {
    intervalMs: config.sweepIntervalMs,
    clock: config.clock,
    queued: () => deliveries.nudge(),
    timedOut: metrics && ((runs) => metrics.timedOut(runs)),
    log: (tags, message, err) => {
      if (err instanceof DatabaseUnavailableError) outages.failed('sweeper', err);
      else server.log(tags, message);
    },
  });
  const pruner = new Pruner(db, {
    intervalMs: config.pruneIntervalMs,
    retentionMs: config.retentionMs,
    retentionRuns: config.retentionRuns,
    clock: config.clock,
    log: (tags, message, err) => {
      if (err instanceof DatabaseUnavailableError) outages.failed('pruner', err);
      else server.log(tags, message);
    },
  });
  const clientAddress = clientAddressOf(config.trustedProxies);
  const viaHttps = viaHttpsOf(config.trustedProxies);
  const ctx: RouteContext = { config, db, jwtSecret, deliveries, mailer, metrics, clientAddress, viaHttps };
  if (config.logLevel !== 'silent') {
    // Buffered: a write to stdout per request would cost more than the request. Written at least every second,
    // so that a quiet server's lines reach the journal as they come, and at stop.
    const stream = pino.destination({ dest: 1, sync: false, minLength: 4096 });
    let flushing: NodeJS.Timeout | undefined;
    server.ext('onPostStart', () => {
      flushing = setInterval(() => stream.flush(), 1_000).unref();
    });
    // hapi-pino types `stream` as a Node stream; pino's own destination is what it hands to pino.
    await server.register({
      plugin: HapiPino,
      options: { ...requestLogOptions(config, clientAddress), stream: stream as unknown as NodeJS.WriteStream },
    });
    server.ext('onPostStop', () => {
      clearInterval(flushing);
      stream.flushSync();
    });
  }
  for (const notice of db.notices) server.log(['database', 'warn'], notice);
  registerErrorShape(server, outages);
  registerDepthGuard(server);
  registerTextGuard(server);
  registerClientErrors(server);
  registerAuth(server, db.sql, { jwtSecret, apiKeyCacheMs: config.apiKeyCacheMs });
  await server.register(
    {
      name: 'pingmon-api',
      register: (api: Server) => {
        api.route([
          ...healthRoutes(ctx),
          ...pingRoutes(ctx),
          ...authRoutes(ctx),
          ...meRoutes(ctx),
          ...monitorRoutes(ctx),
          ...runRoutes(ctx),
          ...apiKeyRoutes(ctx),
          ...ruleRoutes(ctx),
          ...channelRoutes(ctx),
          ...alertRoutes(ctx),
          ...maintenanceWindowRoutes(ctx),
          ...openApiRoutes(),
        ]);
      },
    },
    { routes: { prefix: API_PREFIX } },
  );
  registerMetrics(server, config, metrics, options.gatherMetrics);
  registerDashboard(server);
  // Alerts are sent while the server listens. Stopping ends the claims at once; attempts in flight end
  // within the alert timeout and are recorded (unless abandoned) before the database closes.
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
    mailer?.transport.close();
    await closeDatabase(db);
    outages.close();
    metrics?.close();
  });
  return server;
}

/**
 * One line per request, with nothing secret in it: the serializers keep method, path, status and
 * time, never headers, bodies or query strings. (No pino redaction: it would cost more than the
 * request, and there is nothing left to redact.)
 */
function requestLogOptions(config: Config, clientAddress: (request: Request) => string): HapiPino.Options {
  return {
    level: config.logLevel,
    logEvents: ['response', 'request-error'],
    // An object, as hapi-pino's README has it: its type declaration (object[]) is wrong.
    ignoredEventTags: { log: [HAPI_CLIENT_ERROR_TAG] } as unknown as object[],
    logPayload: false,
    logQueryParams: false,
    wrapSerializers: false,
    // Bound at response time instead of in a per-request child logger, which costs more.
    getChildBindings: () => ({}),
    customRequestCompleteMessage: (request: Request, responseTime: number) =>
      `${request.method.toUpperCase()} ${request.path} ${sentStatus(request.raw.res)} ` +
      `${responseTime}ms ${clientAddress(request)}`,
    serializers: {
      res: (res: ServerResponse) => ({ statusCode: sentStatus(res) }),
    },
  };
}
