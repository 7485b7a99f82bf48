import Joi from 'joi';
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import { META_KEY_MAX_CHARS } from '@pingmon/sdk/wire';
import type { CreateRuleRequest, RuleList } from '@pingmon/sdk/wire';
import { userOf } from '../auth.js';
import { deleteRule, insertRule, listRules } from '../db/rules.js';
import { MAX_RULES_PER_MONITOR, RULE_OPS } from '../domain/rules.js';
import { apiError } from '../errors.js';
import { newId } from '../ids.js';
import type { RouteContext } from './context.js';
import { requireMonitor } from './monitors.js';
import { invalidRequest } from './validation.js';

// The metric is a meta key, with the same rule as on pings: 1 to 64 characters, matched exactly.
const ruleBody = Joi.object({
  metric: Joi.string().min(1).max(META_KEY_MAX_CHARS).required(),
  op: Joi.string().valid(...RULE_OPS).required(),
  // unsafe(): any finite number, as in meta (Joi refuses integers beyond 2^53 by default).
  value: Joi.number().strict().unsafe().required(),
}).options({ stripUnknown: true });

export function ruleRoutes(ctx: RouteContext): ServerRoute[] {
  return [
    { method: 'GET', path: '/monitors/{monitorId}/rules', handler: (request: Request) => list(ctx, request) },
    {
      method: 'POST',
      path: '/monitors/{monitorId}/rules',
      options: { validate: { payload: ruleBody, failAction: invalidRequest } },
      handler: (request: Request, h: ResponseToolkit) => create(ctx, request, h),
    },
    { method: 'DELETE', path: '/monitors/{monitorId}/rules/{ruleId}', handler: (request: Request, h: ResponseToolkit) => remove(ctx, request, h) },
  ];
}

async function list(ctx: RouteContext, request: Request): Promise<RuleList> {
  const { accountId } = userOf(request);
  const monitorId = request.params.monitorId as string;
  await requireMonitor(ctx, accountId, monitorId);
  return { rules: await listRules(ctx.db.sql, accountId, monitorId), nextCursor: null };
}

async function create(ctx: RouteContext, request: Request, h: ResponseToolkit) {
  const { accountId } = userOf(request);
  const monitorId = request.params.monitorId as string;
  const { metric, op, value } = request.payload as CreateRuleRequest;
  const now = Date.now();
  const outcome = await insertRule(ctx.db, { ruleId: newId('rule', now), accountId, monitorId, metric, op, value, now }, MAX_RULES_PER_MONITOR);
  if (outcome.kind === 'monitor_not_found') throw apiError(404, 'monitor_not_found', `No monitor ${monitorId} in your account.`);
  if (outcome.kind === 'limit_reached') {
    throw apiError(400, 'rule_limit_reached', `Monitor ${monitorId} already has ${MAX_RULES_PER_MONITOR} rules, the most a monitor can have. Delete one first (DELETE /api/v1/monitors/${monitorId}/rules/:ruleId).`);
  }
  return h.response(outcome.rule).code(201);
}

async function remove(ctx: RouteContext, request: Request, h: ResponseToolkit) {
  const { accountId } = userOf(request);
  const { monitorId, ruleId } = request.params as { monitorId: string; ruleId: string };
  if (!(await deleteRule(ctx.db, accountId, monitorId, ruleId))) {
    await requireMonitor(ctx, accountId, monitorId);
    throw apiError(404, 'rule_not_found', `No rule ${ruleId} on monitor ${monitorId}.`);
  }
  return h.response().code(204);
}
