import type { Request, ResponseToolkit } from '@hapi/hapi';
import { apiError } from '../errors.js';

/** joi failures become 400 invalid_request with joi's own message, which names the field. */
export function invalidRequest(_request: Request, _h: ResponseToolkit, err?: Error): never {
  throw apiError(400, 'invalid_request', `${err?.message ?? 'Invalid request'}.`);
}
