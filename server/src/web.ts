import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Request, ResponseObject, ResponseToolkit, Server, ServerRoute } from '@hapi/hapi';
import { apiError } from './errors.js';

/** Where `npm run build` writes the dashboard (server/scripts/build-web.mjs). */
const WEB_DIR = fileURLToPath(new URL('./web/', import.meta.url));

/**
 * No script but the dashboard's own file may run, whatever a log or an error message holds; no frame may hold the
 * dashboard (clickjacking); no form or base URL may point elsewhere.
 */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

const TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

interface Asset {
  body: Buffer;
  type: string;
}

/**
 * The web dashboard on the API's port (DESIGN §13): its assets under /assets (named by content hash, so cached for
 * good), and index.html for every other path outside /api, so that a deep link such as /monitors/:id/runs/:runId
 * loads the dashboard, which reads the path. An unknown path under /api is the API's JSON 404, never the page.
 * The few built files are read once, at start: only they can be served, whatever a path holds.
 */
export function registerDashboard(server: Server): void {
  const index = existsSync(`${WEB_DIR}index.html`) ? readFileSync(`${WEB_DIR}index.html`) : undefined;
  const assets = readAssets();
  server.route([
    {
      method: 'GET',
      path: '/assets/{file}',
      options: { auth: false },
      handler: (request: Request, h: ResponseToolkit) => {
        const asset = assets.get(String(request.params.file));
        if (!asset) throw apiError(404, 'not_found', `No dashboard file ${request.path}.`);
        return secured(h.response(asset.body).type(asset.type)).header(
          'cache-control',
          'public, max-age=31536000, immutable',
        );
      },
    },
    {
      method: 'GET',
      path: '/{path*}',
      options: { auth: false },
      handler: (_request: Request, h: ResponseToolkit) => {
        if (!index)
          throw apiError(
            404,
            'dashboard_not_built',
            'The dashboard has not been built. Run `npm run build` in the pingmon checkout, then restart the server.',
          );
        return secured(h.response(index).type('text/html; charset=utf-8')).header('cache-control', 'no-cache');
      },
    },
    // GET too: a GET route of any path wins over a route of every method.
    ...(['GET', '*'] as const).map((method): ServerRoute => ({
      method,
      path: '/api/{path*}',
      options: { auth: false },
      handler: (request: Request) => {
        throw apiError(
          404,
          'not_found',
          `No endpoint ${request.method.toUpperCase()} ${request.path}. The API is documented in docs/api.md.`,
        );
      },
    })),
  ]);
}

function readAssets(): Map<string, Asset> {
  const dir = `${WEB_DIR}assets/`;
  const assets = new Map<string, Asset>();
  if (!existsSync(dir)) return assets;
  for (const name of readdirSync(dir)) {
    const type = TYPES[extname(name)];
    if (type) assets.set(name, { body: readFileSync(dir + name), type });
  }
  return assets;
}

function secured(response: ResponseObject): ResponseObject {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.header(name, value);
  return response;
}
