import { formatDuration } from '@pingmon/sdk/wire';
import type { ScheduleHint } from '@pingmon/sdk/wire';
import type { StoredSchedule } from './schedule.js';
import { slotAfter, slotAtOrBefore, utcOffsetMinutes } from './schedule.js';

// Whether a monitor's runs keep the time its schedule says (docs/schedules.md#schedule-hints). Pure: it looks at
// the openings of the latest runs only, so a pause, a missed run or a run started by hand changes nothing much.

/** Fewer openings than this say nothing. */
export const HINT_MIN_RUNS = 5;
/** The latest this many openings are compared. */
export const HINT_RUNS = 20;
/** This share of the openings (the latest one always among them) must agree. */
const AGREE = 0.8;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Zones tried, in order of preference where two agree (UTC before Europe/London in winter). */
const ZONES = [
  'UTC',
  'Europe/London',
  'Europe/Berlin',
  'Europe/Helsinki',
  'Europe/Moscow',
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Phoenix',
  'America/Los_Angeles',
  'America/Anchorage',
  'Pacific/Honolulu',
  'America/Halifax',
  'America/St_Johns',
  'America/Sao_Paulo',
  'America/Mexico_City',
  'Atlantic/Azores',
  'Africa/Lagos',
  'Africa/Johannesburg',
  'Asia/Dubai',
  'Asia/Tehran',
  'Asia/Karachi',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Asia/Dhaka',
  'Asia/Bangkok',
  'Asia/Shanghai',
  'Asia/Tokyo',
  'Australia/Adelaide',
  'Australia/Brisbane',
  'Australia/Sydney',
  'Pacific/Auckland',
];

/**
 * What the latest openings (epoch ms, any order) say about the schedule, or null when nothing: fewer than
 * HINT_MIN_RUNS, no schedule, or openings that keep it within their jitter.
 */
export function scheduleHint(
  schedule: StoredSchedule | null,
  startGraceMs: number,
  openings: readonly number[],
): ScheduleHint | null {
  if (schedule === null || openings.length < HINT_MIN_RUNS) return null;
  const times = [...openings].sort((a, b) => a - b).slice(-HINT_RUNS);
  if ('every' in schedule) return rhythmHint(times, schedule.every * 1000);
  const slots = times.map((t) => nearestSlot(schedule, t));
  const offset = offsetHint(schedule, slots, jitterMs(startGraceMs));
  return offset ?? rhythmHint(times, median(slots.map((s) => s.gap)));
}

/** How far an opening may stray from a whole-hour offset and still agree with it: the grace, within 5 to 15 minutes. */
function jitterMs(startGraceMs: number): number {
  return Math.min(Math.max(startGraceMs, 5 * MINUTE), 15 * MINUTE);
}

interface Slot {
  opened: number;
  /** The scheduled time nearest the opening. */
  at: number;
  /** The time between the slots around the opening. */
  gap: number;
}

function nearestSlot(schedule: { cron: string; timezone: string }, opened: number): Slot {
  const before = slotAtOrBefore(schedule, opened);
  const after = slotAfter(schedule, opened);
  return { opened, at: opened - before <= after - opened ? before : after, gap: after - before };
}

/** Slots closer together than this cannot tell an offset of whole hours from another slot. */
const OFFSET_MIN_GAP = 6 * HOUR;

function offsetHint(
  schedule: { cron: string; timezone: string },
  slots: readonly Slot[],
  jitter: number,
): ScheduleHint | null {
  const judged = slots.filter((s) => s.gap >= OFFSET_MIN_GAP);
  if (judged.length < HINT_MIN_RUNS || judged.at(-1) !== slots.at(-1)) return null;
  const offsets = judged.map((s) => s.opened - s.at);
  if (Math.abs(median(offsets)) < 45 * MINUTE) return null;
  const latest = offsets.at(-1)!;
  const zone = ZONES.find(
    (z) => z !== schedule.timezone && agree(judged, (s) => Math.abs(wallShift(s, schedule.timezone, z)) <= jitter),
  );
  const hours = Math.round(latest / HOUR) * HOUR;
  if (!zone && (hours === 0 || !agree(offsets, (o) => Math.abs(o - hours) <= jitter))) return null;
  const shown = zone ? Math.round(latest / (15 * MINUTE)) * 15 * MINUTE : hours;
  const side = `Runs open about ${formatDuration(Math.abs(shown) / 1000)} ${shown > 0 ? 'after' : 'before'}`;
  const question = zone
    ? `is the timezone ${zone} rather than ${schedule.timezone}?`
    : `is the schedule's timezone (${schedule.timezone}) the one the job's host runs cron in?`;
  return {
    kind: 'offset',
    message: `${side} the schedule's time; ${question}`,
    runs: judged.length,
    offsetMinutes: Math.round(latest / MINUTE),
    timezone: zone ?? null,
    observedEvery: null,
    expectedEvery: null,
  };
}

/** How far the opening is from its slot's wall-clock time read in `zone` instead of `scheduled`. */
function wallShift(slot: Slot, scheduled: string, zone: string): number {
  const opened = slot.opened + utcOffsetMinutes(slot.opened, zone) * MINUTE;
  return opened - (slot.at + utcOffsetMinutes(slot.at, scheduled) * MINUTE);
}

/** Runs keeping another rhythm than the schedule's: every gap between openings about the same, and far off. */
function rhythmHint(times: readonly number[], expected: number): ScheduleHint | null {
  const gaps = times.slice(1).map((t, i) => t - times[i]!);
  const observed = median(gaps);
  const ratio = observed / expected;
  if (ratio < 1.8 && ratio > 0.55) return null;
  if (!agree(gaps, (g) => Math.abs(g - observed) <= observed * 0.15)) return null;
  const seen = roughly(observed);
  const wanted = roughly(expected);
  return {
    kind: 'rhythm',
    message:
      `Runs open about every ${formatDuration(seen)}, but the schedule expects one about every ` +
      `${formatDuration(wanted)}; is the schedule right?`,
    runs: times.length,
    offsetMinutes: null,
    timezone: null,
    observedEvery: seen,
    expectedEvery: wanted,
  };
}

/** Seconds, rounded to the unit a person would say: days past two days, hours past two hours, else minutes. */
function roughly(ms: number): number {
  const unit = ms >= 48 * HOUR ? 24 * HOUR : ms >= 2 * HOUR ? HOUR : ms >= 2 * MINUTE ? MINUTE : 1000;
  return (Math.max(1, Math.round(ms / unit)) * unit) / 1000;
}

/** At least AGREE of the items pass, the latest one among them. */
function agree<T>(items: readonly T[], passes: (item: T) => boolean): boolean {
  if (items.length === 0 || !passes(items.at(-1)!)) return false;
  return items.filter(passes).length >= Math.ceil(items.length * AGREE);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
