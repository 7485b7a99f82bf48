import { ACCESS_ERROR_CODES } from './vocabulary.js';

/** Every failure of the client library: an HTTP error answer, or no answer at all (status 0). */
export class PingmonError extends Error {
  override readonly name = 'PingmonError';
  /** HTTP status, or 0 when the server could not be reached or did not answer in time. */
  readonly status: number;
  /** The server's machine code (e.g. `rate_limited`), or `network_error` / `timeout` / `redirect` of our own. */
  readonly code: string;
  /** Seconds the server asked to wait (429). */
  readonly retryAfter: number | undefined;
  readonly method: string;
  /** The request's URL, without any `user:password@`. */
  readonly url: string;

  constructor(fields: {
    status: number;
    code: string;
    message: string;
    retryAfter?: number;
    method: string;
    url: string;
    cause?: Error;
  }) {
    // A base URL may carry a password (http://user:pass@host): it must never reach a log line.
    super(withoutUserinfo(fields.message), fields.cause ? { cause: fields.cause } : undefined);
    this.status = fields.status;
    this.code = fields.code;
    this.retryAfter = fields.retryAfter;
    this.method = fields.method;
    this.url = withoutUserinfo(fields.url);
  }
}

/**
 * `text` with the `user:password@` of every URL in it removed (up to the last `@` before the host, as URL parsers
 * do).
 */
export function withoutUserinfo(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/?#\s]*@/gi, '$1');
}

/**
 * Whether the server refused a call for the caller's role or API key (403 `forbidden_role`, `key_scope`,
 * `key_monitors`, docs/api.md#roles): the error's message says what the role or key allows and what would do
 * (another role, asked of an owner or admin; a key of another scope). Signing in again does not help.
 */
export function isAccessRefusal(err: unknown): err is PingmonError {
  return err instanceof PingmonError && err.status === 403 && ACCESS_ERROR_CODES.has(err.code);
}
