// Limits shared by the server and the client library (SPEC §8, DESIGN §5).

export const LOG_MAX_CHARS = 10_000;
export const ERROR_MESSAGE_MAX_CHARS = 500;
export const LOG_SNIPPET_CHARS = 500;
/** SPEC §6: in the run detail (the dashboard's and the TUI's), a log longer than this starts collapsed. */
export const LOG_COLLAPSE_OVER = 400;
export const META_MAX_KEYS = 50;
export const META_KEY_MAX_CHARS = 64;
/** How many of a monitor's most recently started runs its `recentRuns` counts. */
export const RECENT_RUNS = 20;
export const RUN_ID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;
/** A ping's `host`: what a host name may be (RFC 1035 allows 253), with room to spare. */
export const HOST_MAX_CHARS = 255;

/** Keeps the first `max` UTF-16 units of `text`, never splitting a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  const splitsPair = last >= 0xd800 && last <= 0xdbff;
  return text.slice(0, splitsPair ? max - 1 : max);
}

/**
 * What text cannot be stored as it was sent: NUL (U+0000), which PostgreSQL refuses in text, and half of a
 * surrogate pair without its other half, which has no UTF-8 form (a driver would quietly store U+FFFD, so
 * what is read back would differ from what was written, and from what a rule or a lookup compares it with).
 * The one rule for every string the server keeps: a job's own free text (its error message and log) has
 * each such unit replaced by U+FFFD (`storableText`), anything else holding one is refused (`isStorable`).
 */

const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** What messages say `isStorable` refuses. */
export const UNSTORABLE_TEXT = 'NUL (\\u0000) or half of a surrogate pair without its other half';

/** Whether `text` can be stored as it is (see UNSTORABLE). */
export function isStorable(text: string): boolean {
  // search(), not test(): it ignores the global flag's lastIndex.
  return text.search(UNSTORABLE) === -1;
}

/**
 * A log or error message as the server stores it: cut by `truncate`, with every NUL and lone surrogate
 * replaced by U+FFFD (a failure report is never refused for what it holds). The client cuts and replaces the
 * same way, so that what it sends is what gets stored.
 */
export function storableText(text: string, max: number): string {
  return truncate(text, max).replace(UNSTORABLE, '\uFFFD');
}
