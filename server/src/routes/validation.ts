import Joi from 'joi';
import type { ObjectSchema } from 'joi';
import type { Request, ResponseToolkit } from '@hapi/hapi';
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

/** How deep objects and arrays may nest in a request body; no endpoint takes more than two levels. */
export const BODY_MAX_DEPTH = 32;

/**
 * Refuses a parsed body nested deeper than BODY_MAX_DEPTH before joi, the text guard or a handler walks it: their
 * walks recurse, and a body of a few thousand "[" overflowed the stack (a 500). Ping bodies arrive unparsed
 * (a Buffer), and domain/ping-body.ts reads only their known fields, each of one type.
 */
export function depthGuard(request: Request): void {
  if (!nestedDeeperThan(request.payload, BODY_MAX_DEPTH)) return;
  throw apiError(
    400,
    'invalid_request',
    `The body nests objects and arrays more than ${BODY_MAX_DEPTH} levels deep. ` +
      'Send only the fields this endpoint takes (docs/api.md).',
  );
}

/** Whether objects and arrays in `value` nest more than `max` levels deep, walked with a stack (no recursion). */
function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<{ item: object; depth: number }> = isContainer(value) ? [{ item: value, depth: 1 }] : [];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (next.depth > max) return true;
    for (const child of Object.values(next.item)) {
      if (isContainer(child)) stack.push({ item: child, depth: next.depth + 1 });
    }
  }
  return false;
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Buffer.isBuffer(value);
}

/**
 * Text the server keeps must be storable as sent (`isStorable`: no NUL, no lone surrogate, see the SDK's
 * limits.ts). A name, id, URL or query value holding such a unit is never meant, so the request is refused
 * with a 400 naming where, before it reaches a route. Ping bodies are exempt: a ping's message and log keep
 * such units as U+FFFD and its meta keys are checked by domain/ping-body.ts, which keeps the walk off the hot
 * path.
 */
export function textGuard(request: Request): void {
  if (unstorableIn(request.params) !== undefined) throw apiError(400, 'invalid_request', `The URL ${MUST_NOT}.`);
  const inBody = request.path.startsWith('/api/v1/ping/') ? undefined : unstorableIn(request.payload);
  if (inBody !== undefined) throw apiError(400, 'invalid_request', `Text in the body (${inBody}) ${MUST_NOT}.`);
  const inQuery = unstorableIn(request.query);
  if (inQuery !== undefined) throw apiError(400, 'invalid_request', `The query string (${inQuery}) ${MUST_NOT}.`);
}

const MUST_NOT = `must not contain ${UNSTORABLE_TEXT}`;

/**
 * Where the first unstorable text in `value` is ('"name"', '"monitorIds[2]"', 'a field name'), if anywhere. Its
 * recursion is bounded: a body reaches it through the depth guard.
 */
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
