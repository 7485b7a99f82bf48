import Joi from 'joi';
import type { Boom } from '@hapi/boom';
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import type {
  CreateMonitorRequest,
  ExpectedTimes,
  Monitor,
  MonitorList,
  Schedule,
  UpdateMonitorRequest,
} from '@pingmon/sdk/wire';
import { FAIL_ALERTS, SLUG_PATTERN, SLUG_RULE } from '@pingmon/sdk/wire';
import { userOf } from '../auth.js';
import type { MonitorRecord, MonitorSettings } from '../db/monitors.js';
import { deleteMonitor, findMonitor, listMonitors } from '../db/monitors.js';
import { findLatestRuns, findRunHistory } from '../db/runs.js';
import { DEFAULT_SETTINGS } from '../domain/monitor-settings.js';
import type { StoredSchedule } from '../domain/schedule.js';
import { checkSchedule, localTime, MAX_EVERY_SECONDS, slotAfter, upcoming } from '../domain/schedule.js';
import { apiError } from '../errors.js';
import { presentMonitor, presentRunPoint } from '../presenter.js';
import { createMonitor } from '../use-cases/create-monitor.js';
import { updateMonitor } from '../use-cases/update-monitor.js';
import type { RouteContext } from './context.js';
import { pageOf, pageQuery, pageStart } from './pagination.js';
import {
  ExpectedTimes as ExpectedTimesSchema,
  Monitor as MonitorSchema,
  MonitorList as MonitorListSchema,
  replies,
} from './responses.js';
import type { WithParams } from './validation.js';
import { invalidRequest, pathParams } from './validation.js';

const name = Joi.string().trim().min(1).max(200);
const slug = Joi.string()
  .pattern(SLUG_PATTERN)
  .messages({ '*': `slug must be ${SLUG_RULE}, such as "nightly-backup" (got {{#value}})` });

/** The most runs per monitor GET /monitors?history=N returns. */
const MAX_HISTORY = 50;

const DAY = 86_400;
const MAX_SECONDS = 31 * DAY;

function seconds(field: string, least: number, most: number): Joi.NumberSchema {
  return Joi.number()
    .integer()
    .min(least)
    .max(most)
    .messages({ '*': `${field} must be a whole number of seconds from ${least} to ${most} (got {{#value}})` });
}

function threshold(field: string): Joi.NumberSchema {
  return Joi.number()
    .integer()
    .min(1)
    .max(100)
    .messages({ '*': `${field} must be a whole number from 1 to 100 (got {{#value}})` });
}

// Braces escaped: joi reads {…} in a message as a template.
const SCHEDULE_FORM =
  'schedule must be \\{"cron": "0 3 * * *", "timezone": "Europe/Berlin"}, \\{"every": 3600} or null';

// Unknown keys are refused here, not dropped: a misspelt "tz" would otherwise leave a schedule in UTC unseen.
const schedule = Joi.object({
  cron: Joi.string().max(200).messages({ '*': 'schedule.cron must be text such as "0 3 * * *"' }),
  timezone: Joi.string().max(64).messages({ '*': 'schedule.timezone must be an IANA name such as "Europe/Berlin"' }),
  every: seconds('schedule.every', 1, MAX_EVERY_SECONDS),
})
  .xor('cron', 'every')
  .without('every', 'timezone')
  .prefs({ stripUnknown: false })
  .allow(null)
  .messages({
    'object.base': `${SCHEDULE_FORM}.`,
    'object.xor': `${SCHEDULE_FORM}: give cron or every, not both.`,
    'object.missing': `${SCHEDULE_FORM}: give cron or every.`,
    'object.without': 'schedule.timezone goes with cron only: an every schedule counts from the last run opening.',
    'object.unknown': `{{#label}} is not a schedule field; ${SCHEDULE_FORM}.`,
  });

/** The settings of docs/schedules.md, as a create or an update gives them. */
const SETTINGS = {
  schedule,
  startGrace: seconds('startGrace', 1, MAX_SECONDS),
  maxRuntime: seconds('maxRuntime', 1, MAX_SECONDS).allow(null),
  failureThreshold: threshold('failureThreshold'),
  recoveryThreshold: threshold('recoveryThreshold'),
  renotifyAfter: seconds('renotifyAfter', 60, MAX_SECONDS).allow(null),
  failAlerts: Joi.string()
    .valid(...FAIL_ALERTS)
    .messages({
      '*': 'failAlerts must be "every" (each failed run alerts) or "first" (only the one that opens an incident)',
    }),
  paused: Joi.boolean().messages({ '*': 'paused must be true or false' }),
};

const SNOOZE_FORM = 'snoozedUntil must be an ISO 8601 time such as "2027-03-27T14:00:00Z", or null to end the snooze';

/** Until when the monitor is snoozed (docs/schedules.md#snooze-and-maintenance-windows); null: not snoozed. */
const snoozedUntil = Joi.date().iso().allow(null).messages({ '*': SNOOZE_FORM });

