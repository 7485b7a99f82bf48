import { formatDuration } from '@pingmon/sdk/wire';

/**
 * The least top of a duration scale. For a scheduled job, differences under a second are noise (starting a process,
 * the pings' round trips): 6ms against 17ms drawn against the longest run looks like a job three times slower.
 * Scaled to at least a second, both are the stubs they are; 200ms against 900ms still shows.
 */
export const DURATION_FLOOR_MS = 1_000;

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Round steps of a duration axis, smallest first. */
const DURATION_STEPS = [
  ...[100, 200, 500],
  ...[1, 2, 5, 10, 15, 20, 30].map((s) => s * SECOND),
  ...[1, 2, 5, 10, 15, 20, 30].map((m) => m * MINUTE),
  ...[1, 2, 3, 6, 12].map((h) => h * HOUR),
  ...[1, 2, 7].map((d) => d * DAY),
];

/** Round steps of a time axis, smallest first. */
const TIME_STEPS = [
  ...[1, 5, 10, 15, 30].map((s) => s * SECOND),
  ...[1, 2, 5, 10, 15, 30].map((m) => m * MINUTE),
  ...[1, 2, 3, 6, 12].map((h) => h * HOUR),
  ...[1, 2, 7, 14, 28].map((d) => d * DAY),
];

export interface DurationAxis {
  /** The top of the scale (ms): the bottom is always zero. */
  top: number;
  /** 0, step, 2·step … top */
  ticks: number[];
}

/** A scale from zero to a round duration at or above `longest` (and DURATION_FLOOR_MS), with at most `most` steps. */
export function durationAxis(longest: number, most = 4): DurationAxis {
  const wanted = Math.max(longest, DURATION_FLOOR_MS);
  const step = DURATION_STEPS.find((s) => s * most >= wanted) ?? Math.ceil(wanted / most / DAY) * DAY;
  const top = Math.ceil(wanted / step) * step;
  const ticks: number[] = [];
  for (let at = 0; at <= top; at += step) ticks.push(at);
  return { top, ticks };
}

/** "0", "500ms", "2s", "1m30s", "2h": an axis label. */
export function durationLabel(ms: number): string {
  if (ms === 0) return '0';
  return ms < SECOND ? `${ms}ms` : formatDuration(ms / SECOND);
}

/** "850ms", "1.5s", "2s", "1m30s": a measured duration, to a tenth of a second under ten seconds. */
export function readable(ms: number): string {
  if (ms < SECOND) return `${Math.round(ms)}ms`;
  if (ms < 10 * SECOND) return `${Number((ms / SECOND).toFixed(1))}s`;
  return formatDuration(ms / SECOND);
}

/** A linear scale of plain numbers (meta values): round steps of 1, 2 or 5 × 10ⁿ, from zero or below. */
export interface NumberAxis {
  bottom: number;
  top: number;
  ticks: number[];
}

/** A scale over `low`…`high` that includes zero, with at most `most` round steps. */
export function numberAxis(low: number, high: number, most = 4): NumberAxis {
  const [from, to] = [Math.min(0, low), Math.max(0, high)];
  const span = to - from || Math.abs(to) || 1;
  const power = 10 ** Math.floor(Math.log10(span / most));
  const step = [1, 2, 5, 10].map((k) => k * power).find((s) => span / s <= most) ?? 10 * power;
  const bottom = Math.floor(from / step) * step;
  const top = Math.max(Math.ceil(to / step) * step, bottom + step);
  const ticks: number[] = [];
  // Counted in steps, not added up: 0.1 + 0.2 would label a tick 0.30000000000000004.
  for (let i = 0; bottom + i * step <= top; i++) ticks.push(Number((bottom + i * step).toPrecision(12)));
  return { bottom, top, ticks };
}

/** Round times between `from` and `to` (epoch ms, in the browser's timezone), at most about `most` of them. */
export function timeTicks(from: number, to: number, most: number): { ticks: number[]; step: number } {
  const span = Math.max(to - from, 1);
  const step = TIME_STEPS.find((s) => span / s <= most) ?? Math.ceil(span / most / DAY) * DAY;
  const ticks: number[] = [];
  if (step < DAY) {
    // Whole minutes and hours of the local clock: the offset of the first day is enough (a DST change moves one).
    const offset = new Date(from).getTimezoneOffset() * MINUTE;
    for (let at = Math.ceil((from - offset) / step) * step + offset; at <= to; at += step) ticks.push(at);
  } else {
    const day = new Date(from);
    day.setHours(0, 0, 0, 0);
    if (day.getTime() < from) day.setDate(day.getDate() + 1);
    for (; day.getTime() <= to; day.setDate(day.getDate() + step / DAY)) ticks.push(day.getTime());
  }
  return { ticks, step };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** "03:00" or "03:00:15" for a tick; "11-27" for a day. */
export function timeLabel(at: number, step: number): string {
  const d = new Date(at);
  if (step >= DAY) return dayLabel(at);
  const hm = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return step < MINUTE ? `${hm}:${pad(d.getSeconds())}` : hm;
}

/** "11-27": the month and day of a time, in the browser's timezone. */
export function dayLabel(at: number): string {
  const d = new Date(at);
  return `${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The middle value (the mean of the two middle ones for an even count), or undefined for none. */
export function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
}
