import type { Request, ServerRoute } from '@hapi/hapi';
import type { LogResult } from '@pingmon/sdk';
import { userOf } from '../auth.js';
import { findRunLog } from '../db/run-logs.js';
import { findRun } from '../db/runs.js';
import { apiError } from '../errors.js';
import type { RouteContext } from './context.js';

export function logRoutes(ctx: RouteContext): ServerRoute[] {
  return [{ method: 'GET', path: '/monitors/{monitorId}/runs/{runId}/log', handler: (request: Request) => log(ctx, request) }];
}

async function log(ctx: RouteContext, request: Request): Promise<LogResult> {
  const { monitorId, runId } = request.params as { monitorId: string; runId: string };
  const run = await findRun(ctx.db.sql, userOf(request).accountId, monitorId, runId);
  if (!run) throw apiError(404, 'run_not_found', `No run ${runId} on monitor ${monitorId} in your account.`);
  const content = run.hasLog ? await findRunLog(ctx.db.sql, monitorId, runId) : undefined;
  return content === undefined ? { hasLog: false, content: null } : { hasLog: true, content };
}
