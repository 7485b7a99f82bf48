import Joi from 'joi';
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import type { CreateMonitorRequest, Monitor, MonitorList, UpdateMonitorRequest } from '@pingmon/sdk/wire';
import { userOf } from '../auth.js';
import type { MonitorRecord } from '../db/monitors.js';
import { deleteMonitor, findMonitor, insertMonitor, listMonitors, publicMonitor, renameMonitor } from '../db/monitors.js';
import { findLatestRuns, NO_RUNS } from '../db/runs.js';
import { apiError } from '../errors.js';
import { newId } from '../ids.js';
import type { RouteContext } from './context.js';
import { pageOf, pageQuery, pageStart } from './pagination.js';
import { invalidRequest } from './validation.js';

const name = Joi.string().trim().min(1).max(200);

export function monitorRoutes(ctx: RouteContext): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/monitors',
      options: { validate: { query: Joi.object(pageQuery), options: { allowUnknown: true }, failAction: invalidRequest } },
      handler: (request: Request) => list(ctx, request),
    },
    {
      method: 'POST',
      path: '/monitors',
      options: {
        validate: { payload: Joi.object({ name: name.required() }).options({ stripUnknown: true }), failAction: invalidRequest },
      },
      handler: (request: Request, h: ResponseToolkit) => create(ctx, request, h),
    },
    { method: 'GET', path: '/monitors/{monitorId}', handler: (request: Request) => show(ctx, request) },
    {
      method: 'PATCH',
      path: '/monitors/{monitorId}',
      options: {
        // At least one known field: a body of nothing we know (a form-encoded JSON string, say) changes nothing silently otherwise.
        validate: { payload: Joi.object({ name }).min(1).options({ stripUnknown: true }), failAction: invalidRequest },
      },
      handler: (request: Request) => update(ctx, request),
    },
    { method: 'DELETE', path: '/monitors/{monitorId}', handler: (request: Request, h: ResponseToolkit) => remove(ctx, request, h) },
  ];
}

/** The account's monitor, or a 404 that looks the same whether it does not exist or is another account's. */
export async function requireMonitor(ctx: RouteContext, accountId: string, monitorId: string): Promise<MonitorRecord> {
  const monitor = await findMonitor(ctx.db.sql, accountId, monitorId);
  if (!monitor) throw apiError(404, 'monitor_not_found', `No monitor ${monitorId} in your account.`);
  return monitor;
}

async function withLatestRuns(ctx: RouteContext, accountId: string, monitors: MonitorRecord[]): Promise<Monitor[]> {
  const latest = await findLatestRuns(ctx.db.sql, accountId, monitors.map((m) => m.monitorId));
  return monitors.map((m) => publicMonitor(m, latest.get(m.monitorId) ?? NO_RUNS));
}

async function list(ctx: RouteContext, request: Request): Promise<MonitorList> {
  const { limit, cursor } = request.query as { limit: number; cursor?: string };
  const { accountId } = userOf(request);
  const fetched = await listMonitors(ctx.db.knex, accountId, { limit: limit + 1, after: pageStart(cursor) });
  const page = pageOf(fetched, limit, (m) => ({ at: m.createdAtMs, id: m.monitorId }));
  return { monitors: await withLatestRuns(ctx, accountId, page.items), nextCursor: page.nextCursor };
}

async function create(ctx: RouteContext, request: Request, h: ResponseToolkit) {
  const { name: monitorName } = request.payload as CreateMonitorRequest;
  const monitor = await insertMonitor(ctx.db.knex, { monitorId: newId('mon'), accountId: userOf(request).accountId, name: monitorName, now: Date.now() });
  return h.response(publicMonitor(monitor, NO_RUNS)).code(201);
}

async function show(ctx: RouteContext, request: Request): Promise<Monitor> {
  const { accountId } = userOf(request);
  const monitor = await requireMonitor(ctx, accountId, request.params.monitorId as string);
  return (await withLatestRuns(ctx, accountId, [monitor]))[0]!;
}

async function update(ctx: RouteContext, request: Request): Promise<Monitor> {
  const { accountId } = userOf(request);
  const monitorId = request.params.monitorId as string;
  const { name: newName } = request.payload as UpdateMonitorRequest;
  if (newName !== undefined && !(await renameMonitor(ctx.db.knex, accountId, monitorId, newName))) {
    throw apiError(404, 'monitor_not_found', `No monitor ${monitorId} in your account.`);
  }
  const monitor = await requireMonitor(ctx, accountId, monitorId);
  return (await withLatestRuns(ctx, accountId, [monitor]))[0]!;
}

async function remove(ctx: RouteContext, request: Request, h: ResponseToolkit) {
  const monitorId = request.params.monitorId as string;
  if (!(await deleteMonitor(ctx.db.knex, userOf(request).accountId, monitorId))) {
    throw apiError(404, 'monitor_not_found', `No monitor ${monitorId} in your account.`);
  }
  return h.response().code(204);
}
