import Joi from 'joi';
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import { META_KEY_MAX_CHARS, RULE_OPS } from '@pingmon/sdk/wire';
import type { CreateRuleRequest, RuleList } from '@pingmon/sdk/wire';
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
}).options({ stripUnknown: true });

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
  const { metric, op, value } = request.payload as CreateRuleRequest;
  const now = Date.now();
  const rule = { ruleId: newId('rule', now), monitorId, metric, op, value, createdAt: now };
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
