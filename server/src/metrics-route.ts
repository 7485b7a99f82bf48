import { createHash, timingSafeEqual } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Request, ResponseToolkit, Server } from '@hapi/hapi';
import type { PingKind } from '@pingmon/sdk/wire';
import { AggregatorRegistry } from 'prom-client';
import { bearerOf } from './auth.js';
import type { Config } from './config.js';
import { apiError } from './errors.js';
import type { Metrics } from './metrics.js';
import { sentStatus } from './sent-status.js';

declare module '@hapi/hapi' {
  interface RequestApplicationState {
    /** performance.now() when the request arrived, while metrics are on. */
    receivedAt?: number;
  }
  interface RouteOptionsApp {
    /** The kind of ping a ping route records (routes/pings.ts). */
    pingKind?: PingKind;
  }
}

/** In a worker of `pingmon server --workers`: what every worker counted (not the database gauges), summed. */
export type GatherMetrics = () => Promise<string>;

/**
 * GET /metrics (docs/metrics.md), outside /api/v1 where Prometheus looks by default, and the request latency it
 * reports. Off, the path answers a JSON 404 saying how to turn it on, rather than the dashboard a path outside
 * /api gets (a scraper would read the page as broken metrics), and nothing is measured.
 */
export function registerMetrics(
  server: Server,
  config: Pick<Config, 'metricsToken'>,
  metrics: Metrics | undefined,
  gather?: GatherMetrics,
): void {
  if (!metrics) {
    server.route({
      method: 'GET',
      path: '/metrics',
      options: { auth: false },
      handler: () => {
        throw apiError(
          404,
          'metrics_off',
          'Metrics are off on this server. Set PINGMON_METRICS=true to serve them here (see docs/metrics.md).',
        );
      },
    });
    return;
  }
  server.ext('onRequest', (request: Request, h: ResponseToolkit) => {
    request.app.receivedAt = performance.now();
    return h.continue;
  });
  server.events.on('response', (request: Request) => {
    const { receivedAt } = request.app;
    if (receivedAt === undefined) return;
    const seconds = (performance.now() - receivedAt) / 1000;
    const status = sentStatus(request.raw.res);
    metrics.responded(request.method.toUpperCase(), request.route.path, status, seconds);
    // Counted here, not by the ping route: a 503 during an outage may come from the API key check, before it.
    const { pingKind } = request.route.settings.app ?? {};
    if (pingKind !== undefined && status >= 500) metrics.pinged(pingKind, { kind: 'error' });
  });
  if (gather) {
    // The primary asks each worker for its registry with prom-client's own messages, answered by the listener
    // an AggregatorRegistry adds when made: made here for that alone.
    AggregatorRegistry.setRegistries(metrics.counted());
    new AggregatorRegistry();
  }
  const token = config.metricsToken === undefined ? undefined : digest(config.metricsToken);
  server.route({
    method: 'GET',
    path: '/metrics',
    options: { auth: false },
    handler: async (request: Request, h: ResponseToolkit) => {
      if (token) checkToken(request, token);
      // Every worker's counts, summed by the primary, and the database gauges, read here alone: every worker
      // reads the same database, so one read per scrape is enough.
      const text = gather ? (await Promise.all([gather(), metrics.databaseText()])).join('\n') : await metrics.text();
      return h.response(text).type(metrics.registry.contentType).header('cache-control', 'no-store');
    },
  });
}

/** The primary's side of `pingmon server --workers`: asks every worker for its metrics and sums them. */
export function workerMetrics(): GatherMetrics {
  const aggregator = new AggregatorRegistry();
  return () => aggregator.clusterMetrics();
}

function checkToken(request: Request, token: Buffer): void {
  const sent = bearerOf(request);
  // Digests compared, not the tokens: timingSafeEqual needs equal lengths, and the token's stays unknown.
  if (sent !== undefined && timingSafeEqual(digest(sent), token)) return;
  const err = apiError(
    401,
    sent === undefined ? 'missing_metrics_token' : 'invalid_metrics_token',
    `${sent === undefined ? 'Missing' : 'Invalid'} metrics token. Send this server's PINGMON_METRICS_TOKEN as ` +
      'Authorization: Bearer <token> (in Prometheus: authorization.credentials, see docs/metrics.md).',
  );
  err.output.headers['WWW-Authenticate'] = 'Bearer realm="pingmon metrics"';
  throw err;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
