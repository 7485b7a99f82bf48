import Boom from '@hapi/boom';
import type { Request, ResponseToolkit, Server } from '@hapi/hapi';
import type { ErrorBody } from '@pingmon/sdk/wire';
import { DatabaseUnavailableError } from './db/index.js';
import type { OutageLog } from './outage-log.js';

/** A Boom error carrying the stable machine `code` of DESIGN §4. */
export function apiError(
  statusCode: number,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
): Boom.Boom {
  return new Boom.Boom(message, { statusCode, data: { pingmonCode: code, ...extra } });
}

/** "Wait 1 second" / "Wait 30 seconds". */
export function waitFor(seconds: number): string {
  return `Wait ${seconds} second${seconds === 1 ? '' : 's'}`;
}

const DEFAULT_CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

/** What a client is asked to wait before trying again while the database is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * Gives every error response, on every route, one shape: Boom's fields plus success:false and a code.
 * A database outage is a 503 logged in `outages`, rate-limited; any other 5xx has its cause logged here.
 */
export function registerErrorShape(server: Server, outages: Pick<OutageLog, 'failed'>): void {
  server.ext('onPreResponse', (request: Request, h: ResponseToolkit) => {
    const response = request.response;
    if (!Boom.isBoom(response)) return h.continue;
    if (response instanceof DatabaseUnavailableError) outages.failed('request', response);
    // hapi logs a 500's cause only when the response it sends is the error itself, not the shape made here. Through
    // the server's log, not request.log: a listener of request events would cost every request (server-log.ts).
    else if (response.output.statusCode >= 500) request.server.log(['error'], response);
    const body = errorBody(request, response);
    const reply = h.response(body).code(body.statusCode);
    if (body.retryAfter !== undefined) reply.header('Retry-After', String(body.retryAfter));
    if (response.output.headers['WWW-Authenticate'])
      reply.header('WWW-Authenticate', String(response.output.headers['WWW-Authenticate']));
    return reply;
  });
}

function errorBody(request: Request, err: Boom.Boom): ErrorBody {
  if (err instanceof DatabaseUnavailableError) {
    return {
      success: false,
      statusCode: 503,
      error: 'Service Unavailable',
      code: 'database_unavailable',
      message:
        `The server cannot use its database at the moment. ${waitFor(DATABASE_RETRY_AFTER_SECONDS)} ` +
        'and send the request again (a ping sent again with the same runId is recorded once).',
      retryAfter: DATABASE_RETRY_AFTER_SECONDS,
    };
  }
  const { statusCode, payload } = err.output;
  // Only our own errors choose their code: others (zlib, Node) may carry codes of their own in data.
  const data = (err.data ?? {}) as { pingmonCode?: string; retryAfter?: number };
  const body: ErrorBody = {
    success: false,
    statusCode,
    error: payload.error,
    code: data.pingmonCode ?? DEFAULT_CODES[statusCode] ?? 'error',
    message: payload.message,
  };
  if (data.retryAfter !== undefined) body.retryAfter = data.retryAfter;
  if (statusCode >= 500) {
    // The cause is in the log (registerErrorShape); the client learns nothing of the internals.
    return { ...body, code: 'internal_error', message: 'An internal error occurred. The server log has the details.' };
  }
  if (data.pingmonCode) return body;
  if (statusCode === 404)
    body.message = `No endpoint ${request.method.toUpperCase()} ${request.path}. The API is documented in docs/api.md.`;
  if (statusCode === 400 && /JSON/i.test(payload.message)) {
    body.code = 'invalid_json';
    body.message = 'The request body is not valid JSON. Send a JSON object with Content-Type: application/json.';
  }
  if (statusCode === 413)
    body.message =
      `The request body is larger than this server accepts (${payload.message.replace(/\D+/g, '')} bytes). ` +
      'Send less.';
  if (statusCode === 415) body.message = 'Unsupported Content-Type. Send JSON with Content-Type: application/json.';
  return body;
}
