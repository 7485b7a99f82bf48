// Limits shared by the server and the client library (SPEC §8, DESIGN §5).

export const LOG_MAX_CHARS = 10_000;
export const ERROR_MESSAGE_MAX_CHARS = 500;
export const LOG_SNIPPET_CHARS = 500;
export const META_MAX_KEYS = 50;
export const META_KEY_MAX_CHARS = 64;
/** How many of a monitor's most recently started runs its `recentRuns` counts. */
export const RECENT_RUNS = 20;
export const RUN_ID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

/** Keeps the first `max` UTF-16 units of `text`, never splitting a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  const splitsPair = last >= 0xd800 && last <= 0xdbff;
  return text.slice(0, splitsPair ? max - 1 : max);
}

/**
 * A log or error message as the server stores it: cut by `truncate`, with every NUL replaced by U+FFFD,
 * since PostgreSQL refuses NUL in text (the whole ping would fail). The client cuts the same way, so that
 * what it sends is what gets stored.
 */
export function storableText(text: string, max: number): string {
  return truncate(text, max).replaceAll('\u0000', '\uFFFD');
}
