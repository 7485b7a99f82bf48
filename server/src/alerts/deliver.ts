import { performance } from 'node:perf_hooks';
import type { AttemptResult } from '../domain/delivery.js';
import { maskUrl } from '../domain/channels.js';
import { parseRetryAfter } from '../domain/delivery.js';
import type { OutgoingRequest } from './payloads.js';

/** Thrown when `stop` aborted the attempt: its outcome is unknown and it is not recorded. */
export class AttemptAbortedError extends Error {}

/** How much of a refusal's body is kept with the attempt, to say why. */
const EXCERPT_CHARS = 200;

/**
 * One HTTP attempt: POST, no redirects followed, at most `timeoutMs` for the whole exchange. Never throws
 * for what the receiver or the network did: that is the result. Throws AttemptAbortedError when `stop` fires.
 */
export async function send(
  url: string,
  request: OutgoingRequest,
  options: { timeoutMs: number; stop?: AbortSignal },
): Promise<AttemptResult> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.stop ? AbortSignal.any([timeout, options.stop]) : timeout;
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal,
    });
    const ok = response.status >= 200 && response.status < 300;
    const excerpt = ok ? await discard(response) : await readExcerpt(response).catch(() => null);
    // Retry-After comes with 429 (rate limited) and 503 (down for a while): both are honoured.
    const retryAfterMs =
      response.status === 429 || response.status === 503
        ? parseRetryAfter(response.headers.get('retry-after'), Date.now())
        : null;
    return {
      statusCode: response.status,
      error: ok ? null : describeRefusal(response.status, excerpt),
      durationMs: took(),
      retryAfterMs,
    };
  } catch (err) {
    if (options.stop?.aborted) throw new AttemptAbortedError('the server is stopping', { cause: err });
    // The URL is a credential: an error that quotes it (a parse failure, say) shows its origin only.
    const error = timeout.aborted
      ? `no answer within ${options.timeoutMs} ms`
      : describeNetworkError(err).replaceAll(url, maskUrl(url));
    return { statusCode: null, error, durationMs: took(), retryAfterMs: null };
  }
}

function describeRefusal(status: number, excerpt: string | null): string {
  if (status >= 300 && status < 400)
    return `HTTP ${status}: redirects are not followed; give the channel its final URL`;
  return excerpt ? `HTTP ${status}: ${excerpt}` : `HTTP ${status}`;
}

/** "connect ECONNREFUSED 127.0.0.1:9" rather than fetch's "fetch failed". */
function describeNetworkError(err: unknown): string {
  const cause = (err as { cause?: { message?: string; code?: string } }).cause;
  if (cause?.message) return cause.message;
  return err instanceof Error ? err.message : String(err);
}

async function discard(response: Response): Promise<null> {
  await response.body?.cancel().catch(() => undefined);
  return null;
}

/** The start of a refusal's body; the rest is never read. */
async function readExcerpt(response: Response): Promise<string | null> {
  if (!response.body) return null;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  try {
    while (bytes < EXCERPT_CHARS * 4) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      bytes += value.length;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const text = Buffer.concat(chunks).toString('utf8').replace(/\s+/g, ' ').trim().slice(0, EXCERPT_CHARS);
  return text === '' ? null : text;
}
