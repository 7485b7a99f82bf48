// A public monitor's last days as uptime bars (docs/dashboard.md#status-page): one bar per UTC day, decided from
// what the database keeps of it (runs, missed openings, timeouts). Pure: the counts are read by the caller.

export const DAY_MS = 86_400_000;

/** How many days a status page shows, today included. */
export const UPTIME_DAYS = 90;

/** `ok`: runs, none failed; `failed`: a failed run, a silent failure, a missed run or a timeout; `none`: neither. */
export type DayState = 'ok' | 'failed' | 'none';

export interface DayBar {
  /** The day's start, UTC midnight, in epoch ms. */
  start: number;
  state: DayState;
  /** What the bar stands for, in words: its tooltip and its text for screen readers. */
  text: string;
}

/** What was counted of one monitor on one day. */
export interface DayCounts {
  runs: number;
  failed: number;
  missed: number;
  timedOut: number;
}

const NO_COUNTS: DayCounts = { runs: 0, failed: 0, missed: 0, timedOut: 0 };

/** The days a page shows at `now`: from the start of the first (UTC midnight) to now. */
export function uptimeRange(now: number): { from: number; to: number; dayMs: number } {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  return { from: today - (UPTIME_DAYS - 1) * DAY_MS, to: now + 1, dayMs: DAY_MS };
}

/** A monitor's bars, oldest first, from its counts by day index (0: the range's first day). */
export function dayBars(from: number, createdAt: number, counts: ReadonlyMap<number, DayCounts>): DayBar[] {
  return Array.from({ length: UPTIME_DAYS }, (_, day) => {
    const start = from + day * DAY_MS;
    const date = dayName(start);
    if (start + DAY_MS <= createdAt) return { start, state: 'none', text: `${date}: no data (before the monitor)` };
    const counted = counts.get(day) ?? NO_COUNTS;
    const state: DayState =
      counted.failed + counted.missed + counted.timedOut > 0 ? 'failed' : counted.runs > 0 ? 'ok' : 'none';
    return { start, state, text: `${date}: ${dayText(counted)}` };
  });
}

function dayText(c: DayCounts): string {
  if (c.runs === 0 && c.missed === 0) return 'no runs recorded';
  const parts: string[] = [];
  if (c.runs > 0)
    parts.push(
      c.failed === 0 ? `${plural(c.runs, 'run')}, no failure` : `${c.failed} of ${plural(c.runs, 'run')} failed`,
    );
  if (c.timedOut > 0) parts.push(`${c.timedOut} timed out`);
  if (c.missed > 0) parts.push(`${plural(c.missed, 'missed run')}`);
  return parts.join(', ');
}

/** The share of days with runs that had no failure, as "99.4%"; null when no day had runs or problems. */
export function uptimeShare(bars: readonly DayBar[]): string | null {
  const ok = bars.filter((b) => b.state === 'ok').length;
  const failed = bars.filter((b) => b.state === 'failed').length;
  if (ok + failed === 0) return null;
  const share = Math.floor((ok / (ok + failed)) * 1000) / 10;
  return `${share}%`;
}

/** "27 Mar 2027". */
export function dayName(start: number): string {
  const date = new Date(start);
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
