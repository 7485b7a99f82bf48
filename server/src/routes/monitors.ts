import Joi from 'joi';
import type { Boom } from '@hapi/boom';
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import type {
  CreateMonitorRequest,
  ExpectedTimes,
  Monitor,
  MonitorList,
  UpdateMonitorRequest,
} from '@pingmon/sdk/wire';
import { userOf } from '../auth.js';
import type { MonitorRecord, MonitorSettings } from '../db/monitors.js';
import { deleteMonitor, findMonitor, listMonitors } from '../db/monitors.js';
import { findLatestRuns, findRunHistory, listRunOpenings } from '../db/runs.js';
import { DEFAULT_SETTINGS } from '../domain/monitor-settings.js';
import { HINT_RUNS, scheduleHint } from '../domain/schedule-hint.js';
import { localTime, slotAfter, upcoming } from '../domain/schedule.js';
import { apiError } from '../errors.js';
import { presentMonitor, presentRunPoint } from '../presenter.js';
import { createMonitor } from '../use-cases/create-monitor.js';
import { updateMonitor } from '../use-cases/update-monitor.js';
import type { RouteContext } from './context.js';
import type { GivenSettings } from './monitor-bodies.js';
import { CREATE_MONITOR_BODY, monitorRefusal, settingsGiven, UPDATE_MONITOR_BODY } from './monitor-bodies.js';
import { pageOf, pageQuery, pageStart } from './pagination.js';
import {
  ExpectedTimes as ExpectedTimesSchema,
  Monitor as MonitorSchema,
  MonitorList as MonitorListSchema,
  replies,
} from './responses.js';
import type { WithParams } from './validation.js';
import { invalidRequest, pathParams } from './validation.js';

/** The most runs per monitor GET /monitors?history=N returns. */
const MAX_HISTORY = 50;

const DAY = 86_400;

/** The longest snooze: longer is what pausing is for. */
const MAX_SNOOZE_MS = 366 * DAY * 1000;

/** hapi hands a failAction joi's error itself (boomified). */
function invalidMonitor(_request: Request, _h: ResponseToolkit, err?: Error): never {
  if (!(err as Joi.ValidationError | undefined)?.details) return invalidRequest(_request, _h, err);
  const { code, message } = monitorRefusal(err as Joi.ValidationError);
  throw apiError(400, code, message);
}

/** The settings given, or the 400 naming the one that is wrong. */
function checkedSettings(payload: GivenSettings): Partial<MonitorSettings> {
  const given = settingsGiven(payload);
  if (!given.ok) throw apiError(400, given.refusal.code, given.refusal.message);
  return given.settings;
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
        plugins: { access: 'read', keyMonitors: 'filtered' },
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
        plugins: { access: 'write' },
        description: 'Create a monitor',
        tags: ['monitors'],
        response: replies({ 201: MonitorSchema }, [403, 409]),
        validate: {
          payload: CREATE_MONITOR_BODY,
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
        plugins: { access: 'read' },
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
        plugins: { access: 'write' },
        description: "Change a monitor's name or settings",
        tags: ['monitors'],
        response: replies({ 200: MonitorSchema }, [409]),
        validate: {
          params,
          payload: UPDATE_MONITOR_BODY,
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
        plugins: { access: 'read' },
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
        plugins: { access: 'write' },
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

/** The 403 of a creation past the most monitors the account's plan allows (PINGMON_PLAN_MONITORS). */
export function monitorLimitReached(plan: string, limit: number): Boom {
  return apiError(
    403,
    'monitor_limit_reached',
    `Your account has ${limit} monitors, the most its ${plan} plan allows: delete one you no longer need ` +
      '(pingmon monitors delete), or ask the operator of this server for a larger plan.',
  );
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

/**
 * One monitor as answered alone: with its scheduleHint, judged on read from its latest run openings (one indexed
 * read), so that neither a ping nor a list pays for it.
 */
async function presentOne(ctx: RouteContext, accountId: string, monitor: MonitorRecord): Promise<Monitor> {
  const [presented] = await withLatestRuns(ctx, accountId, [monitor]);
  const openings =
    monitor.schedule === null ? [] : await listRunOpenings(ctx.db.sql, accountId, monitor.monitorId, HINT_RUNS);
  return { ...presented!, scheduleHint: scheduleHint(monitor.schedule, monitor.startGrace * 1000, openings) };
}

async function list(ctx: RouteContext, request: Request): Promise<MonitorList> {
  const { limit, cursor, history } = request.query as { limit: number; cursor?: string; history: number };
  const { accountId, monitorIds } = userOf(request);
  const fetched = await listMonitors(ctx.db.sql, accountId, { limit: limit + 1, after: pageStart(cursor), monitorIds });
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
  const settings = { ...DEFAULT_SETTINGS, ...checkedSettings(payload) };
  const input = { name: payload.name, slug: payload.slug, settings };
  const outcome = await createMonitor(ctx.db, accountId, input, now, ctx.config.planMonitors);
  if (outcome.kind === 'slug_taken') throw slugTaken(outcome.slug);
  if (outcome.kind === 'limit_reached') throw monitorLimitReached(outcome.plan, outcome.limit);
  return h.response({ ...presentMonitor(outcome.monitor, undefined, now), scheduleHint: null }).code(201);
}

async function show(ctx: RouteContext, request: MonitorRequest): Promise<Monitor> {
  const { accountId } = userOf(request);
  const monitor = await requireMonitor(ctx, accountId, request.params.monitorId);
  return presentOne(ctx, accountId, monitor);
}

async function update(ctx: RouteContext, request: MonitorRequest): Promise<Monitor> {
  const { accountId } = userOf(request);
  const { monitorId } = request.params;
  const payload = request.payload as UpdateMonitorRequest;
  const settings = checkedSettings(payload);
  const now = ctx.config.clock();
  const snoozedUntil = snoozeGiven((request.payload as { snoozedUntil?: Date | null }).snoozedUntil, now);
  const changes = { name: payload.name, slug: payload.slug, settings, snoozedUntil };
  const outcome = await updateMonitor(ctx.db, accountId, monitorId, changes, now);
  if (outcome.kind === 'not_found') throw monitorNotFound(monitorId);
  if (outcome.kind === 'slug_taken') throw slugTaken(outcome.slug);
  return presentOne(ctx, accountId, outcome.monitor);
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
