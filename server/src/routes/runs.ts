import Joi from 'joi';
import type { Request, ServerRoute } from '@hapi/hapi';
import type { LogResult, RunDetail, RunList, RunStatus } from '@pingmon/sdk/wire';
import { userOf } from '../auth.js';
import { findRunLog } from '../db/run-logs.js';
import { findFailureSeen, findRun, listRuns } from '../db/runs.js';
import type { RunRecord } from '../domain/runs.js';
import { apiError } from '../errors.js';
import { presentRun, presentRunDetail } from '../presenter.js';
import type { RouteContext } from './context.js';
import { requireMonitor } from './monitors.js';
import { pageOf, pageQuery, pageStart } from './pagination.js';
import {
  LogResult as LogSchema,
  replies,
  RunDetail as RunDetailSchema,
  RunList as RunListSchema,
} from './responses.js';
import type { WithParams } from './validation.js';
import { invalidRequest, pathParams } from './validation.js';

export const listQuery = Joi.object({
  ...pageQuery,
  status: Joi.string().valid('running', 'success', 'failed').meta({ type: 'RunStatus' }),
  fingerprint: Joi.string()
    .pattern(/^[0-9a-f]{16}$/)
    .description("Only the failed runs with this fingerprint (a run's `fingerprint`)"),
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
        plugins: { access: 'read' },
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
        plugins: { access: 'read' },
        description: 'One run, and its failure as the monitor has seen it',
        tags: ['runs'],
        response: replies({ 200: RunDetailSchema }),
        validate: { params, failAction: invalidRequest },
      },
      handler: (request: RunRequest) => detail(ctx, request),
    },
    {
      method: 'GET',
      path: '/monitors/{monitorId}/runs/{runId}/log',
      options: {
        id: 'getLog',
        plugins: { access: 'read' },
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
  const { limit, cursor, status, fingerprint } = request.query as {
    limit: number;
    cursor?: string;
    status?: RunStatus;
    fingerprint?: string;
  };
  const { accountId } = userOf(request);
  const { monitorId } = request.params;
  await requireMonitor(ctx, accountId, monitorId);
  const fetched = await listRuns(ctx.db.sql, accountId, monitorId, {
    limit: limit + 1,
    status,
    fingerprint,
    after: pageStart(cursor),
  });
  const page = pageOf(fetched, limit, (run) => ({ at: run.startedAt, id: run.runId }));
  return { runs: page.items.map(presentRun), nextCursor: page.nextCursor };
}

async function detail(ctx: RouteContext, request: RunRequest): Promise<RunDetail> {
  const run = await requireRun(ctx, request);
  const { fingerprint } = run;
  const failure =
    fingerprint === null ? undefined : await findFailureSeen(ctx.db.sql, run.accountId, run.monitorId, fingerprint);
  return presentRunDetail(run, failure);
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
