import { CronExpressionParser } from 'cron-parser';
import type { CronExpression } from 'cron-parser';
import type { ExpectedTime, Schedule } from '@pingmon/sdk/wire';

// When a scheduled monitor expects its runs to open (docs/schedules.md). Pure: every function takes `now`.
// Cron expressions are read by cron-parser in the schedule's timezone; across a DST change a local time that
// does not exist is expected once, shifted forward by the gap (02:30 → 03:30 CEST), and one that exists
// twice is expected once, at its first occurrence.

/** A schedule as stored: a cron schedule always has its timezone. */
export type StoredSchedule = { cron: string; timezone: string } | { every: number };

export const MAX_EVERY_SECONDS = 366 * 86_400;

/** A run opening this little before its slot (a job host's clock running fast) still counts as that slot's. */
const EARLY_TOLERANCE_MS = 60_000;

/**
 * The schedule as given, checked; `error` names the field (after `prefix`: a maintenance window's fields have
 * none) and says what is wrong.
 */
export function checkSchedule(input: Schedule, prefix = 'schedule.'): { schedule: StoredSchedule } | { error: string } {
  if ('every' in input) return { schedule: { every: input.every } };
  const timezone = input.timezone ?? 'UTC';
  if (!isTimezone(timezone)) {
    return {
      error:
        `${prefix}timezone: unknown timezone "${timezone}"; ` +
        'use an IANA name such as Europe/Berlin, America/New_York or UTC',
    };
  }
  const fields = input.cron.trim().split(/\s+/);
  if (fields.length !== 5) {
    return {
      error:
        `${prefix}cron: "${input.cron}" has ${fields.length} field(s); use 5: minute hour day-of-month month ` +
        'day-of-week, e.g. "0 3 * * *" for 03:00 every day',
    };
  }
  const cron = fields.join(' ');
  try {
    CronExpressionParser.parse(cron, { tz: timezone }).next();
  } catch (err) {
    return { error: `${prefix}cron: "${cron}" cannot be read: ${(err as Error).message}` };
  }
  return { schedule: { cron, timezone } };
}

function isTimezone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** Parsed expressions, kept: a sweep may place a thousand monitors, most on a few common schedules. */
const parsed = new Map<string, CronExpression>();

function expression(schedule: { cron: string; timezone: string }, after: number): CronExpression {
  const key = `${schedule.timezone} ${schedule.cron}`;
  let expr = parsed.get(key);
  if (!expr) {
    if (parsed.size >= 1_000) parsed.clear();
    expr = CronExpressionParser.parse(schedule.cron, { tz: schedule.timezone, currentDate: new Date(after) });
    parsed.set(key, expr);
  } else {
    expr.reset(new Date(after));
  }
  return expr;
}

/**
 * Answers of slotAfter, kept: asking cron-parser costs 70 µs (every minute, UTC) to 1 ms (daily, Europe/Berlin),
 * and every ping on a scheduled monitor asks. An answer `next` found from `from` holds for any time in [from, next).
 */
const answers = new Map<string, { from: number; next: number }[]>();
const ANSWERS_PER_SCHEDULE = 4;

/** The first scheduled time strictly after `after` (for `every`: `after` plus the interval). */
export function slotAfter(schedule: StoredSchedule, after: number): number {
  if ('every' in schedule) return after + schedule.every * 1000;
  const key = `${schedule.timezone} ${schedule.cron}`;
  let known = answers.get(key);
  const hit = known?.find((a) => a.from <= after && after < a.next);
  if (hit) return hit.next;
  const next = expression(schedule, after).next().getTime();
  if (!known) {
    if (answers.size >= 1_000) answers.clear();
    answers.set(key, (known = []));
  }
  if (known.length >= ANSWERS_PER_SCHEDULE) known.shift();
  known.push({ from: after, next });
  return next;
}

/**
 * The next expected opening once a run opened at `openedAt`. A cron job's opening counts for the first slot
 * after it, or for the slot just ahead when it came at most a minute (and a tenth of the gap) early.
 */
