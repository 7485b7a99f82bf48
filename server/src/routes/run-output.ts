import Joi from 'joi';
import type { Request, ServerRoute } from '@hapi/hapi';
import type { OutputAck, RunOutput } from '@pingmon/sdk/wire';
import { RUN_ID_PATTERN } from '@pingmon/sdk/wire';
import { grantOf, userOf } from '../auth.js';
import { findRunOutput } from '../db/run-outputs.js';
import { findRun } from '../db/runs.js';
import { OUTPUT_WINDOW_CHARS, outputAfter } from '../domain/run-output.js';
import { apiError } from '../errors.js';
import { takeOutput } from '../use-cases/run-output.js';
import type { RouteContext } from './context.js';
import { OutputAck as OutputAckSchema, RunOutput as RunOutputSchema, replies } from './responses.js';
import type { WithParams } from './validation.js';
import { invalidRequest, pathParams } from './validation.js';

/** A piece of a running run's output, as `pingmon run` sends it about once a second (docs/api.md#live-output). */
export const outputBody = Joi.object({
  runId: Joi.string().pattern(RUN_ID_PATTERN).required().description("The run's id, as its start ping sent it"),
  offset: Joi.number()
    .integer()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .required()
    .description("Where `text` starts in the job's output, in characters (UTF-16 units) since the job started"),
  text: Joi.string()
    .allow('')
    .max(OUTPUT_WINDOW_CHARS)
    .required()
    .description(`The output from \`offset\` on, at most ${OUTPUT_WINDOW_CHARS} characters`),
}).prefs({ convert: false });

export const outputQuery = Joi.object({
  after: Joi.number()
    .integer()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .default(0)
    .description('The offset to read from: 0, then the `next` of the last answer'),
});

type RunRequest = Request<WithParams<'monitorId' | 'runId'>>;

export function runOutputRoutes(ctx: RouteContext): ServerRoute[] {
  return [
    {
      method: 'POST',
      path: '/ping/{monitorId}/output',
      options: {
        id: 'pingOutput',
        auth: 'api-key',
        description: "Send a piece of a running run's output",
        tags: ['pings'],
        response: replies({ 200: OutputAckSchema }, [404, 409]),
        // JSON escapes may take 6 bytes a character.
        payload: { maxBytes: 8 * OUTPUT_WINDOW_CHARS },
        validate: { params: pathParams('monitorId'), payload: outputBody, failAction: invalidRequest },
      },
      handler: (request: Request<WithParams<'monitorId'>>) => receive(ctx, request),
    },
    {
      method: 'GET',
      path: '/monitors/{monitorId}/runs/{runId}/output',
      options: {
        id: 'getRunOutput',
        plugins: { access: 'read' },
        description: "A running run's live output, from an offset",
        tags: ['runs'],
        response: replies({ 200: RunOutputSchema }),
        validate: { params: pathParams('monitorId', 'runId'), query: outputQuery, failAction: invalidRequest },
      },
      handler: (request: RunRequest) => read(ctx, request),
    },
  ];
}

async function receive(ctx: RouteContext, request: Request<WithParams<'monitorId'>>): Promise<OutputAck> {
  const { accountId } = grantOf(request);
  const { monitorId } = request.params;
  const chunk = request.payload as { runId: string; offset: number; text: string };
  const run = { accountId, monitorId, runId: chunk.runId };
  const outcome = await takeOutput(ctx.db, run, chunk, ctx.config.clock());
  if (typeof outcome === 'number') return { runId: chunk.runId, next: outcome };
  if (outcome === 'not_started') {
    const monitor = `monitor ${monitorId} in the account of this API key`;
    throw apiError(
      409,
      'run_not_started',
      `No run ${chunk.runId} on ${monitor} yet: send its start ping first (pingmon run does), then its output.`,
    );
  }
  throw apiError(
    409,
    'run_finished',
    `Run ${chunk.runId} has ended (${outcome}): its output is no longer taken. Its log comes with its result ping.`,
  );
}

async function read(ctx: RouteContext, request: RunRequest): Promise<RunOutput> {
  const { accountId } = userOf(request);
  const { monitorId, runId } = request.params;
  const { after } = request.query as { after: number };
  const run = await findRun(ctx.db.sql, accountId, monitorId, runId);
  if (!run) throw apiError(404, 'run_not_found', `No run ${runId} on monitor ${monitorId} in your account.`);
  const { text, from, to } = outputAfter(await findRunOutput(ctx.db.sql, monitorId, runId), after);
  return { runId, status: run.status, running: run.status === 'running', text, from, next: to };
}
