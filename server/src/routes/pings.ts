import type Joi from 'joi';
import type { Boom } from '@hapi/boom';
import type { Request, ServerRoute } from '@hapi/hapi';
import type { PingKind, PingResponse } from '@pingmon/sdk/wire';
import { isSlug } from '@pingmon/sdk/wire';
import { noteChange } from '../audit.js';
import { grantOf } from '../auth.js';
import type { ApiKeyGrant } from '../db/api-keys.js';
import type { PingInput } from '../domain/ping-body.js';
import { pingTime } from '../domain/ping-body.js';
import { apiError, waitFor } from '../errors.js';
import { presentAck } from '../presenter.js';
import { provisionMonitor } from '../use-cases/provision-monitor.js';
import { recordPing } from '../use-cases/record-ping.js';
import type { RouteContext } from './context.js';
import { monitorLimitReached } from './monitors.js';
import { PING_BODIES, PLAIN_LOG_BODY, parsePingBody } from './ping-bodies.js';
import { PingResponse as PingSchema, replies } from './responses.js';
import type { WithParams } from './validation.js';

const KINDS: readonly PingKind[] = ['start', 'success', 'fail'];

// The bodies the OpenAPI document shows are the schemas parsePingBody validates with.
const PING_CONTENT: Record<PingKind, Record<string, Joi.Schema>> = {
  start: { 'application/json': PING_BODIES.start },
  success: { 'application/json': PING_BODIES.success },
  fail: { 'application/json': PING_BODIES.fail, 'text/plain': PLAIN_LOG_BODY },
};
const SUMMARIES: Record<PingKind, string> = {
  start: 'Start a run',
  success: 'Finish a run as succeeded',
  fail: 'Finish a run as failed',
};

export function pingRoutes(ctx: RouteContext): ServerRoute[] {
  return KINDS.map((kind) => ({
    method: 'POST',
    path: `/ping/{monitorId}/${kind}`,
    options: {
      id: `ping${kind[0]!.toUpperCase()}${kind.slice(1)}`,
      auth: 'api-key',
      description: SUMMARIES[kind],
      tags: ['pings'],
      plugins: { openapi: { payload: PING_CONTENT[kind] } },
      // No response is validated at request time (replies): the pings stay as fast.
      response: replies({ 200: PingSchema }, [403, 409, 413, 429]),
      // The body is read raw: JSON whatever the content type says, or a text/plain log (DESIGN §5).
      payload: { parse: false, output: 'data', maxBytes: ctx.config.bodyLimitBytes },
      // The path param is declared by the handler's type alone: joi's validate.params cost 5-8% of a ping's
      // time (measured with server.inject), and hapi hands every path param over as a non-empty string anyway.
      handler: (request: Request<WithParams<'monitorId'>>) => ping(ctx, kind, request),
      app: { pingKind: kind },
    },
  }));
}

/** A ping's 404: an unknown slug (routes/monitor-refs.ts left it as sent) says how to create its monitor. */
function pingNotFound(monitorId: string) {
  const known = `No monitor ${monitorId} in the account of this API key.`;
  if (!isSlug(monitorId)) {
    return apiError(404, 'monitor_not_found', `${known} Check the monitor id (GET /api/v1/monitors lists yours).`);
  }
  return apiError(
    404,
    'monitor_not_found',
    `${known} Send its settings with the ping to create it ("monitor": {"schedule": …}, as pingmon run ` +
      `--monitor ${monitorId} --cron … does), or create it first with ` +
      `pingmon monitors create NAME --slug ${monitorId}.`,
  );
}

/**
 * The monitor the ping goes to: the one of its path, first made or updated as the ping's settings say, if it
 * carries any (use-cases/provision-monitor.ts).
 */
async function monitorOf(
  ctx: RouteContext,
  request: Request<WithParams<'monitorId'>>,
  grant: ApiKeyGrant,
  ref: string,
  settings: NonNullable<PingInput['monitor']>,
  now: number,
): Promise<string | Boom> {
  const outcome = await provisionMonitor(ctx.db, grant, ref, settings, now, ctx.config.planMonitors);
  switch (outcome.kind) {
    case 'ready':
      if (outcome.change) noteChange(request, outcome.change);
      return outcome.monitorId;
    case 'not_found':
      return pingNotFound(ref);
    case 'refused':
      return apiError(
        403,
        'provision_refused',
        `This API key may not create or change monitors (it was made with "provision": false), and the ping's ` +
          'monitor settings would. Send the ping without settings, or use a key that may provision. ' +
          'Nothing was recorded.',
      );
    case 'limit_reached':
      return monitorLimitReached(outcome.plan, outcome.limit);
  }
}

async function ping(
  ctx: RouteContext,
  kind: PingKind,
  request: Request<WithParams<'monitorId'>>,
): Promise<PingResponse> {
  const now = ctx.config.clock();
  const parsed = parsePingBody(
    kind,
    request.headers['content-type'] as string | undefined,
    request.payload as Buffer | null,
  );
  if (!parsed.ok) {
    ctx.metrics?.pinged(kind, { kind: 'invalid' });
    throw apiError(400, parsed.error.code, parsed.error.message);
  }
  const time = pingTime(parsed.input, now);
  if (!time.ok) {
    ctx.metrics?.pinged(kind, { kind: 'invalid' });
    throw apiError(400, time.error.code, time.error.message);
  }
  const grant = grantOf(request);
  // A ping without settings (nearly all) goes on without an await.
  const ref = request.params.monitorId;
  const monitorId =
    parsed.input.monitor === undefined ? ref : await monitorOf(ctx, request, grant, ref, parsed.input.monitor, now);
  if (typeof monitorId !== 'string') {
    ctx.metrics?.pinged(kind, { kind: 'invalid' });
    throw monitorId;
  }
  const intervalMs = ctx.config.planIntervalsMs[grant.plan];
  const { accountId } = grant;
  const { input } = parsed;
  // A ping answered 5xx, here or before (its API key check), is counted as an error by the metrics' response
  // listener: the outcomes counted here are all answered 200 or 4xx.
  const received = { accountId, monitorId, kind, input, now, at: time.at, intervalMs };
  const outcome = await recordPing(ctx.db, ctx.knownMonitors, received);
  ctx.metrics?.pinged(kind, outcome);
  if (outcome.kind === 'not_found') throw pingNotFound(request.params.monitorId);
  if (outcome.kind === 'too_close') {
    throw apiError(
      409,
      'too_close',
      `This monitor has a run opened less than ${intervalMs / 1000} seconds from this ping's timestamp ` +
        `(${new Date(time.at).toISOString()}), the minimum interval of the ${grant.plan} plan. ` +
        'The run is not recorded; sending the ping again will not change that.',
    );
  }
  if (outcome.kind === 'rate_limited') {
    const seconds = outcome.retryAfterSeconds;
    throw apiError(
      429,
      'rate_limited',
      `This monitor opened a run less than ${intervalMs / 1000} seconds ago, ` +
        `the minimum interval of the ${grant.plan} plan. ${waitFor(seconds)} before sending the next ping.`,
      { retryAfter: seconds },
    );
  }
  if (outcome.queued > 0) ctx.deliveries.nudge();
  return { success: true, data: presentAck(outcome.run) };
}
