import got, { HTTPError, RequestError } from 'got';
import type { Got, Response, RetryObject } from 'got';
import type { ErrorBody } from './types.js';
import { PingmonError, withoutUserinfo } from './errors.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

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
  /** At most this many attempts after the first (default: as many as the budget allows). */
  maxRetries?: number;
}

export interface CallOptions {
  /** When the call must be over (epoch ms); by default retryBudgetMs from now. */
  deadline?: number;
  /** Abandons the call: it stops at once, with a timeout error or the last error it had. */
  signal?: AbortSignal;
}

export type Http = <T>(method: Method, path: string, body?: unknown, call?: CallOptions) => Promise<T>;

/**
 * The statuses got retries; network errors are got's default error codes (ECONNREFUSED, ECONNRESET, ETIMEDOUT…).
 * Not got's default statuses: those include 413, which is final, and a CDN's 521, 522 and 524.
 */
const RETRIED_STATUSES = [408, 429, 500, 502, 503, 504];

export function apiBase(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  return /\/api\/v1$/.test(trimmed) ? trimmed : `${trimmed}/api/v1`;
}

/** Refuses a baseUrl without http:// or https:// (`notaurl`, `host:8080`): got would only say "Invalid URL". */
export function checkBaseUrl(baseUrl: string): void {
  if (!/^https?:\/\/[^/]/i.test(baseUrl) || !URL.canParse(baseUrl)) {
    throw new TypeError(`baseUrl must be http(s)://host[:port], e.g. http://127.0.0.1:8080 (got "${baseUrl}")`);
  }
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
 * One configured HTTP client (got), retrying with got's own retry: network errors, timeouts, 408, 429, 500,
 * 502, 503 and 504, after got's backoff or exactly the wait the server asked for, while that wait still ends
 * before the call's deadline. The deadline also cuts the attempt under way, so a call never outlives its budget.
 * Other answers are final.
 */
export function createHttp(options: HttpOptions): Http {
  const base = apiBase(options.baseUrl);
  const client: Got = got.extend({
    prefixUrl: base,
    headers: { 'user-agent': 'pingmon-sdk', ...options.headers },
    responseType: 'text',
    // Error answers are read by answer() once got is done retrying, instead of being thrown.
    throwHttpErrors: false,
    // A redirect would carry the key or token to wherever it points, another origin included.
    followRedirect: false,
    timeout: { request: options.attemptTimeoutMs },
    retry: {
      methods: options.retryMethods,
      statusCodes: RETRIED_STATUSES,
      // The call's deadline ends the retries (retriesUntil), not a count, unless maxRetries sets one; and got's
      // default maxRetryAfter, the attempt timeout, would refuse a Retry-After longer than one attempt that still
      // fits the budget.
      limit: options.maxRetries ?? Number.POSITIVE_INFINITY,
      maxRetryAfter: Number.POSITIVE_INFINITY,
    },
  });
  return async <T>(method: Method, path: string, body?: unknown, call: CallOptions = {}): Promise<T> => {
    const deadline = call.deadline ?? Date.now() + options.retryBudgetMs;
    const url = `${base}/${path}`;
    const leftMs = Math.ceil(deadline - Date.now());
    if (leftMs <= 0 || call.signal?.aborted) throw timeoutError(method, url);
    // got reports an abort whose reason is a TimeoutError as its own TimeoutError, and does not retry it.
    const expiry = AbortSignal.timeout(leftMs);
    const retries = retriesUntil(deadline);
    let response: Response<string>;
    try {
      response = await client(path, {
        method,
        json: body,
        signal: call.signal ? AbortSignal.any([call.signal, expiry]) : expiry,
        retry: retries.retry,
        hooks: retries.hooks,
      });
    } catch (err) {
      // Abandoned while got waited to send it again: the last error is the one to report.
      if (call.signal?.aborted && retries.waitingAfter) throw failure(retries.waitingAfter, method, url);
      if (call.signal?.aborted || expiry.aborted) throw timeoutError(method, url);
      throw failure(err, method, url);
    }
    return answer(response, method, url) as T;
  };
}

/**
 * One call's part of got's retry: another attempt only if the wait before it ends before the deadline.
 * `waitingAfter` is the error got is waiting after, until its next attempt starts.
 */
function retriesUntil(deadline: number) {
  const state: { waitingAfter?: RequestError } = {};
  const calculateDelay = (retry: RetryObject): number => {
    const delayMs = retryDelayMs(retry);
    state.waitingAfter = delayMs > 0 && Date.now() + delayMs < deadline ? retry.error : undefined;
    return state.waitingAfter ? delayMs : 0;
  };
  const nextAttempt = (): void => {
    state.waitingAfter = undefined;
  };
  return {
    retry: { calculateDelay },
    hooks: { beforeRetry: [nextAttempt] },
    get waitingAfter() {
      return state.waitingAfter;
    },
  };
}

/** Node's errors for a request it refuses to send (a header or URL it cannot carry): sending again cannot help. */
const UNSENDABLE = new Set([
  'ERR_INVALID_CHAR',
  'ERR_INVALID_HTTP_TOKEN',
  'ERR_HTTP_INVALID_HEADER_VALUE',
  'ERR_UNESCAPED_CHARACTERS',
  'ERR_INVALID_URL',
]);

/** The error of an attempt that got no answer, or of an error answer got was about to retry. */
function failure(err: unknown, method: Method, url: string): PingmonError {
  if (err instanceof HTTPError) return errorAnswer(err.response, method, url);
  if (err instanceof RequestError && err.name === 'TimeoutError') return timeoutError(method, url);
  // Built from scratch: got's own error holds the request's headers, and so the key or token.
  const code = (err as RequestError).code;
  if (UNSENDABLE.has(code)) {
    // Never names the header's value: it is the key or the token.
    const message =
      `cannot send ${method} ${url}: a setting holds a character HTTP cannot carry (${code}); ` +
      'check the API key, token and URL for stray characters, such as the \\r of a file with Windows line ends';
    return new PingmonError({ status: 0, code: 'unsendable', message, method, url });
  }
  const reason = withoutUserinfo(err instanceof Error ? err.message : String(err));
  return new PingmonError({
    status: 0,
    code: 'network_error',
    message: `cannot reach the pingmon server at ${url}: ${reason}`,
    method,
    url,
    cause: Object.assign(new Error(reason), { code }),
  });
}

/** The body of a 2xx; anything else is thrown as a PingmonError. */
function answer(response: Response<string>, method: Method, url: string): unknown {
  const status = response.statusCode;
  if (status >= 200 && status < 300) {
    const parsed = parseJson(response.body);
    if (parsed.ok) return parsed.value;
    const message =
      `the server at ${url} answered ${method} with something other than JSON: ` +
      'is the base URL that of a pingmon server?';
    throw new PingmonError({ status, code: 'invalid_response', message, method, url });
  }
  if (status >= 300 && status < 400) {
    const location = response.headers.location ? ` to ${response.headers.location}` : '';
    const message =
      `the server at ${url} redirects ${method}${location} (HTTP ${status}); redirects are not ` +
      "followed, as they would carry the credentials along: set the base URL to the server's own address";
    throw new PingmonError({ status, code: 'redirect', message, method, url });
  }
  throw errorAnswer(response, method, url);
}

function errorAnswer(response: Response, method: Method, url: string): PingmonError {
  const status = response.statusCode;
  const errorBody = errorBodyOf(response);
  const message = typeof errorBody?.message === 'string' ? errorBody.message : `HTTP ${status} from ${method} ${url}`;
  const code = typeof errorBody?.code === 'string' ? errorBody.code : `http_${status}`;
  return new PingmonError({ status, code, message, retryAfter: retryAfterOf(response), method, url });
}

function errorBodyOf(response: Response): Partial<ErrorBody> | undefined {
  const parsed = typeof response.body === 'string' ? parseJson(response.body) : { ok: false as const };
  return parsed.ok ? (parsed.value as Partial<ErrorBody> | undefined) : undefined;
}

/** Seconds the server asked to wait: its Retry-After header, else the retryAfter of a pingmon error body. */
function retryAfterOf(response: Response): number | undefined {
  return Number(response.headers['retry-after']) || errorBodyOf(response)?.retryAfter;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * Exactly the wait the server asked for, else got's backoff (1 s, 2 s, 4 s… plus up to 100 ms of noise);
 * 0 when got's rules (method, status, error code) say not to retry.
 */
function retryDelayMs({ error, computedValue }: RetryObject): number {
  if (computedValue === 0) return 0;
  const askedSeconds = error instanceof HTTPError ? retryAfterOf(error.response) : undefined;
  return askedSeconds !== undefined && askedSeconds > 0 ? askedSeconds * 1000 : computedValue;
}

function timeoutError(method: Method, url: string): PingmonError {
  return new PingmonError({
    status: 0,
    code: 'timeout',
    message: `pingmon server did not answer ${method} ${url} in time`,
    method,
    url,
  });
}
