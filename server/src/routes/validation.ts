import Joi from 'joi';
import type { ObjectSchema } from 'joi';
import type { Request, ResponseToolkit, Server } from '@hapi/hapi';
import { UNSTORABLE_TEXT, isStorable } from '@pingmon/sdk/wire';
import { apiError } from '../errors.js';

/** joi failures become 400 invalid_request with joi's own message, which names the field. */
export function invalidRequest(_request: Request, _h: ResponseToolkit, err?: Error): never {
  throw apiError(400, 'invalid_request', `${err?.message ?? 'Invalid request'}.`);
}

/** The path params of a route, for its handler's `Request<WithParams<…>>`. */
export interface WithParams<K extends string> {
  Params: Record<K, string>;
}

/**
 * Declares a route's path params (validate.params). Each is any text: an id that does not exist, however
 * odd it looks, is answered by its lookup's 404 (the same as for any unknown id), never by a 400 here; a
 * NUL in it is the text guard's 400.
 */
export function pathParams<K extends string>(...names: K[]): ObjectSchema<Record<K, string>> {
  return Joi.object(Object.fromEntries(names.map((name) => [name, Joi.string().required()])));
}

/**
 * Text the server keeps must be storable as sent (`isStorable`: no NUL, no lone surrogate, see the SDK's
 * limits.ts). A name, id, URL or query value holding such a unit is never meant, so the request is refused
 * with a 400 naming where, before it reaches a route. Ping bodies are exempt: a ping's message and log keep
 * such units as U+FFFD and its meta keys are checked by domain/ping-body.ts, which keeps the walk off the hot
 * path.
 */
export function registerTextGuard(server: Server): void {
  server.ext('onPreHandler', (request, h) => {
    if (unstorableIn(request.params) !== undefined) throw apiError(400, 'invalid_request', `The URL ${MUST_NOT}.`);
    const inBody = request.path.startsWith('/api/v1/ping/') ? undefined : unstorableIn(request.payload);
    if (inBody !== undefined) throw apiError(400, 'invalid_request', `Text in the body (${inBody}) ${MUST_NOT}.`);
    const inQuery = unstorableIn(request.query);
    if (inQuery !== undefined) throw apiError(400, 'invalid_request', `The query string (${inQuery}) ${MUST_NOT}.`);
    return h.continue;
  });
}

const MUST_NOT = `must not contain ${UNSTORABLE_TEXT}`;

/** Where the first unstorable text in `value` is ('"name"', '"monitorIds[2]"', 'a field name'), if anywhere. */
function unstorableIn(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return isStorable(value) ? undefined : `"${path.slice(0, 100)}"`;
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (!isStorable(key)) return 'a field name';
    const found = unstorableIn(item, Array.isArray(value) ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}