/** The longest snooze: longer is what pausing is for. */
const MAX_SNOOZE_MS = 366 * DAY * 1000;

/**
 * A failure of a schedule setting is `invalid_schedule`; of the snooze, `invalid_snooze`; of anything else (the
 * name), `invalid_request`.
 */
function invalidMonitor(_request: Request, _h: ResponseToolkit, err?: Error): never {
  const field = String((err as Joi.ValidationError | undefined)?.details?.[0]?.path?.[0] ?? '');
  if (field === 'snoozedUntil') throw apiError(400, 'invalid_snooze', `${SNOOZE_FORM}.`);
  if (field in SETTINGS) throw apiError(400, 'invalid_schedule', `${err!.message}.`.replace(/\.\.$/, '.'));
  return invalidRequest(_request, _h, err);
}

/** The settings given, with their schedule checked by domain/schedule.ts (cron fields, timezone). */
function settingsGiven(payload: Partial<Omit<MonitorSettings, 'schedule'>> & { schedule?: Schedule | null }) {
  const { schedule: given, ...rest } = payload;
  const settings: Partial<MonitorSettings> = {};
  for (const key of Object.keys(SETTINGS) as Array<keyof typeof SETTINGS>) {
    if (key !== 'schedule' && rest[key] !== undefined) Object.assign(settings, { [key]: rest[key] });
  }
  if (given === null) settings.schedule = null;
  else if (given !== undefined) settings.schedule = checked(given);
  return settings;
}

function checked(given: Schedule): StoredSchedule {
  const result = checkSchedule(given);
  if ('error' in result) throw apiError(400, 'invalid_schedule', result.error);
  return result.schedule;
}

type MonitorRequest = Request<WithParams<'monitorId'>>;

export function monitorRoutes(ctx: RouteContext): ServerRoute[] {
  const params = pathParams('monitorId');
  return [
    {
      method: 'GET',
      path: '/monitors',
      options: {
        id: 'listMonitors',
        description: "The account's monitors",
        tags: ['monitors'],
        response: replies({ 200: MonitorListSchema }),
        validate: {
          query: Joi.object({ ...pageQuery, history: Joi.number().integer().min(0).max(MAX_HISTORY).default(0) }),
          options: { allowUnknown: true },
          failAction: invalidRequest,
        },
      },
      handler: (request: Request) => list(ctx, request),
    },
    {
      method: 'POST',
      path: '/monitors',
      options: {
        id: 'createMonitor',
        description: 'Create a monitor',
        tags: ['monitors'],
        response: replies({ 201: MonitorSchema }),
        validate: {
          payload: Joi.object({ name: name.required(), slug, ...SETTINGS }).options({ stripUnknown: true }),
          failAction: invalidMonitor,
        },
      },
      handler: (request: Request, h: ResponseToolkit) => create(ctx, request, h),
    },
    {
      method: 'GET',
      path: '/monitors/{monitorId}',
      options: {
        id: 'getMonitor',
        description: 'One monitor',
        tags: ['monitors'],
        response: replies({ 200: MonitorSchema }),
        validate: { params, failAction: invalidRequest },
      },
      handler: (request: MonitorRequest) => show(ctx, request),
    },
    {
      method: 'PATCH',
      path: '/monitors/{monitorId}',
      options: {
        id: 'updateMonitor',
        description: "Change a monitor's name or settings",
        tags: ['monitors'],
        response: replies({ 200: MonitorSchema }),
        // At least one known field: a body of nothing we know (a form-encoded JSON string, say) changes nothing
        // silently otherwise.
        validate: {
          params,
          payload: Joi.object({ name, slug, ...SETTINGS, snoozedUntil })
            .min(1)
            .options({ stripUnknown: true }),
          failAction: invalidMonitor,
        },
      },
      handler: (request: MonitorRequest) => update(ctx, request),
    },
    {
      method: 'GET',
      path: '/monitors/{monitorId}/expected',
      options: {
        id: 'listExpected',
        description: 'The next expected run openings',
        tags: ['monitors'],
        response: replies({ 200: ExpectedTimesSchema }),
        validate: {
          params,
          query: Joi.object({
            count: Joi.number()
              .integer()
              .min(1)
              .max(100)
              .default(5)
              .messages({ '*': 'count must be a whole number from 1 to 100' }),
          }),
          options: { allowUnknown: true },
          failAction: invalidRequest,
        },
      },
      handler: (request: MonitorRequest) => expected(ctx, request),
    },
    {
      method: 'DELETE',
      path: '/monitors/{monitorId}',
      options: {
        id: 'deleteMonitor',
        description: 'Delete a monitor and its runs',
        tags: ['monitors'],
        response: replies({ 204: false }),
        validate: { params, failAction: invalidRequest },
      },
      handler: (request: MonitorRequest, h: ResponseToolkit) => remove(ctx, request, h),
    },
  ];
}

