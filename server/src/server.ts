import Hapi from '@hapi/hapi';
import type { Request, Server } from '@hapi/hapi';
import HapiPino from 'hapi-pino';
import { registerAuth } from './auth.js';
import type { Config } from './config.js';
import type { Database } from './db/index.js';
import { closeDatabase, openDatabase } from './db/index.js';
import { findOrInsertSetting } from './db/settings.js';
import { registerErrorShape } from './errors.js';
import { authRoutes } from './routes/auth.js';
import type { RouteContext } from './routes/context.js';
import { healthRoutes } from './routes/health.js';
import { logRoutes } from './routes/logs.js';
import { meRoutes } from './routes/me.js';
import { monitorRoutes } from './routes/monitors.js';
import { pingRoutes } from './routes/pings.js';
import { newJwtSecret } from './secrets.js';

export const API_PREFIX = '/api/v1';

/**
 * Builds the API server on the configured database (migrated on the way). Stopping the server
 * closes the database once in-flight requests have finished.
 */
export async function createServer(config: Config): Promise<Server> {
  const db = await openDatabase(config);
  try {
    return await buildServer(config, db);
  } catch (err) {
    await closeDatabase(db);
    throw err;
  }
}

async function buildServer(config: Config, db: Database): Promise<Server> {
  // Every process on one database must sign with the same secret: the first one stores it.
  const jwtSecret = config.jwtSecret ?? (await findOrInsertSetting(db.knex, 'jwt_secret', newJwtSecret));
  const ctx: RouteContext = { config, db, jwtSecret };
  const server = Hapi.server({
    host: config.host,
    port: config.port,
    router: { stripTrailingSlash: true },
    routes: { payload: { maxBytes: config.bodyLimitBytes } },
    debug: false,
  });
  if (config.logLevel !== 'silent') await server.register({ plugin: HapiPino, options: requestLogOptions(config) });
  registerErrorShape(server);
  registerAuth(server, db, { jwtSecret, apiKeyCacheMs: config.apiKeyCacheMs });
  await server.register(
    {
      name: 'pingmon-api',
      register: (api: Server) => {
        api.route([...healthRoutes(ctx), ...pingRoutes(ctx), ...authRoutes(ctx), ...meRoutes(ctx), ...monitorRoutes(ctx), ...logRoutes(ctx)]);
      },
    },
    { routes: { prefix: API_PREFIX } },
  );
  server.ext('onPostStop', () => closeDatabase(db));
  return server;
}

/** One line per request, with nothing secret in it: no headers, no bodies, no query strings. */
function requestLogOptions(config: Config) {
  return {
    level: config.logLevel,
    logEvents: ['response', 'request-error'],
    logPayload: false,
    logQueryParams: false,
    wrapSerializers: false,
    serializers: {
      req: (request: Request) => ({ id: request.info.id, method: request.method.toUpperCase(), path: request.path, remoteAddress: request.info.remoteAddress }),
      res: (response: { statusCode: number }) => ({ statusCode: response.statusCode }),
    },
    redact: ['req.headers.authorization', 'req.headers["x-api-key"]', 'payload.password'],
  };
}
