import { setTimeout as sleep } from 'node:timers/promises';
import got, { RequestError } from 'got';
import type { Got, Response } from 'got';
import type { ErrorBody } from './types.js';
import { PingmonError, withoutUserinfo } from './errors.js';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface HttpOptions {
  /** The server, with or without /api/v1: `http://127.0.0.1:8080`. */
  baseUrl: string;
  headers: Record<string, string>;
  /** Methods safe to send again; pings are, thanks to their runId. */
  retryMethods: Method[];
  /** Total time one call may take, every attempt and wait included. */
  retryBudgetMs: number;
  /** Time one attempt may take, cut to what is left of the budget. */
  attemptTimeoutMs: number;
}

export interface CallOptions {
  /** When the call must be over (epoch ms); by default retryBudgetMs from now. */
  deadline?: number;
  /** Abandons the call: it stops at once, with a timeout error or the last error it had. */
  signal?: AbortSignal;
}

export type Http = <T>(method: Method, path: string, body?: unknown, call?: CallOptions) => Promise<T>;

const RETRIED_STATUSES = new Set([408, 429, 500, 502, 503, 504]);
const RETRIED_CODES = new Set(['ETIMEDOUT', 'ECONNRESET', 'EADDRINUSE', 'ECONNREFUSED', 'EPIPE', 'ENOTFOUND', 'ENETUNREACH', 'EAI_AGAIN']);

/** Attempt outcome: the parsed body, or an error and whether another attempt may help. */
type Attempt = { ok: true; body: unknown } | { ok: false; error: PingmonError; retry: boolean };

export function apiBase(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  return /\/api\/v1$/.test(trimmed) ? trimmed : `${trimmed}/api/v1`;
}

/** Reads a duration option: its default when absent, else a positive finite number of milliseconds. */
export function positiveMs(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive number of milliseconds (got ${String(value)})`);
  }
  return value;
}

/**
 * One configured HTTP client (got). Network errors, timeouts, 408, 429 and 5xx are retried with backoff,
 * honouring Retry-After, while the wait still ends within the budget; each attempt's timeout is cut to
 * what is left of it, so a call never outlives its budget. Other answers are final.
 */
export function createHttp(options: HttpOptions): Http {
  const base = apiBase(options.baseUrl);
  const client: Got = got.extend({
    prefixUrl: base,
    headers: { 'user-agent': 'pingmon-sdk', ...options.headers },
    responseType: 'text',
    throwHttpErrors: false,
    // A redirect would carry the key or token to wherever it points, another origin included.
    followRedirect: false,
    retry: { limit: 0 },
  });
  return async <T>(method: Method, path: string, body?: unknown, call: CallOptions = {}): Promise<T> => {
    const deadline = call.deadline ?? Date.now() + options.retryBudgetMs;
    const url = `${base}/${path}`;
    for (let attempt = 1; ; attempt++) {
      const timeoutMs = Math.min(options.attemptTimeoutMs, deadline - Date.now());
      const outcome = timeoutMs > 0 && !call.signal?.aborted
        ? await send(client, method, path, body, timeoutMs, call.signal, url)
        : { ok: false as const, error: timeoutError(method, url), retry: false };
      if (outcome.ok) return outcome.body as T;
      const delayMs = retryDelayMs(attempt, outcome.error);
      const retry = outcome.retry && options.retryMethods.includes(method) && Date.now() + delayMs < deadline;
      if (!retry) throw outcome.error;
      // Abandoned while waiting: the last error is the one to report.
      await sleep(delayMs, undefined, { signal: call.signal }).catch(() => {
        throw outcome.error;
      });
    }
  };
}

async function send(client: Got, method: Method, path: string, body: unknown, timeoutMs: number, signal: AbortSignal | undefined, url: string): Promise<Attempt> {
  let response: Response<string>;
  try {
    response = await client(path, { method, json: body, timeout: { request: timeoutMs }, signal });
  } catch (err) {
    if (signal?.aborted) return { ok: false, error: timeoutError(method, url), retry: false };
    if (err instanceof RequestError && err.name === 'TimeoutError') return { ok: false, error: timeoutError(method, url), retry: true };
    const code = (err as RequestError).code;
    const reason = withoutUserinfo(err instanceof Error ? err.message : String(err));
    const error = new PingmonError({
      status: 0, code: 'network_error', message: `cannot reach the pingmon server at ${url}: ${reason}`, method, url,
      cause: Object.assign(new Error(reason), { code }),
    });
    return { ok: false, error, retry: RETRIED_CODES.has(code) };
  }
  return answer(response, method, url);
}

function answer(response: Response<string>, method: Method, url: string): Attempt {
  const status = response.statusCode;
  const parsed = parseJson(response.body);
  if (status >= 200 && status < 300) {
    if (parsed.ok) return { ok: true, body: parsed.value };
    const message = `the server at ${url} answered ${method} with something other than JSON: is the base URL that of a pingmon server?`;
    return { ok: false, error: new PingmonError({ status, code: 'invalid_response', message, method, url }), retry: false };
  }
  if (status >= 300 && status < 400) {
    const location = response.headers.location ? ` to ${response.headers.location}` : '';
    const message = `the server at ${url} redirects ${method}${location} (HTTP ${status}); redirects are not followed, as they would carry the credentials along: set the base URL to the server's own address`;
    return { ok: false, error: new PingmonError({ status, code: 'redirect', message, method, url }), retry: false };
  }
  const errorBody = parsed.ok ? (parsed.value as Partial<ErrorBody> | undefined) : undefined;
  const retryAfter = Number(response.headers['retry-after']) || errorBody?.retryAfter;
  const message = typeof errorBody?.message === 'string' ? errorBody.message : `HTTP ${status} from ${method} ${url}`;
  const code = typeof errorBody?.code === 'string' ? errorBody.code : `http_${status}`;
  return { ok: false, error: new PingmonError({ status, code, message, retryAfter, method, url }), retry: RETRIED_STATUSES.has(status) };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** Exactly what Retry-After asks, else 1 s, 2 s, 4 s… plus up to 100 ms of jitter. */
function retryDelayMs(attempt: number, error: PingmonError): number {
  if (error.retryAfter !== undefined && error.retryAfter > 0) return error.retryAfter * 1000;
  return 2 ** (attempt - 1) * 1000 + Math.random() * 100;
}

function timeoutError(method: Method, url: string): PingmonError {
  return new PingmonError({ status: 0, code: 'timeout', message: `pingmon server did not answer ${method} ${url} in time`, method, url });
}
