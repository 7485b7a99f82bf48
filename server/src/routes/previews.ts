import Joi from 'joi';
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import { describeRule, formatRule, MONITOR_DEFAULTS, ruleLookback } from '@pingmon/sdk/wire';
import type { CreateRuleRequest, RulePreview, SchedulePreview, SchedulePreviewRequest } from '@pingmon/sdk/wire';
import { userOf } from '../auth.js';
import { listRuns } from '../db/runs.js';
import { replayRule } from '../domain/rules.js';
import { localTime, slotAfter, upcoming } from '../domain/schedule.js';
import { describeSchedule } from '../domain/schedule-words.js';
import { apiError } from '../errors.js';
import { iso } from '../presenter.js';
import type { RouteContext } from './context.js';
import { monitorRefusal, SCHEDULE_FIELDS, settingsGiven } from './monitor-bodies.js';
import { requireMonitor } from './monitors.js';
import { replies, RulePreview as RulePreviewSchema, SchedulePreview as SchedulePreviewSchema } from './responses.js';
import { ruleBody, ruleOf } from './rules.js';
import type { WithParams } from './validation.js';
import { invalidRequest, pathParams } from './validation.js';

// Previews answer "what would this do?" with the server's own code: the times the sweeper would expect, the runs the
// rule matching would have flagged. Nothing is stored (docs/api.md, the two routes' sections).

const NO_SCHEDULE =
  'schedule must be \\{"cron": "0 3 * * *", "timezone": "Europe/Berlin"} or \\{"every": 3600}: ' +
  'without one nothing is expected, so there is nothing to preview';

export const schedulePreviewBody = Joi.object({
  // null passes here and is refused by the handler: the schema keeps its one form (its id names one component).
  schedule: SCHEDULE_FIELDS.schedule.required().messages({ 'any.required': NO_SCHEDULE }),
  startGrace: SCHEDULE_FIELDS.startGrace,
  count: Joi.number()
    .integer()
    .min(1)
    .max(100)
    .default(5)
    .messages({ '*': 'count must be a whole number from 1 to 100' })
    .description('How many expected times; 5 unless given'),
}).options({ stripUnknown: true });

export const rulePreviewQuery = Joi.object({
  runs: Joi.number()
    .integer()
    .min(1)
    .max(200)
    .default(20)
    .messages({ '*': 'runs must be a whole number from 1 to 200' })
    .description('How many of the latest successful runs to replay; 20 unless given'),
});

function invalidSchedule(request: Request, h: ResponseToolkit, err?: Error): never {
  if (!(err as Joi.ValidationError | undefined)?.details) return invalidRequest(request, h, err);
  const { code, message } = monitorRefusal(err as Joi.ValidationError);
  throw apiError(400, code, message);
}

type MonitorRequest = Request<WithParams<'monitorId'>>;

export function previewRoutes(ctx: RouteContext): ServerRoute[] {
  return [
    {
      method: 'POST',
      path: '/schedules/preview',
      options: {
        id: 'previewSchedule',
        plugins: { access: 'read' },
        description: 'A schedule in words and its next expected times, as a monitor given it now would expect them',
        tags: ['monitors'],
        response: replies({ 200: SchedulePreviewSchema }),
        validate: { payload: schedulePreviewBody, failAction: invalidSchedule },
      },
      handler: (request: Request) => previewSchedule(ctx, request),
    },
    {
      method: 'POST',
      path: '/monitors/{monitorId}/rules/preview',
      options: {
        id: 'previewRule',
        plugins: { access: 'read' },
        description: "What a rule would have matched among the monitor's latest successful runs",
        tags: ['rules'],
        response: replies({ 200: RulePreviewSchema }),
        validate: {
          params: pathParams('monitorId'),
          payload: ruleBody,
          query: rulePreviewQuery,
          options: { allowUnknown: true },
          failAction: invalidRequest,
        },
      },
      handler: (request: MonitorRequest) => previewRule(ctx, request),
    },
  ];
}

/** The first expected time is what a monitor created (or given this schedule) now would expect: its next slot. */
function previewSchedule(ctx: RouteContext, request: Request): SchedulePreview {
  const payload = request.payload as SchedulePreviewRequest & { count: number };
  if (payload.schedule === null) throw apiError(400, 'invalid_schedule', `${NO_SCHEDULE.replaceAll('\\', '')}.`);
  const given = settingsGiven({ schedule: payload.schedule });
  if (!given.ok) throw apiError(400, given.refusal.code, given.refusal.message);
  const schedule = given.settings.schedule!;
  const graceMs = (payload.startGrace ?? MONITOR_DEFAULTS.startGrace) * 1000;
  const timezone = 'cron' in schedule ? schedule.timezone : 'UTC';
  const times = upcoming(schedule, slotAfter(schedule, ctx.config.clock()), payload.count);
  return {
    description: describeSchedule(schedule),
    timezone,
    expected: times.map((at) => ({ ...localTime(at, timezone), missedAt: iso(at + graceMs) })),
  };
}

async function previewRule(ctx: RouteContext, request: MonitorRequest): Promise<RulePreview> {
  const { accountId } = userOf(request);
  const { monitorId } = request.params;
  const rule = ruleOf(request.payload as CreateRuleRequest);
  const { runs: limit } = request.query as { runs: number };
  await requireMonitor(ctx, accountId, monitorId);
  // The runs a look-back rule saw before the oldest replayed one come too, as a success ping would read them.
  const lookback = ruleLookback(rule);
  const runs = await listRuns(ctx.db.sql, accountId, monitorId, { limit: limit + lookback, status: 'success' });
  const replay = replayRule(rule, runs, limit);
  return {
    description: describeRule(rule),
    expression: formatRule(rule),
    checked: replay.checked,
    withoutMetric: replay.withoutMetric,
    matches: replay.matches.map(({ run, actual, median }) => ({
      ...{ runId: run.runId, startedAt: iso(run.startedAt), actual, median },
    })),
  };
}
