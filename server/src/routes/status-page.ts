import Joi from 'joi';
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import type { SetStatusPageRequest, StatusPage } from '@pingmon/sdk/wire';
import { MAX_PUBLIC_MONITORS, SLUG_PATTERN, SLUG_RULE } from '@pingmon/sdk/wire';
import { userOf } from '../auth.js';
import { apiError } from '../errors.js';
import { presentStatusPage } from '../presenter.js';
import { readStatusPageSettings, setStatusPage } from '../use-cases/status-page.js';
import type { RouteContext } from './context.js';
import { replies, StatusPage as StatusPageSchema } from './responses.js';

// The account's public status page and badges (docs/api.md#status-page): its admins choose its address (the
// account's slug), title and public monitors; the page itself is served by status/routes.ts.

// Braces escaped: joi reads {…} in a message as a template.
const FORM = '\\{"slug": "acme", "title": "Acme jobs", "monitorIds": ["nightly-backup"], "showErrorMessages": false}';

// Public monitors are named by `monitorIds`, as maintenance windows and channels name theirs: ids or slugs
// (routes/monitor-refs.ts turns slugs into ids), a list whose order is the page's.
export const statusPageBody = Joi.object({
  slug: Joi.string()
    .pattern(SLUG_PATTERN)
    .allow(null)
    .required()
    .messages({ '*': `slug must be ${SLUG_RULE}; or null for no page` })
    .description('The page is at /status/<slug>, its badges under /badge/<slug>/; null: no page'),
  title: Joi.string()
    .trim()
    .min(1)
    .max(200)
    .allow(null)
    .default(null)
    .messages({ '*': 'title must be text of 1 to 200 characters, or null for the slug' })
    .description("The page's heading; left out or null: the slug"),
  monitorIds: Joi.array()
    .items(Joi.string().max(64))
    .max(MAX_PUBLIC_MONITORS)
    .unique()
    .default([])
    .messages({ '*': `monitorIds must be a list of at most ${MAX_PUBLIC_MONITORS} monitor ids or slugs, each once` })
    .description('The public monitors (ids or slugs), in their order on the page; the others stay private'),
  showErrorMessages: Joi.boolean()
    .default(false)
    .messages({ '*': 'showErrorMessages must be true or false' })
    .description("Whether a public monitor that is down shows its last run's error message (default false)"),
})
  .prefs({ stripUnknown: false })
  .messages({ 'object.unknown': `{{#label}} is not a status page field; give ${FORM}` });

function invalidPage(_request: Request, _h: ResponseToolkit, err?: Error): never {
  throw apiError(400, 'invalid_status_page', `${err?.message ?? 'Invalid status page'}.`);
}

export function statusPageRoutes(ctx: RouteContext): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/status-page',
      options: {
        id: 'getStatusPage',
        description: "The account's public status page: its address, title and public monitors",
        tags: ['status page'],
        plugins: { access: 'read' },
        response: replies({ 200: StatusPageSchema }),
      },
      handler: (request: Request) => show(ctx, request),
    },
    {
      method: 'PUT',
      path: '/status-page',
      options: {
        id: 'setStatusPage',
        description: "Set the account's public status page: its address, title, public monitors and error messages",
        tags: ['status page'],
        plugins: { access: 'admin' },
        response: replies({ 200: StatusPageSchema }, [409]),
        validate: { payload: statusPageBody, failAction: invalidPage },
      },
      handler: (request: Request) => set(ctx, request),
    },
  ];
}

async function show(ctx: RouteContext, request: Request): Promise<StatusPage> {
  return presentStatusPage(await readStatusPageSettings(ctx.db.sql, userOf(request).accountId));
}

async function set(ctx: RouteContext, request: Request): Promise<StatusPage> {
  const { accountId } = userOf(request);
  const payload = request.payload as Required<SetStatusPageRequest>;
  const result = await setStatusPage(ctx.db, accountId, payload, ctx.config.clock());
  if (result.kind === 'unknown_monitor') {
    throw apiError(
      400,
      'unknown_monitor',
      `monitorIds: no monitor ${result.monitorId} in your account. Give ids or slugs of your monitors ` +
        '(GET /api/v1/monitors).',
    );
  }
  if (result.kind === 'slug_taken') {
    throw apiError(
      409,
      'slug_taken',
      `The status page address ${result.slug} is taken by another account. Choose another slug.`,
    );
  }
  return presentStatusPage(await readStatusPageSettings(ctx.db.sql, accountId));
}
