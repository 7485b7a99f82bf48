import { createHash } from 'node:crypto';
import { LOG_SNIPPET_CHARS } from '@pingmon/sdk/wire';
import { logTail } from './log-tail.js';

const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*';
const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*';

// In order: a later pattern must not see what an earlier one rewrote (a UUID's digits, a date's numbers).
const VARIABLE_PARTS: Array<[RegExp, string]> = [
  [/\x1b\[[0-9;?]*[A-Za-z]/g, ''],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2}\b)?)?/g, '<time>'],
  [new RegExp(`\\b(?:${DAY},? +)?(?:${MONTH} +\\d{1,2}|\\d{1,2} +${MONTH})\\b(?:,? +\\d{4})?`, 'g'), '<date>'],
  [new RegExp(`\\b${DAY}\\b`, 'g'), '<day>'],
  [/\b\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?\b/g, '<clock>'],
  // Temp files' and directories' names are chosen per run (mktemp, tempfile, a pid); keep the directory.
  [/(\/(?:var\/)?tmp\/)[^\s/:'"`)\]]+/g, '$1<tmp>'],
  [/\b\d{1,3}(?:\.\d{1,3}){3}\b/g, '<ip>'],
  [/(?<![\w:])(?=[0-9a-f:]*\d)[0-9a-f]{0,4}(?::[0-9a-f]{0,4}){2,7}(?![\w:])/gi, '<ip>'],
  [/\b(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h|d))+\b/g, '<duration>'],
  [/\b0x[0-9a-f]+\b/gi, '<hex>'],
  [/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{6,}\b/gi, '<hex>'],
  [/\d+(?:\.\d+)?/g, '<n>'],
  [/[ \t]+/g, ' '],
];

/** `text` with the parts that vary from one run of the same failure to the next (times, ids, numbers) made constant. */
export function normalise(text: string): string {
  let result = text;
  for (const [pattern, replacement] of VARIABLE_PARTS) result = result.replace(pattern, replacement);
  return result
    .split('\n')
    .map((line) => line.trim())
    .join('\n');
}

/**
 * A failed run's fingerprint: its error message and its log's end, normalised, hashed (16 hex characters). The same
 * failure at another time, pid or temp file gives the same one.
 */
export function fingerprint(errorMessage: string | null, log: string | null): string {
  // The end is cut after normalising, so that a line's varying length never moves where it starts.
  const end = log ? logTail(normalise(logTail(log, 4 * LOG_SNIPPET_CHARS)), LOG_SNIPPET_CHARS) : '';
  const text = `${normalise(errorMessage ?? '')}\n\0\n${end}`;
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}
