import Joi from 'joi';
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import { BASELINE_MAX_RUNS, META_KEY_MAX_CHARS, RULE_OPS, WINDOW_MAX_RUNS } from '@pingmon/sdk/wire';
import type { CreateRuleRequest, RuleList, RuleSpec } from '@pingmon/sdk/wire';
import { userOf } from '../auth.js';
import { listRules } from '../db/rules.js';
import { MAX_RULES_PER_MONITOR } from '../domain/rules.js';
import { apiError } from '../errors.js';
import { newId } from '../ids.js';
import { presentRule } from '../presenter.js';
import { addRule, removeRule } from '../use-cases/rules.js';
import type { RouteContext } from './context.js';
import { monitorNotFound, requireMonitor } from './monitors.js';
import { replies, Rule as RuleSchema, RuleList as RuleListSchema } from './responses.js';
import type { WithParams } from './validation.js';
import { invalidRequest, pathParams } from './validation.js';

// The metric is a meta key, with the same rule as on pings: 1 to 64 characters, matched exactly.
export const ruleBody = Joi.object({
  metric: Joi.string().min(1).max(META_KEY_MAX_CHARS).required(),
  op: Joi.string()
    .valid(...RULE_OPS)
    .meta({ type: 'RuleOp' })
    .required(),
  // unsafe(): any finite number, as in meta (Joi refuses integers beyond 2^53 by default).
  value: Joi.number().strict().unsafe().required(),
  baseline: Joi.object({
    runs: Joi.number().strict().integer().min(1).max(BASELINE_MAX_RUNS).required(),
    // Default: `runs` (every run before must report the metric). At most `runs`: checked by ruleOf.
    minRuns: Joi.number().strict().integer().min(1).max(BASELINE_MAX_RUNS),
  })
    .allow(null)
    .default(null),
  window: Joi.object({
    runs: Joi.number().strict().integer().min(1).max(WINDOW_MAX_RUNS).required(),
    // At most `runs`: checked by ruleOf.
    atLeast: Joi.number().strict().integer().min(1).max(WINDOW_MAX_RUNS).required(),
  })
    .allow(null)
    .default(null),
})
  .options({ stripUnknown: true })
  // With a baseline the value multiplies the median: 0 or less would compare with nothing a metric reports.
  .when(Joi.object({ baseline: Joi.object().required() }).unknown(), {
    then: Joi.object({ value: Joi.number().greater(0) }),
  });

/** The rule a validated body asks for, minRuns given its default; a count beyond its `runs` is refused. */
export function ruleOf(body: CreateRuleRequest): RuleSpec {
  const { metric, op, value } = body;
  const baseline = body.baseline
    ? { runs: body.baseline.runs, minRuns: body.baseline.minRuns ?? body.baseline.runs }
    : null;
  const window = body.window ?? null;
  if (baseline && baseline.minRuns > baseline.runs)
    throw apiError(
      400,
      'invalid_request',
      `"baseline.minRuns" (${baseline.minRuns}) must be at most "baseline.runs" (${baseline.runs}).`,
    );
  if (window && window.atLeast > window.runs)
    throw apiError(
      400,
      'invalid_request',
      `"window.atLeast" (${window.atLeast}) must be at most "window.runs" (${window.runs}): ` +
        'it cannot hold in more runs than the window has.',
    );
  return { metric, op, value, baseline, window };
}

type MonitorRequest = Request<WithParams<'monitorId'>>;
type RuleRequest = Request<WithParams<'monitorId' | 'ruleId'>>;

export function ruleRoutes(ctx: RouteContext): ServerRoute[] {
  const params = pathParams('monitorId');
  return [
    {
      method: 'GET',
      path: '/monitors/{monitorId}/rules',
      options: {
        id: 'listRules',
        plugins: { access: 'read' },
        description: "A monitor's alert rules",
        tags: ['rules'],
        response: replies({ 200: RuleListSchema }),
        validate: { params, failAction: invalidRequest },
      },
      handler: (request: MonitorRequest) => list(ctx, request),
    },
    {
      method: 'POST',
      path: '/monitors/{monitorId}/rules',
      options: {
        id: 'createRule',
        plugins: { access: 'write' },
        description: 'Add an alert rule to a monitor',
        tags: ['rules'],
        response: replies({ 201: RuleSchema }),
        validate: { params, payload: ruleBody, failAction: invalidRequest },
      },
      handler: (request: MonitorRequest, h: ResponseToolkit) => create(ctx, request, h),
    },
    {
      method: 'DELETE',
      path: '/monitors/{monitorId}/rules/{ruleId}',
      options: {
        id: 'deleteRule',
        plugins: { access: 'write' },
        description: 'Delete an alert rule',
        tags: ['rules'],
        response: replies({ 204: false }),
        validate: { params: pathParams('monitorId', 'ruleId'), failAction: invalidRequest },
      },
      handler: (request: RuleRequest, h: ResponseToolkit) => remove(ctx, request, h),
    },
  ];
}

async function list(ctx: RouteContext, request: MonitorRequest): Promise<RuleList> {
  const { accountId } = userOf(request);
  const { monitorId } = request.params;
  await requireMonitor(ctx, accountId, monitorId);
  return { rules: (await listRules(ctx.db.sql, accountId, monitorId)).map(presentRule), nextCursor: null };
}

async function create(ctx: RouteContext, request: MonitorRequest, h: ResponseToolkit) {
  const { accountId } = userOf(request);
  const { monitorId } = request.params;
  const now = Date.now();
  const rule = {
    ruleId: newId('rule', now),
    monitorId,
    ...ruleOf(request.payload as CreateRuleRequest),
    createdAt: now,
  };
  const outcome = await addRule(ctx.db, accountId, rule);
  if (outcome.kind === 'monitor_not_found') throw monitorNotFound(monitorId);
  if (outcome.kind === 'limit_reached') {
    throw apiError(
      400,
      'rule_limit_reached',
      `Monitor ${monitorId} already has ${MAX_RULES_PER_MONITOR} rules, the most a monitor can have. ` +
        `Delete one first (DELETE /api/v1/monitors/${monitorId}/rules/:ruleId).`,
    );
  }
  return h.response(presentRule(outcome.rule)).code(201);
}

async function remove(ctx: RouteContext, request: RuleRequest, h: ResponseToolkit) {
  const { accountId } = userOf(request);
  const { monitorId, ruleId } = request.params;
  if (!(await removeRule(ctx.db, accountId, monitorId, ruleId))) {
    await requireMonitor(ctx, accountId, monitorId);
    throw apiError(404, 'rule_not_found', `No rule ${ruleId} on monitor ${monitorId}.`);
  }
  return h.response().code(204);
}
