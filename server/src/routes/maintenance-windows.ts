import Joi from 'joi';
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import type { CreateMaintenanceWindowRequest, MaintenanceWindowList } from '@pingmon/sdk/wire';
import { userOf } from '../auth.js';
import {
  countMaintenanceWindows,
  deleteMaintenanceWindow,
  insertMaintenanceWindow,
  listMaintenanceWindows,
} from '../db/maintenance-windows.js';
import { findMonitor, wakeHolds } from '../db/monitors.js';
import { checkSchedule } from '../domain/schedule.js';
import { apiError } from '../errors.js';
import { newId } from '../ids.js';
import { presentMaintenanceWindow } from '../presenter.js';
import type { RouteContext } from './context.js';
import { MaintenanceWindow as WindowSchema, MaintenanceWindowList as WindowListSchema, replies } from './responses.js';
import type { WithParams } from './validation.js';
import { invalidRequest, pathParams } from './validation.js';

// Maintenance windows (docs/schedules.md#snooze-and-maintenance-windows): the account's, each for every monitor
// or for the monitors it names.

/** The most windows an account keeps: each is read by every alert of its monitors. */
export const MAX_WINDOWS = 100;

// Braces escaped: joi reads {…} in a message as a template.
const FORM = '\\{"cron": "0 2 * * 0", "timezone": "Europe/Berlin", "duration": 7200, "monitorIds": ["mon_…"]}';

export const windowBody = Joi.object({
  cron: Joi.string().max(200).required().messages({ '*': 'cron must be text such as "0 2 * * 0" (Sundays 02:00)' }),
  timezone: Joi.string()
    .max(64)
    .messages({ '*': 'timezone must be an IANA name such as "Europe/Berlin"' })
    .description('IANA name; UTC when left out'),
  duration: Joi.number()
    .integer()
    .min(60)
    .max(31 * 86_400)
    .required()
    .messages({ '*': 'duration must be a whole number of seconds from 60 to 2678400 (31 days)' })
    .description('Seconds, 60 to 2,678,400 (31 days)'),
  monitorIds: Joi.array()
    .items(Joi.string().max(64))
    .min(1)
    .max(100)
    .unique()
    .allow(null)
    .messages({ '*': 'monitorIds must be a list of 1 to 100 monitor ids, or null for every monitor' })
    .description('Left out or null: every monitor of the account'),
})
  .prefs({ stripUnknown: false })
  .messages({ 'object.unknown': `{{#label}} is not a maintenance window field; give ${FORM}` });

function invalidWindow(_request: Request, _h: ResponseToolkit, err?: Error): never {
  throw apiError(400, 'invalid_maintenance_window', `${err?.message ?? 'Invalid maintenance window'}.`);
}

type WindowRequest = Request<WithParams<'windowId'>>;

export function maintenanceWindowRoutes(ctx: RouteContext): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/maintenance-windows',
      options: {
        id: 'listMaintenanceWindows',
        plugins: { access: 'read' },
        description: "The account's maintenance windows",
        tags: ['maintenance windows'],
        response: replies({ 200: WindowListSchema }),
      },
      handler: (request: Request) => list(ctx, request),
    },
    {
      method: 'POST',
      path: '/maintenance-windows',
      options: {
        id: 'createMaintenanceWindow',
        plugins: { access: 'write' },
        description: 'Add a maintenance window, for every monitor or for some',
        tags: ['maintenance windows'],
        response: replies({ 201: WindowSchema }),
        validate: { payload: windowBody, failAction: invalidWindow },
      },
      handler: (request: Request, h: ResponseToolkit) => create(ctx, request, h),
    },
    {
      method: 'DELETE',
      path: '/maintenance-windows/{windowId}',
      options: {
        id: 'deleteMaintenanceWindow',
        plugins: { access: 'write' },
        description: 'Delete a maintenance window',
        tags: ['maintenance windows'],
        response: replies({ 204: false }),
        validate: { params: pathParams('windowId'), failAction: invalidRequest },
      },
      handler: (request: WindowRequest, h: ResponseToolkit) => remove(ctx, request, h),
    },
  ];
}

async function list(ctx: RouteContext, request: Request): Promise<MaintenanceWindowList> {
  const windows = await listMaintenanceWindows(ctx.db.sql, userOf(request).accountId);
  const now = ctx.config.clock();
  return { maintenanceWindows: windows.map((w) => presentMaintenanceWindow(w, now)), nextCursor: null };
}

async function create(ctx: RouteContext, request: Request, h: ResponseToolkit) {
  const { accountId } = userOf(request);
  const payload = request.payload as CreateMaintenanceWindowRequest;
  const checked = checkSchedule({ cron: payload.cron, timezone: payload.timezone }, '');
  if ('error' in checked) throw apiError(400, 'invalid_maintenance_window', checked.error);
  if (!('cron' in checked.schedule)) throw new Error('a cron schedule was checked as another kind');
  const monitorIds = payload.monitorIds ?? null;
  for (const monitorId of monitorIds ?? []) {
    if (!(await findMonitor(ctx.db.sql, accountId, monitorId))) {
      throw apiError(400, 'unknown_monitor', `monitorIds: no monitor ${monitorId} in your account.`);
    }
  }
  if ((await countMaintenanceWindows(ctx.db.sql, accountId)) >= MAX_WINDOWS) {
    throw apiError(
      400,
      'maintenance_window_limit_reached',
      `Your account already has ${MAX_WINDOWS} maintenance windows, the most it can have. Delete one first ` +
        '(DELETE /api/v1/maintenance-windows/:windowId).',
    );
  }
  const now = ctx.config.clock();
  const window = {
    windowId: newId('mw', now),
    accountId,
    ...checked.schedule,
    durationMs: payload.duration * 1000,
    monitorIds,
    createdAt: now,
  };
  await insertMaintenanceWindow(ctx.db.sql, window);
  return h.response(presentMaintenanceWindow(window, now)).code(201);
}

async function remove(ctx: RouteContext, request: WindowRequest, h: ResponseToolkit) {
  const { accountId } = userOf(request);
  const { windowId } = request.params;
  const now = ctx.config.clock();
  if (!(await deleteMaintenanceWindow(ctx.db.sql, accountId, windowId))) {
    throw apiError(404, 'maintenance_window_not_found', `No maintenance window ${windowId} in your account.`);
  }
  // The quiet it made may be over now: alerts it held are looked at in the next sweep, not at its old end.
  await wakeHolds(ctx.db.sql, accountId, now);
  return h.response().code(204);
}
