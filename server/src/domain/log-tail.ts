import { LOG_SNIPPET_CHARS } from '@pingmon/sdk/wire';

/**
 * The end of a log, for an alert: where a job says why it failed, when the snippet (its first 500 characters)
 * shows a banner. Its last lines, trailing blank ones left out, within `max` UTF-16 units: from the start of a
 * line, unless the last line alone is longer; never from the middle of a surrogate pair.
 */
export function logTail(log: string, max: number = LOG_SNIPPET_CHARS): string {
  const text = log.replace(/\s+$/, '');
  if (text.length <= max) return text;
  let start = text.length - max;
  const first = text.charCodeAt(start);
  if (first >= 0xdc00 && first <= 0xdfff) start++;
  if (text[start - 1] !== '\n') {
    const lineStart = text.indexOf('\n', start) + 1;
    if (lineStart > 0) start = lineStart;
  }
  return text.slice(start);
}
