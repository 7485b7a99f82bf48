import Hapi from '@hapi/hapi';
import type { Server, ServerRoute } from '@hapi/hapi';
import { keyMonitorCheck, roleCheck } from './access-check.js';
import { registerAudit } from './audit.js';
import { registerAuth } from './auth.js';
import type { Config } from './config.js';
import type { Database } from './db/index.js';
import { closeDatabase, openDatabase } from './db/index.js';
import { findOrInsertSetting } from './db/settings.js';
import { clientAddressOf, viaHttpsOf } from './client-address.js';
import { registerClientErrors } from './client-errors.js';
import { registerErrorShape } from './errors.js';
import { backgroundWork, runInBackground } from './lifecycle.js';
import type { GatherMetrics } from './metrics-route.js';
import { registerMetrics } from './metrics-route.js';
import { extendRequests } from './request-steps.js';
import { IdentityProvider } from './identity-provider.js';
import { depthGuard, textGuard } from './routes/validation.js';
import { alertRoutes } from './routes/alerts.js';
import { auditRoutes } from './routes/audit.js';
import { authRoutes } from './routes/auth.js';
import { channelKindRoutes } from './routes/channel-kinds.js';
import { channelRoutes } from './routes/channels.js';
import { cliSignInRoutes } from './routes/cli-sign-in.js';
import { eventRoutes } from './routes/events.js';
import type { RouteContext } from './routes/context.js';
import { healthRoutes } from './routes/health.js';
import { identityProviderRoutes, registerPendingCookie } from './routes/identity-provider.js';
import { maintenanceWindowRoutes } from './routes/maintenance-windows.js';
import { meRoutes } from './routes/me.js';
import { secondFactorRoutes } from './routes/second-factor.js';
import { sessionRoutes } from './routes/sessions.js';
import { monitorRefs } from './routes/monitor-refs.js';
import { monitorRoutes } from './routes/monitors.js';
import { openApiRoutes } from './routes/openapi.js';
import { pingRoutes } from './routes/pings.js';
import { previewRoutes } from './routes/previews.js';
import { ruleRoutes } from './routes/rules.js';
import { runRoutes } from './routes/runs.js';
import { runOutputRoutes } from './routes/run-output.js';
import { apiKeyRoutes } from './routes/api-keys.js';
import { statusPageRoutes } from './routes/status-page.js';
import { inviteRoutes } from './routes/invites.js';
import { userRoutes } from './routes/users.js';
import { newJwtSecret } from './secrets.js';
import { registerStatusPages } from './status/routes.js';
import { registerServerLog } from './server-log.js';
import { KnownMonitors } from './use-cases/record-ping.js';
import { registerDashboard } from './web.js';

export const API_PREFIX = '/api/v1';

/** Builds the API server on the configured database (migrated on the way); stopping the server closes it. */
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
  /** In a worker of `pingmon server --workers`: what /metrics serves, every worker's metrics. */
  gatherMetrics?: GatherMetrics;
}

async function buildServer(config: Config, db: Database, options: ServerOptions): Promise<Server> {
  // Every process on one database must sign with the same secret: the first one stores it.
  const jwtSecret = config.jwtSecret ?? (await findOrInsertSetting(db.sql, 'jwt_secret', newJwtSecret));
  const server = Hapi.server(hapiOptions(config));
  const work = backgroundWork(config, db, (tags, message) => server.log(tags, message));
  const { deliveries, mailer, metrics } = work;
  const clientAddress = clientAddressOf(config.trustedProxies);
  const viaHttps = viaHttpsOf(config.trustedProxies);
  const knownMonitors = new KnownMonitors(config.monitorCacheSize);
  const ctx: RouteContext = {
    config,
    db,
    knownMonitors,
    jwtSecret,
    deliveries,
    mailer,
    metrics,
    clientAddress,
    viaHttps,
    provider:
      config.oidc &&
      new IdentityProvider(config.oidc, `${config.publicUrl}${API_PREFIX}/auth/oidc/callback`, config.alertTimeoutMs),
  };
  registerServerLog(server, config, clientAddress);
  for (const notice of db.notices) server.log(['database', 'warn'], notice);
  registerErrorShape(server, work.outages);
  registerClientErrors(server);
  registerAuth(server, db.sql, { jwtSecret, apiKeyCacheMs: config.apiKeyCacheMs });
  registerPendingCookie(server, jwtSecret);
  const readBeforeEdit = registerAudit(server, ctx);
  extendRequests(server, 'onPostAuth', [depthGuard, roleCheck]);
  // A key limited to some monitors is checked once slugs are ids.
  extendRequests(server, 'onPreHandler', [textGuard, monitorRefs(db.sql), keyMonitorCheck, readBeforeEdit]);
  const api = { name: 'pingmon-api', register: (plugin: Server) => plugin.route(apiRoutes(ctx)) };
  await server.register(api, { routes: { prefix: API_PREFIX } });
  registerMetrics(server, config, metrics, options.gatherMetrics);
  registerStatusPages(server, db.sql, config.clock);
  registerDashboard(server);
  runInBackground(server, db, work);
  return server;
}

function hapiOptions(config: Config): Hapi.ServerOptions {
  return {
    host: config.host,
    port: config.port,
    router: { stripTrailingSlash: true },
    routes: {
      payload: { maxBytes: config.bodyLimitBytes },
      // Responses carry accounts' data: never stored (hapi's no-cache keeps them), sniffed or framed. No HSTS:
      // whether the server is reached over HTTPS is the deployer's proxy's to say.
      cache: { otherwise: 'no-store' },
      security: { hsts: false, xframe: 'deny', xss: false, noOpen: false, noSniff: true, referrer: false },
    },
    debug: false,
  };
}

function apiRoutes(ctx: RouteContext): ServerRoute[] {
  return [
    ...healthRoutes(ctx),
    ...pingRoutes(ctx),
    ...authRoutes(ctx),
    ...identityProviderRoutes(ctx),
    ...cliSignInRoutes(ctx),
    ...meRoutes(ctx),
    ...sessionRoutes(ctx),
    ...secondFactorRoutes(ctx),
    ...monitorRoutes(ctx),
    ...runRoutes(ctx),
    ...runOutputRoutes(ctx),
    ...eventRoutes(ctx),
    ...apiKeyRoutes(ctx),
    ...userRoutes(ctx),
    ...inviteRoutes(ctx),
    ...ruleRoutes(ctx),
    ...previewRoutes(ctx),
    ...channelRoutes(ctx),
    ...channelKindRoutes(),
    ...alertRoutes(ctx),
    ...maintenanceWindowRoutes(ctx),
    ...auditRoutes(ctx),
    ...statusPageRoutes(ctx),
    ...openApiRoutes(),
  ];
}
