import Joi from 'joi';
import type { ObjectSchema } from 'joi';
import type { Request, ResponseToolkit, Server } from '@hapi/hapi';
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
 * NUL in it is the NUL guard's 400.
 */
export function pathParams<K extends string>(...names: K[]): ObjectSchema<Record<K, string>> {
  return Joi.object(Object.fromEntries(names.map((name) => [name, Joi.string().required()])));
}

/**
 * PostgreSQL cannot store NUL (U+0000) in text, and an id or name holding one is never meant: such a
 * request is refused with a 400 before it reaches a route. Ping bodies are exempt (their message and log
 * keep NUL as U+FFFD, see domain/ping-body.ts), which also keeps the check off the hot path.
 */
export function registerNulGuard(server: Server): void {
  server.ext('onPreHandler', (request, h) => {
    if (holdsNul(request.params))
      throw apiError(400, 'invalid_request', 'The URL must not contain NUL characters (%00).');
    if (!request.path.startsWith('/api/v1/ping/') && holdsNul(request.payload)) {
      throw apiError(400, 'invalid_request', 'Text in the request body must not contain NUL characters (\\u0000).');
    }
    if (holdsNul(request.query))
      throw apiError(400, 'invalid_request', 'The query string must not contain NUL characters (%00).');
    return h.continue;
  });
}

function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return false;
  return Object.entries(value).some(([key, item]) => key.includes('\u0000') || holdsNul(item));
}
