import Joi from 'joi';
import type { Boom } from '@hapi/boom';
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import type { CreateMonitorRequest, Monitor, MonitorList, UpdateMonitorRequest } from '@pingmon/sdk/wire';
import { userOf } from '../auth.js';
import type { MonitorRecord } from '../db/monitors.js';
import { deleteMonitor, findMonitor, insertMonitor, listMonitors, renameMonitor } from '../db/monitors.js';
import { findLatestRuns } from '../db/runs.js';
import { apiError } from '../errors.js';
import { newId } from '../ids.js';
import { presentMonitor } from '../presenter.js';
import type { RouteContext } from './context.js';
import { pageOf, pageQuery, pageStart } from './pagination.js';
import type { WithParams } from './validation.js';
import { invalidRequest, pathParams } from './validation.js';

const name = Joi.string().trim().min(1).max(200);

type MonitorRequest = Request<WithParams<'monitorId'>>;

export function monitorRoutes(ctx: RouteContext): ServerRoute[] {
  const params = pathParams('monitorId');
  return [
    {
      method: 'GET',
      path: '/monitors',
      options: {
        validate: { query: Joi.object(pageQuery), options: { allowUnknown: true }, failAction: invalidRequest },
      },
      handler: (request: Request) => list(ctx, request),
    },
    {
      method: 'POST',
      path: '/monitors',
      options: {
        validate: {
          payload: Joi.object({ name: name.required() }).options({ stripUnknown: true }),
          failAction: invalidRequest,
        },
      },
      handler: (request: Request, h: ResponseToolkit) => create(ctx, request, h),
    },
    {
      method: 'GET',
      path: '/monitors/{monitorId}',
      options: { validate: { params, failAction: invalidRequest } },
      handler: (request: MonitorRequest) => show(ctx, request),
    },
    {
      method: 'PATCH',
      path: '/monitors/{monitorId}',
      options: {
        // At least one known field: a body of nothing we know (a form-encoded JSON string, say) changes nothing
        // silently otherwise.
        validate: {
          params,
          payload: Joi.object({ name }).min(1).options({ stripUnknown: true }),
          failAction: invalidRequest,
        },
      },
      handler: (request: MonitorRequest) => update(ctx, request),
    },
    {
      method: 'DELETE',
      path: '/monitors/{monitorId}',
      options: { validate: { params, failAction: invalidRequest } },
      handler: (request: MonitorRequest, h: ResponseToolkit) => remove(ctx, request, h),
    },
  ];
}

/** The 404 of a monitor that is not the account's: the same whether it does not exist or is another account's. */
export function monitorNotFound(monitorId: string): Boom {
  return apiError(404, 'monitor_not_found', `No monitor ${monitorId} in your account.`);
}

/** The account's monitor, or monitorNotFound. */
export async function requireMonitor(ctx: RouteContext, accountId: string, monitorId: string): Promise<MonitorRecord> {
  const monitor = await findMonitor(ctx.db.sql, accountId, monitorId);
  if (!monitor) throw monitorNotFound(monitorId);
  return monitor;
}

async function withLatestRuns(ctx: RouteContext, accountId: string, monitors: MonitorRecord[]): Promise<Monitor[]> {
  const latest = await findLatestRuns(
    ctx.db.sql,
    accountId,
    monitors.map((m) => m.monitorId),
  );
  return monitors.map((m) => presentMonitor(m, latest.get(m.monitorId)));
}

async function list(ctx: RouteContext, request: Request): Promise<MonitorList> {
  const { limit, cursor } = request.query as { limit: number; cursor?: string };
  const { accountId } = userOf(request);
  const fetched = await listMonitors(ctx.db.sql, accountId, { limit: limit + 1, after: pageStart(cursor) });
  const page = pageOf(fetched, limit, (m) => ({ at: m.createdAt, id: m.monitorId }));
  return { monitors: await withLatestRuns(ctx, accountId, page.items), nextCursor: page.nextCursor };
}

async function create(ctx: RouteContext, request: Request, h: ResponseToolkit) {
  const { name: monitorName } = request.payload as CreateMonitorRequest;
  const { accountId } = userOf(request);
  const created = { monitorId: newId('mon'), accountId, name: monitorName, createdAt: Date.now() };
  const monitor = await insertMonitor(ctx.db.sql, created);
  return h.response(presentMonitor(monitor, undefined)).code(201);
}

async function show(ctx: RouteContext, request: MonitorRequest): Promise<Monitor> {
  const { accountId } = userOf(request);
  const monitor = await requireMonitor(ctx, accountId, request.params.monitorId);
  return (await withLatestRuns(ctx, accountId, [monitor]))[0]!;
}

async function update(ctx: RouteContext, request: MonitorRequest): Promise<Monitor> {
  const { accountId } = userOf(request);
  const { monitorId } = request.params;
  const { name: newName } = request.payload as UpdateMonitorRequest;
  const renamed = newName === undefined || (await renameMonitor(ctx.db.sql, accountId, monitorId, newName));
  if (!renamed) throw monitorNotFound(monitorId);
  const monitor = await requireMonitor(ctx, accountId, monitorId);
  return (await withLatestRuns(ctx, accountId, [monitor]))[0]!;
}

async function remove(ctx: RouteContext, request: MonitorRequest, h: ResponseToolkit) {
  const { monitorId } = request.params;
  if (!(await deleteMonitor(ctx.db.sql, userOf(request).accountId, monitorId))) throw monitorNotFound(monitorId);
  return h.response().code(204);
}
