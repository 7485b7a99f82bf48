import { createHash } from 'node:crypto';
import type { Request, ResponseObject, ResponseToolkit, Server, ServerRoute } from '@hapi/hapi';
import { isSlug } from '@pingmon/sdk/wire';
import type { Sql } from '../db/sql.js';
import { apiError } from '../errors.js';
import { readPublicPage, readPublicStatus } from '../use-cases/status-page.js';
import { badgeJson, badgeSvg } from './badge.js';
import { renderNotFound, renderStatusPage } from './page.js';
import { STATUS_STYLES } from './styles.js';

// The public status page and badges (docs/dashboard.md#status-page), outside /api/v1 and without sign-in: what
// they show is public by its owner's choice. Answers are cached for a minute anywhere, and revalidated by ETag.

/** Seconds a browser or proxy may keep a page or badge before asking again. */
export const PUBLIC_MAX_AGE_SECONDS = 60;

const PAGE_POLICY =
  `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STATUS_STYLES).digest('base64')}'; ` +
  "img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export function registerStatusPages(server: Server, sql: Sql, clock: () => number): void {
  server.route([
    {
      method: 'GET',
      path: '/status/{slug}',
      options: { auth: false },
      handler: async (request: Request, h: ResponseToolkit) => {
        const now = clock();
        const { slug } = request.params as { slug: string };
        const page = isSlug(slug) ? await readPublicPage(sql, slug, now) : undefined;
        if (!page) return html(h, renderNotFound()).code(404);
        return cacheable(html(h, renderStatusPage(page, now)));
      },
    },
    ...(['svg', 'json'] as const).map((format): ServerRoute => ({
      method: 'GET',
      path: `/badge/{accountSlug}/{monitorSlug}.${format}`,
      options: { auth: false },
      handler: async (request: Request, h: ResponseToolkit) => {
        const { accountSlug, monitorSlug } = request.params as { accountSlug: string; monitorSlug: string };
        const found =
          isSlug(accountSlug) && isSlug(monitorSlug)
            ? await readPublicStatus(sql, accountSlug, monitorSlug, clock())
            : undefined;
        // One answer for a private monitor and for none at all: a badge address tells nothing of what is not public.
        if (!found)
          throw apiError(
            404,
            'badge_not_found',
            'No public monitor has this badge address. Its account makes a monitor public on its status page ' +
              '(PUT /api/v1/status-page).',
          );
        const label = found.monitor.name;
        if (format === 'json') {
          return cacheable(h.response(badgeJson(label, found.status)).header('access-control-allow-origin', '*'));
        }
        return cacheable(
          h
            .response(badgeSvg(label, found.status))
            .type('image/svg+xml; charset=utf-8')
            .header('content-security-policy', "default-src 'none'"),
        );
      },
    })),
  ]);
}

function html(h: ResponseToolkit, text: string): ResponseObject {
  return h
    .response(text)
    .type('text/html; charset=utf-8')
    .header('content-security-policy', PAGE_POLICY)
    .header('referrer-policy', 'no-referrer');
}

/** Public for a minute, with an ETag of what it says: hapi answers a request that has it already with a 304. */
function cacheable(response: ResponseObject): ResponseObject {
  const source = response.source;
  const text = typeof source === 'string' ? source : JSON.stringify(source);
  const etag = createHash('sha256').update(text).digest('base64url').slice(0, 27);
  return response.header('cache-control', `public, max-age=${PUBLIC_MAX_AGE_SECONDS}`).etag(etag);
}
