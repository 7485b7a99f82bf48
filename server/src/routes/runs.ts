import Joi from 'joi';
import type { Request, ServerRoute } from '@hapi/hapi';
import type { LogResult, Run, RunList, RunStatus } from '@pingmon/sdk/wire';
import { userOf } from '../auth.js';
import { findRunLog } from '../db/run-logs.js';
import { findRun, listRuns } from '../db/runs.js';
import type { RunRecord } from '../domain/runs.js';
import { apiError } from '../errors.js';
import { presentRun } from '../presenter.js';
import type { RouteContext } from './context.js';
import { requireMonitor } from './monitors.js';
import { pageOf, pageQuery, pageStart } from './pagination.js';
import { LogResult as LogSchema, replies, Run as RunSchema, RunList as RunListSchema } from './responses.js';
import type { WithParams } from './validation.js';
import { invalidRequest, pathParams } from './validation.js';

export const listQuery = Joi.object({
  ...pageQuery,
  status: Joi.string().valid('running', 'success', 'failed').meta({ type: 'RunStatus' }),
});

type RunRequest = Request<WithParams<'monitorId' | 'runId'>>;

export function runRoutes(ctx: RouteContext): ServerRoute[] {
  const params = pathParams('monitorId', 'runId');
  return [
    {
      method: 'GET',
      path: '/monitors/{monitorId}/runs',
      options: {
        id: 'listRuns',
        description: "A monitor's runs, newest first",
        tags: ['runs'],
        response: replies({ 200: RunListSchema }),
        validate: {
          params: pathParams('monitorId'),
          query: listQuery,
          options: { allowUnknown: true },
          failAction: invalidRequest,
        },
      },
      handler: (request: Request<WithParams<'monitorId'>>) => list(ctx, request),
    },
    {
      method: 'GET',
      path: '/monitors/{monitorId}/runs/{runId}',
      options: {
        id: 'getRun',
        description: 'One run',
        tags: ['runs'],
        response: replies({ 200: RunSchema }),
        validate: { params, failAction: invalidRequest },
      },
      handler: async (request: RunRequest): Promise<Run> => presentRun(await requireRun(ctx, request)),
    },
    {
      method: 'GET',
      path: '/monitors/{monitorId}/runs/{runId}/log',
      options: {
        id: 'getLog',
        description: "A run's log",
        tags: ['runs'],
        response: replies({ 200: LogSchema }),
        validate: { params, failAction: invalidRequest },
      },
      handler: (request: RunRequest) => log(ctx, request),
    },
  ];
}

async function list(ctx: RouteContext, request: Request<WithParams<'monitorId'>>): Promise<RunList> {
  const { limit, cursor, status } = request.query as { limit: number; cursor?: string; status?: RunStatus };
  const { accountId } = userOf(request);
  const { monitorId } = request.params;
  await requireMonitor(ctx, accountId, monitorId);
  const fetched = await listRuns(ctx.db.sql, accountId, monitorId, {
    limit: limit + 1,
    status,
    after: pageStart(cursor),
  });
  const page = pageOf(fetched, limit, (run) => ({ at: run.startedAt, id: run.runId }));
  return { runs: page.items.map(presentRun), nextCursor: page.nextCursor };
}

async function requireRun(ctx: RouteContext, request: RunRequest): Promise<RunRecord> {
  const { monitorId, runId } = request.params;
  const run = await findRun(ctx.db.sql, userOf(request).accountId, monitorId, runId);
  if (!run) throw apiError(404, 'run_not_found', `No run ${runId} on monitor ${monitorId} in your account.`);
  return run;
}

/** The log is read only here, for one run at a time. */
async function log(ctx: RouteContext, request: RunRequest): Promise<LogResult> {
  const run = await requireRun(ctx, request);
  const content = run.hasLog ? await findRunLog(ctx.db.sql, run.monitorId, run.runId) : undefined;
  return content === undefined ? { hasLog: false, content: null } : { hasLog: true, content };
}
