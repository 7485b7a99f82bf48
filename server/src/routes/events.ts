import Joi from 'joi';
import type { CustomHelpers } from 'joi';
import type { Request, ServerRoute } from '@hapi/hapi';
import { EVENT_KINDS } from '@pingmon/sdk/wire';
import type { EventKind, MonitorEventList } from '@pingmon/sdk/wire';
import { userOf } from '../auth.js';
import { decodeEventCursor, encodeEventCursor } from '../db/cursor.js';
import { presentEvent } from '../presenter.js';
import { readTimeline } from '../use-cases/timeline.js';
import type { RouteContext } from './context.js';
import { requireMonitor } from './monitors.js';
import { invalidCursor, pageQuery } from './pagination.js';
import { MonitorEventList as MonitorEventListSchema, replies } from './responses.js';
import type { WithParams } from './validation.js';
import { invalidRequest, pathParams } from './validation.js';

const KINDS = EVENT_KINDS.join(', ');
const SEVERAL = 'give several kinds in one parameter, comma-separated (kind=missed,timed_out)';

/** `kind` as given, comma-separated, becomes the list of kinds; an unknown one is named in the 400. */
function kindList(value: string, helpers: CustomHelpers): EventKind[] | Joi.ErrorReport {
  const kinds = value.split(',').map((kind) => kind.trim());
  const unknown = kinds.find((kind) => !EVENT_KINDS.includes(kind as EventKind));
  if (unknown === undefined) return [...new Set(kinds as EventKind[])];
  return helpers.message({ custom: `kind: "${unknown.slice(0, 40)}" is not an event kind; use ${KINDS} (${SEVERAL})` });
}

export const listQuery = Joi.object({
  ...pageQuery,
  kind: Joi.string()
    .max(500)
    .custom(kindList)
    .messages({ 'string.base': `kind: ${SEVERAL}`, 'string.empty': `kind: name at least one kind: ${KINDS}` })
    .description('Only events of these kinds, comma-separated: kind=missed,timed_out (docs/api.md#events)'),
});

export function eventRoutes(ctx: RouteContext): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/monitors/{monitorId}/events',
      options: {
        id: 'listEvents',
        plugins: { access: 'read' },
        description: "A monitor's timeline: runs, missed runs, timeouts, incidents, alerts, snoozes and pauses",
        tags: ['monitors'],
        response: replies({ 200: MonitorEventListSchema }),
        validate: {
          params: pathParams('monitorId'),
          query: listQuery,
          options: { allowUnknown: true },
          failAction: invalidRequest,
        },
      },
      handler: (request: Request<WithParams<'monitorId'>>) => list(ctx, request),
    },
  ];
}

async function list(ctx: RouteContext, request: Request<WithParams<'monitorId'>>): Promise<MonitorEventList> {
  const { limit, cursor, kind } = request.query as { limit: number; cursor?: string; kind?: EventKind[] };
  const after = cursor === undefined ? undefined : decodeEventCursor(cursor);
  if (cursor !== undefined && after === undefined) throw invalidCursor();
  const { accountId } = userOf(request);
  const { monitorId } = request.params;
  await requireMonitor(ctx, accountId, monitorId);
  const page = await readTimeline(ctx.db.sql, accountId, monitorId, { kinds: kind ?? EVENT_KINDS, limit, after });
  return { events: page.items.map(presentEvent), nextCursor: page.next && encodeEventCursor(page.next) };
}