export function expectedAfterOpening(schedule: StoredSchedule, openedAt: number): number {
  const next = slotAfter(schedule, openedAt);
  if ('every' in schedule) return next;
  const following = slotAfter(schedule, next);
  return next - openedAt <= Math.min(EARLY_TOLERANCE_MS, (following - next) / 10) ? following : next;
}

/**
 * A sweep at `now` found no opening for the slot `expected` by its deadline: how many slots in a row were
 * missed (counted up to `cap`, which is all a failure threshold needs), and the next slot to expect, the
 * first whose grace has not run out. A slot for which `counts` says no (a quiet one) is skipped, not missed.
 */
export function afterMiss(
  schedule: StoredSchedule,
  expected: number,
  graceMs: number,
  now: number,
  cap: number,
  counts: (slot: number) => boolean = () => true,
): { missed: number; skipped: number; next: number } {
  let missed = 0;
  let skipped = 0;
  let slot = expected;
  // Slots that do not count (a maintenance window's) are bounded too: past that many, the rest go uncounted.
  while (slot + graceMs <= now && missed < cap && skipped < MAX_SKIPPED_SLOTS) {
    if (counts(slot)) missed++;
    else skipped++;
    slot = slotAfter(schedule, slot);
  }
  if (slot + graceMs <= now) slot = slotAfter(schedule, now - graceMs);
  return { missed, skipped, next: slot };
}

const MAX_SKIPPED_SLOTS = 2_000;

/** The latest scheduled time at or before `at` (a cron schedule's; a maintenance window's start). */
export function slotAtOrBefore(schedule: { cron: string; timezone: string }, at: number): number {
  return expression(schedule, at + 1)
    .prev()
    .getTime();
}

/** The `count` expected openings from `first` on (the monitor's nextExpectedAt). */
export function upcoming(schedule: StoredSchedule, first: number, count: number): number[] {
  const times: number[] = [];
  for (let at = first; times.length < count; at = slotAfter(schedule, at)) times.push(at);
  return times;
}

/** Formatters, kept: making one costs more than a hundred uses (a sweep names the expected time of each miss). */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(kind: 'wall' | 'en-US' | 'en-GB', timeZone: string): Intl.DateTimeFormat {
  const key = `${kind} ${timeZone}`;
  let found = formatters.get(key);
  if (!found) {
    if (formatters.size >= 1_000) formatters.clear();
    found =
      kind === 'wall'
        ? new Intl.DateTimeFormat('en-US', {
            timeZone,
            hourCycle: 'h23',
            year: 'numeric',
            month: '2-digit',
            day: '2-digit',
            hour: '2-digit',
            minute: '2-digit',
            second: '2-digit',
          })
        : new Intl.DateTimeFormat(kind, { timeZone, timeZoneName: 'short' });
    formatters.set(key, found);
  }
  return found;
}

function wallParts(at: number, timezone: string): Record<string, string> {
  return Object.fromEntries(
    formatter('wall', timezone)
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
}

function offsetOf(parts: Record<string, string>, at: number): number {
  const wall = Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!, +parts.second!);
  return Math.round((wall - Math.floor(at / 1000) * 1000) / 60_000);
}

/** How far the zone's wall clock is ahead of UTC at `at`, in minutes (Europe/Berlin in summer: 120). */
export function utcOffsetMinutes(at: number, timezone: string): number {
  return offsetOf(wallParts(at, timezone), at);
}

/** An instant as the schedule's timezone reads it. */
export function localTime(at: number, timezone: string): ExpectedTime {
  const parts = wallParts(at, timezone);
  const offsetMinutes = offsetOf(parts, at);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const offset = `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
  const local = `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`;
  return { at: new Date(at).toISOString(), local, zone: zoneName(at, timezone) };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** "CEST", "EDT", "UTC"; an offset such as "GMT+5" for a zone without a common abbreviation. */
function zoneName(at: number, timezone: string): string {
  const name = (locale: 'en-US' | 'en-GB') =>
    formatter(locale, timezone)
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value ?? timezone;
  const us = name('en-US');
  return /^GMT[+-]/.test(us) ? name('en-GB') : us;
}
