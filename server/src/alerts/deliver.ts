import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import type { AttemptResult } from '../domain/delivery.js';
import { nonPublicAddressIn } from '../domain/addresses.js';
import { maskUrl } from '../domain/channels.js';
import { parseRetryAfter } from '../domain/delivery.js';
import type { OutgoingRequest } from './channels/kind.js';
import { NotPublicAddressError, publicOnlyDispatcher } from './public-only.js';

/** Thrown when `stop` aborted the attempt: its outcome is unknown and it is not recorded. */
export class AttemptAbortedError extends Error {}

/** How much of a refusal's body is kept with the attempt, to say why. */
const EXCERPT_CHARS = 200;

export interface SendOptions {
  timeoutMs: number;
  stop?: AbortSignal;
  /** Only public addresses (PINGMON_CHANNELS_PUBLIC_ONLY): checked on the URL, and on what its host resolves to. */
  publicOnly: boolean;
}

/**
 * One HTTP request, no redirects followed, at most `timeoutMs` for the whole exchange. Never throws
 * for what the receiver or the network did: that is the result. Throws AttemptAbortedError when `stop` fires.
 */
export async function send(request: OutgoingRequest, options: SendOptions): Promise<AttemptResult> {
  const { url } = request;
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  // An address in the URL itself is never looked up, so the checked lookup alone would let it through; a name
  // (localhost too) is left to that lookup.
  const nonPublic = options.publicOnly ? nonPublicAddressIn(url) : undefined;
  if (nonPublic !== undefined) return refused(new NotPublicAddressError(nonPublic, nonPublic), took());
  const dispatcher = options.publicOnly ? publicOnlyDispatcher() : undefined;
  try {
    return await post(request, options, dispatcher, took);
  } finally {
    await dispatcher?.destroy();
  }
}

/** A refusal no retry can change: the address is not one this server sends to. */
function refused(err: NotPublicAddressError, durationMs: number): AttemptResult {
  return { statusCode: null, error: err.message, durationMs, retryAfterMs: null, permanent: true };
}

async function post(
  request: OutgoingRequest,
  options: SendOptions,
  dispatcher: Dispatcher | undefined,
  took: () => number,
): Promise<AttemptResult> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.stop ? AbortSignal.any([timeout, options.stop]) : timeout;
  try {
    const { method, url, headers, body } = request;
    const response = await fetch(url, { method, headers, body, redirect: 'manual', signal, dispatcher });
    const ok = response.status >= 200 && response.status < 300;
    const excerpt = ok ? await discard(response) : await readExcerpt(response, url).catch(() => null);
    // Retry-After comes with 429 (rate limited) and 503 (down for a while): both are honoured; Telegram and Discord
    // give the wait in the body instead (or as well).
    const retryAfterMs =
      response.status === 429 || response.status === 503
        ? (parseRetryAfter(response.headers.get('retry-after'), Date.now()) ?? retryAfterInBody(excerpt))
        : null;
    return {
      statusCode: response.status,
      error: ok ? null : describeRefusal(response.status, excerpt),
      durationMs: took(),
      retryAfterMs,
    };
  } catch (err) {
    if (options.stop?.aborted) throw new AttemptAbortedError('the server is stopping', { cause: err });
    const cause = (err as { cause?: unknown }).cause;
    if (cause instanceof NotPublicAddressError) return refused(cause, took());
    const error = timeout.aborted
      ? `no answer within ${options.timeoutMs} ms`
      : withoutUrl(describeNetworkError(err), request.url);
    return { statusCode: null, error, durationMs: took(), retryAfterMs: null };
  }
}

/** `{"retry_after": 35}` (Discord) or `{"parameters": {"retry_after": 35}}` (Telegram): seconds, as ms. */
function retryAfterInBody(excerpt: string | null): number | null {
  try {
    const body = JSON.parse(excerpt ?? '') as { retry_after?: unknown; parameters?: { retry_after?: unknown } };
    const seconds = body.retry_after ?? body.parameters?.retry_after;
    return typeof seconds === 'number' && seconds >= 0 && seconds < 86_400 ? Math.ceil(seconds * 1000) : null;
  } catch {
    return null;
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

/**
 * The URL is a credential (a bot token in its path, a webhook's key): shown as its origin only, wherever an error
 * quotes it. A refusal may quote its path alone (a framework's 404 page: "Cannot POST /bot<token>/sendMessage").
 */
function withoutUrl(text: string, url: string): string {
  let shown = text.replaceAll(url, maskUrl(url));
  if (!URL.canParse(url)) return shown;
  const { pathname, search } = new URL(url);
  for (const part of [pathname + search, pathname]) if (part.length > 1) shown = shown.replaceAll(part, '/…');
  return shown;
}

/** The start of a refusal's body, without the URL it was sent to; the rest is never read. */
async function readExcerpt(response: Response, url: string): Promise<string | null> {
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
  const read = Buffer.concat(chunks).toString('utf8').replace(/\s+/g, ' ').trim();
  const text = withoutUrl(read, url).slice(0, EXCERPT_CHARS);
  return text === '' ? null : text;
}
