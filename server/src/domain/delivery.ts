import type { DeliveryState } from '@pingmon/sdk/wire';

/** How deliveries are retried (DESIGN §8); configurable so that tests can run in milliseconds. */
export interface RetryPolicy {
  /** Attempts in all, the first one included. */
  maxAttempts: number;
  /** Wait after the first failed attempt; doubled after each further one. */
  baseDelayMs: number;
  /** No wait is longer, Retry-After included. */
  maxDelayMs: number;
}

/** What one attempt came to: an HTTP request, or an e-mail handed to the SMTP server. */
export interface AttemptResult {
  /** null: no HTTP answer (network error, timeout; always for e-mail). */
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** The receiver's Retry-After (of a 429 or 503), in milliseconds from now, when it sent a usable one. */
  retryAfterMs: number | null;
  /** No answer, and none will ever come: the server refused the address itself (PINGMON_CHANNELS_PUBLIC_ONLY). */
  permanent?: boolean;
  /** An e-mail's outcome, decided from the SMTP server's reply by its sender: there is no HTTP status to judge. */
  verdict?: Verdict;
}

export type Verdict = 'delivered' | 'retry' | 'permanent';

/**
 * 2xx is delivered; no answer, 429 and 5xx are worth another try; anything else will not change (a refused
 * address neither).
 */
export function verdictOf(result: AttemptResult): Verdict {
  if (result.verdict !== undefined) return result.verdict;
  const status = result.statusCode;
  if (status === null) return result.permanent ? 'permanent' : 'retry';
  if (status >= 200 && status < 300) return 'delivered';
  if (status === 429 || status >= 500) return 'retry';
  return 'permanent';
}

/**
 * The wait before attempt `attempt + 1`: baseDelayMs · 2^(attempt−1), capped, then spread by ±20% so
 * that deliveries failing together do not retry together. `random` is in [0, 1).
 */
export function backoffMs(attempt: number, policy: RetryPolicy, random: number): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(exponential * (0.8 + 0.4 * random));
}

/** A delivery's state after an attempt, and when the next attempt is due. */
export interface AfterAttempt {
  state: Exclude<DeliveryState, 'skipped'>;
  nextAttemptAt: number;
}

/** The delivery's state after attempt number `attempt`, and when the next attempt is due. */
export function afterAttempt(
  result: AttemptResult,
  attempt: number,
  policy: RetryPolicy,
  now: number,
  random: number,
): AfterAttempt {
  const verdict = verdictOf(result);
  if (verdict === 'delivered') return { state: 'delivered', nextAttemptAt: now };
  if (verdict === 'permanent' || attempt >= policy.maxAttempts) return { state: 'failed', nextAttemptAt: now };
  const wait =
    result.retryAfterMs !== null
      ? Math.min(policy.maxDelayMs, result.retryAfterMs)
      : backoffMs(attempt, policy, random);
  return { state: 'pending', nextAttemptAt: now + wait };
}

// The three forms of HTTP-date (RFC 9110 §5.6.7): IMF-fixdate, RFC 850 and asctime. All are GMT.
const IMF_FIXDATE = String.raw`(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT`;
const RFC_850_DATE =
  String.raw`(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, ` +
  String.raw`\d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT`;
const ASCTIME_DATE = String.raw`(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}`;
const HTTP_DATE = new RegExp(`^(?:${IMF_FIXDATE}|${RFC_850_DATE}|${ASCTIME_DATE})$`);

/**
 * Retry-After as seconds ("120", and "1.5" though the RFC has no fractions) or an HTTP date, in
 * milliseconds from `now`; null when absent or anything else. Not Date.parse alone: it reads "-5" or
 * "1.2.3" as dates in 2001, which would mean "retry at once" and burn every attempt in a second.
 */
export function parseRetryAfter(header: string | null, now: number): number | null {
  if (header === null) return null;
  const text = header.trim();
  if (/^\d+(?:\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  if (!HTTP_DATE.test(text)) return null;
  const at = Date.parse(text.endsWith('GMT') ? text : `${text} GMT`);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
