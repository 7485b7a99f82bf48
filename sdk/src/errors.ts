/** Every failure of the client library: an HTTP error answer, or no answer at all (status 0). */
export class PingmonError extends Error {
  override readonly name = 'PingmonError';
  /** HTTP status, or 0 when the server could not be reached or did not answer in time. */
  readonly status: number;
  /** The server's machine code (e.g. `rate_limited`), or `network_error` / `timeout` for status 0. */
  readonly code: string;
  /** Seconds the server asked to wait (429). */
  readonly retryAfter: number | undefined;
  readonly method: string;
  readonly url: string;

  constructor(fields: { status: number; code: string; message: string; retryAfter?: number; method: string; url: string; cause?: Error }) {
    super(fields.message, fields.cause ? { cause: fields.cause } : undefined);
    this.status = fields.status;
    this.code = fields.code;
    this.retryAfter = fields.retryAfter;
    this.method = fields.method;
    this.url = fields.url;
  }
}