/** The 404 of a monitor that is not the account's: the same whether it does not exist or is another account's. */
export function monitorNotFound(monitorId: string): Boom {
  return apiError(404, 'monitor_not_found', `No monitor ${monitorId} in your account.`);
}

function slugTaken(slug: string): Boom {
  return apiError(409, 'slug_taken', `Another monitor of your account has the slug ${slug}: choose another one.`);
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
  const now = ctx.config.clock();
  return monitors.map((m) => presentMonitor(m, latest.get(m.monitorId), now));
}

async function list(ctx: RouteContext, request: Request): Promise<MonitorList> {
  const { limit, cursor, history } = request.query as { limit: number; cursor?: string; history: number };
  const { accountId } = userOf(request);
  const fetched = await listMonitors(ctx.db.sql, accountId, { limit: limit + 1, after: pageStart(cursor) });
  const page = pageOf(fetched, limit, (m) => ({ at: m.createdAt, id: m.monitorId }));
  const monitors = await withLatestRuns(ctx, accountId, page.items);
  if (history > 0) {
    const points = await findRunHistory(
      ctx.db.sql,
      accountId,
      page.items.map((m) => m.monitorId),
      history,
    );
    for (const monitor of monitors) monitor.history = (points.get(monitor.monitorId) ?? []).map(presentRunPoint);
  }
  return { monitors, nextCursor: page.nextCursor };
}

async function create(ctx: RouteContext, request: Request, h: ResponseToolkit) {
  const payload = request.payload as CreateMonitorRequest;
  const { accountId } = userOf(request);
  const now = ctx.config.clock();
  const settings = { ...DEFAULT_SETTINGS, ...settingsGiven(payload) };
  const outcome = await createMonitor(ctx.db, accountId, { name: payload.name, slug: payload.slug, settings }, now);
  if (outcome.kind === 'slug_taken') throw slugTaken(outcome.slug);
  return h.response(presentMonitor(outcome.monitor, undefined, now)).code(201);
}

async function show(ctx: RouteContext, request: MonitorRequest): Promise<Monitor> {
  const { accountId } = userOf(request);
  const monitor = await requireMonitor(ctx, accountId, request.params.monitorId);
  return (await withLatestRuns(ctx, accountId, [monitor]))[0]!;
}

async function update(ctx: RouteContext, request: MonitorRequest): Promise<Monitor> {
  const { accountId } = userOf(request);
  const { monitorId } = request.params;
  const payload = request.payload as UpdateMonitorRequest;
  const settings = settingsGiven(payload);
  const now = ctx.config.clock();
  const snoozedUntil = snoozeGiven((request.payload as { snoozedUntil?: Date | null }).snoozedUntil, now);
  const changes = { name: payload.name, slug: payload.slug, settings, snoozedUntil };
  const outcome = await updateMonitor(ctx.db, accountId, monitorId, changes, now);
  if (outcome.kind === 'not_found') throw monitorNotFound(monitorId);
  if (outcome.kind === 'slug_taken') throw slugTaken(outcome.slug);
  return (await withLatestRuns(ctx, accountId, [outcome.monitor]))[0]!;
}

/** The snooze given (epoch ms, null to end it, undefined when not given), checked against `now`. */
function snoozeGiven(given: Date | null | undefined, now: number): number | null | undefined {
  if (given === undefined || given === null) return given;
  const until = given.getTime();
  if (until <= now) {
    throw apiError(
      400,
      'invalid_snooze',
      `snoozedUntil ${given.toISOString()} is not in the future (it is ${new Date(now).toISOString()} now): ` +
        'give a later time, or null to end the snooze.',
    );
  }
  if (until > now + MAX_SNOOZE_MS) {
    throw apiError(400, 'invalid_snooze', 'snoozedUntil is over a year ahead: pause the monitor instead.');
  }
  return until;
}

/** The next expected openings, in UTC and the schedule's timezone; none for a monitor without a schedule. */
async function expected(ctx: RouteContext, request: MonitorRequest): Promise<ExpectedTimes> {
  const { count } = request.query as { count: number };
  const monitor = await requireMonitor(ctx, userOf(request).accountId, request.params.monitorId);
  const { schedule: s } = monitor;
  if (s === null) return { timezone: 'UTC', times: [] };
  const timezone = 'cron' in s ? s.timezone : 'UTC';
  // A paused monitor expects nothing now: shown is what it would expect if resumed now.
  const first = monitor.nextExpectedAt ?? slotAfter(s, ctx.config.clock());
  return { timezone, times: upcoming(s, first, count).map((at) => localTime(at, timezone)) };
}

async function remove(ctx: RouteContext, request: MonitorRequest, h: ResponseToolkit) {
  const { monitorId } = request.params;
  if (!(await deleteMonitor(ctx.db.sql, userOf(request).accountId, monitorId))) throw monitorNotFound(monitorId);
  return h.response().code(204);
}
