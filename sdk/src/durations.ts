// Durations as people write them ("90s", "10m", "2h", "1d", "1h30m") and as pingmon prints them: one
// reading for the CLI's flags, the server's messages and the dashboard.

const UNITS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3_600, d: 86_400 };

/**
 * Seconds from "90", "90s", "10m", "2h", "1d" or a sum such as "1h30m"; undefined when the text is none of
 * these (the caller says what is expected).
 */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim().toLowerCase();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  if (!/^(\d+[smhd])+$/.test(trimmed)) return undefined;
  let seconds = 0;
  for (const [, amount, unit] of trimmed.matchAll(/(\d+)([smhd])/g)) seconds += Number(amount) * UNITS[unit!]!;
  return seconds;
}

/**
 * "2h", "1h30m", "45s", "1d2h": the largest units first, none of them zero. Under half a second, which would
 * round to no unit at all, it is seconds to the millisecond: "0.4s", "0.001s" (a measured time, never "0s").
 */
export function formatDuration(seconds: number): string {
  if (seconds <= 0) return '0s';
  let left = Math.round(seconds);
  if (left === 0) return `${Math.max(1, Math.round(seconds * 1000)) / 1000}s`;
  let text = '';
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3_600],
    ['m', 60],
    ['s', 1],
  ] as const) {
    const amount = Math.floor(left / size);
    if (amount > 0) text += `${amount}${unit}`;
    left -= amount * size;
  }
  return text;
}
