import got, { HTTPError, RequestError } from 'got';
import type { Got } from 'got';
import type { ErrorBody } from './types.js';
import { PingmonError } from './errors.js';

export interface HttpOptions {
  /** The server, with or without /api/v1: `http://127.0.0.1:8080`. */
  baseUrl: string;
  headers: Record<string, string>;
  /** Methods safe to send again; pings are, thanks to their runId. */
  retryMethods: Array<'GET' | 'POST' | 'PATCH' | 'DELETE'>;
  /** Total time that retries may take, waits included. */
  retryBudgetMs: number;
  /** Time one attempt may take. */
  attemptTimeoutMs: number;
}

export type Http = <T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown) => Promise<T>;

export function apiBase(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  return /\/api\/v1$/.test(trimmed) ? trimmed : `${trimmed}/api/v1`;
}

/**
 * One configured HTTP client (got). Network errors, 429 and 5xx are retried with backoff, honouring
 * Retry-After, until the budget is spent; other answers are final.
 */
export function createHttp(options: HttpOptions): Http {
  const base = apiBase(options.baseUrl);
  const client: Got = got.extend({
    prefixUrl: base,
    headers: { 'user-agent': 'pingmon-sdk', ...options.headers },
    responseType: 'json',
    timeout: { request: options.attemptTimeoutMs },
  });
  return async <T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> => {
    const started = Date.now();
    const url = `${base}/${path}`;
    try {
      const response = await client(path, {
        method,
        json: body,
        retry: {
          limit: 100,
          methods: options.retryMethods,
          statusCodes: [408, 429, 500, 502, 503, 504],
          maxRetryAfter: options.retryBudgetMs,
          // Another attempt only if it can finish, timeout included, within the budget.
          calculateDelay: ({ computedValue }) =>
            computedValue > 0 && Date.now() - started + computedValue + options.attemptTimeoutMs <= options.retryBudgetMs ? computedValue : 0,
        },
      });
      return response.body as T;
    } catch (err) {
      throw toPingmonError(err, method, url);
    }
  };
}

/** Builds the error from scratch: got's own error holds the request headers, and so the key or token. */
function toPingmonError(err: unknown, method: string, url: string): PingmonError {
  if (err instanceof HTTPError) {
    const body = err.response.body as Partial<ErrorBody> | undefined;
    const status = err.response.statusCode;
    const retryAfter = Number(err.response.headers['retry-after']) || body?.retryAfter;
    const message = typeof body?.message === 'string' ? body.message : `HTTP ${status} from ${method} ${url}`;
    return new PingmonError({ status, code: body?.code ?? `http_${status}`, message, retryAfter, method, url });
  }
  const code = (err as RequestError).code;
  const timedOut = err instanceof RequestError && err.name === 'TimeoutError';
  const reason = err instanceof Error ? err.message : String(err);
  return new PingmonError({
    status: 0,
    code: timedOut ? 'timeout' : 'network_error',
    message: timedOut ? `pingmon server did not answer ${method} ${url} in time` : `cannot reach the pingmon server at ${url}: ${reason}`,
    method,
    url,
    cause: Object.assign(new Error(reason), { code }),
  });
}
