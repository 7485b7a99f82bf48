// Durations as people write them ("90s", "10m", "1h30m", "2d") and as pingmon prints them: the one grammar of
// every CLI flag, environment variable and message (docs/cli.md#durations).

/** The units, largest first: a sum must name them in this order, each once ("1h30m", not "30m1h"). */
const UNITS: ReadonlyArray<readonly [string, number]> = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1_000],
  ['ms', 1],
];

/** The longest delay a Node timer keeps is 2^31 − 1 ms (24.8 days): a longer one fires at once. 24d, to say it. */
export const LONGEST_TIMER_MS = 24 * 86_400_000;

const PART = /(\d+(?:\.\d+)?)(ms|d|h|m|s)/gy;

const EXAMPLES = 'such as 90s, 10m, 1h30m or 2d';

/** How an error message names the accepted forms. */
export const DURATION_FORMS = `a duration ${EXAMPLES}`;

/** `--timeout must be a duration such as 90s, 10m, 1h30m or 2d (got "5x")`; `what` narrows it: "longer than 0". */
export function notADuration(name: string, got: string, what = ''): string {
  return `${name} must be a duration ${what ? `${what} ` : ''}${EXAMPLES} (got "${got}")`;
}

/**
 * Milliseconds from "90s", "10m", "1h30m", "2d", "500ms", "1.5h", or a bare number of seconds ("90", "0.5");
 * undefined when the text is none of these (the caller says what is expected). Rounded to the millisecond.
 */
export function parseDurationMs(text: string): number | undefined {
  const trimmed = text.trim().toLowerCase();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1_000);
  let ms = 0;
  let next = 0;
  PART.lastIndex = 0;
  for (let match = PART.exec(trimmed); match; match = PART.exec(trimmed)) {
    const unit = match[2];
    const at = UNITS.findIndex(([name]) => name === unit);
    if (at < next) return undefined;
    next = at + 1;
    ms += Number(match[1]) * UNITS[at]![1];
    if (PART.lastIndex === trimmed.length) return Math.round(ms);
  }
  return undefined;
}

/** Seconds (a fraction under the millisecond is rounded away), as the API's durations are counted. */
export function parseDuration(text: string): number | undefined {
  const ms = parseDurationMs(text);
  return ms === undefined ? undefined : ms / 1_000;
}

/**
 * "2h", "1h30m", "45s", "1d2h": the largest units first, none of them zero, to the second. Under half a second,
 * which would round to no unit at all, it is seconds to the millisecond: "0.4s", "0.001s" (a measured time, never
 * "0s"). `parseDuration` reads back what this writes.
 */
export function formatDuration(seconds: number): string {
  if (seconds <= 0) return '0s';
  let left = Math.round(seconds) * 1_000;
  if (left === 0) return `${Math.max(1, Math.round(seconds * 1_000)) / 1_000}s`;
  let text = '';
  for (const [unit, size] of UNITS.slice(0, 4)) {
    const amount = Math.floor(left / size);
    if (amount > 0) text += `${amount}${unit}`;
    left -= amount * size;
  }
  return text;
}
