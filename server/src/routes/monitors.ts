import Joi from 'joi';
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import type { CreateMonitorRequest, MonitorList } from '@pingmon/sdk';
import { userOf } from '../auth.js';
import { decodeCursor, encodeCursor } from '../db/cursor.js';
import { insertMonitor, listMonitors, publicMonitor } from '../db/monitors.js';
import { apiError } from '../errors.js';
import { newId } from '../ids.js';
import type { RouteContext } from './context.js';
import { invalidRequest } from './validation.js';

export const pageQuery = Joi.object({
  limit: Joi.number().integer().min(1).max(200).default(50),
  cursor: Joi.string().max(200).allow(''),
});

export function monitorRoutes(ctx: RouteContext): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/monitors',
      options: { validate: { query: pageQuery, options: { allowUnknown: true }, failAction: invalidRequest } },
      handler: (request: Request) => list(ctx, request),
    },
    {
      method: 'POST',
      path: '/monitors',
      options: {
        validate: {
          payload: Joi.object({ name: Joi.string().trim().min(1).max(200).required() }).options({ stripUnknown: true }),
          failAction: invalidRequest,
        },
      },
      handler: (request: Request, h: ResponseToolkit) => create(ctx, request, h),
    },
  ];
}

async function list(ctx: RouteContext, request: Request): Promise<MonitorList> {
  const { limit, cursor } = request.query as { limit: number; cursor?: string };
  const after = cursor === undefined ? undefined : decodeCursor(cursor);
  if (cursor !== undefined && !after) throw apiError(400, 'invalid_cursor', 'cursor is not one this server gave out. Pass nextCursor from the previous page unchanged.');
  const monitors = await listMonitors(ctx.db.knex, userOf(request).accountId, { limit: limit + 1, after });
  const page = monitors.slice(0, limit);
  const last = page.at(-1);
  return {
    monitors: page.map(publicMonitor),
    nextCursor: monitors.length > limit && last ? encodeCursor({ at: last.createdAtMs, id: last.monitorId }) : null,
  };
}

async function create(ctx: RouteContext, request: Request, h: ResponseToolkit) {
  const { name } = request.payload as CreateMonitorRequest;
  const monitor = await insertMonitor(ctx.db.knex, { monitorId: newId('mon'), accountId: userOf(request).accountId, name, now: Date.now() });
  return h.response(publicMonitor(monitor)).code(201);
}
