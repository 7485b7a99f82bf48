import type { MonitorSettings as GivenSettings } from '@pingmon/sdk/wire';
import { MONITOR_DEFAULTS } from '@pingmon/sdk/wire';
import type { Health } from './incidents.js';
import { HEALTHY, reminderAfter } from './incidents.js';
import type { StoredSchedule } from './schedule.js';
import { slotAfter } from './schedule.js';

// A monitor's settings as created or changed (docs/schedules.md), and where that leaves its expected opening
// and its health. Pure: the route stores what it answers.

/** A monitor's settings (docs/schedules.md) as stored: as the API takes them, the schedule checked. */
export interface MonitorSettings extends Omit<GivenSettings, 'schedule'> {
  schedule: StoredSchedule | null;
}

/** Where a monitor stands: its next expected opening and when it counts as missed, and its health. */
export interface MonitorState {
  nextExpectedAt: number | null;
  missedAt: number | null;
  health: Health;
}

export interface Scheduling extends MonitorSettings, MonitorState {}

export const DEFAULT_SETTINGS: MonitorSettings = { ...MONITOR_DEFAULTS, schedule: null };

/** The first opening a schedule expects from `now` on: its next slot (for `every`, one interval from now). */
function firstExpected(schedule: StoredSchedule | null, now: number): number | null {
  return schedule === null ? null : slotAfter(schedule, now);
}

/** A new monitor with `settings`: healthy, and expecting its schedule's first slot from `now`. */
export function newScheduling(settings: MonitorSettings, now: number): Scheduling {
  const nextExpectedAt = settings.paused ? null : firstExpected(settings.schedule, now);
  return { ...settings, ...deadline(nextExpectedAt, settings.startGrace), health: HEALTHY };
}

function deadline(nextExpectedAt: number | null, startGrace: number) {
  return { nextExpectedAt, missedAt: nextExpectedAt === null ? null : nextExpectedAt + startGrace * 1000 };
}

/**
 * `current` with `changes` made at `now`. Pausing drops every deadline; resuming starts afresh (healthy, the
 * next slot from now expected); a new schedule is expected from now on; a new startGrace moves the deadline of
 * the opening already expected; a new renotifyAfter the next reminder.
 */
export function changeScheduling(current: Scheduling, changes: Partial<MonitorSettings>, now: number): Scheduling {
  const settings: MonitorSettings = { ...settingsOf(current), ...changes };
  if (settings.paused) {
    return { ...settings, nextExpectedAt: null, missedAt: null, health: { ...current.health, remindAt: null } };
  }
  if (current.paused) return newScheduling(settings, now);
  const rescheduled = changes.schedule !== undefined && !sameSchedule(changes.schedule, current.schedule);
  const nextExpectedAt = rescheduled ? firstExpected(settings.schedule, now) : current.nextExpectedAt;
  let { health } = current;
  if (changes.renotifyAfter !== undefined && health.incident !== null) {
    health = { ...health, remindAt: reminderAfter(settings, now) };
  }
  return { ...settings, ...deadline(nextExpectedAt, settings.startGrace), health };
}

/** A ping's monitor settings (docs/api.md#monitor-settings-in-a-ping): the name, and the settings, as given. */
export interface PingSettings {
  name?: string;
  settings: Partial<MonitorSettings>;
}

/** Of `given`, what differs from `current`: nothing when the monitor is as the ping says already. */
export function changedSettings(
  current: { name: string } & MonitorSettings,
  given: PingSettings,
): { name?: string; settings: Partial<MonitorSettings> } {
  const settings: Partial<MonitorSettings> = {};
  for (const key of Object.keys(given.settings) as Array<keyof MonitorSettings>) {
    const value = given.settings[key];
    const same =
      key === 'schedule' ? sameSchedule(given.settings.schedule ?? null, current.schedule) : value === current[key];
    if (!same) Object.assign(settings, { [key]: value });
  }
  return given.name === undefined || given.name === current.name ? { settings } : { name: given.name, settings };
}

/** Whether changedSettings found nothing to change. */
export function nothingChanged(changes: { name?: string; settings: Partial<MonitorSettings> }): boolean {
  return changes.name === undefined && Object.keys(changes.settings).length === 0;
}

function settingsOf(s: Scheduling): MonitorSettings {
  const { schedule, startGrace, maxRuntime, failureThreshold, recoveryThreshold, renotifyAfter, failAlerts, paused } =
    s;
  return { schedule, startGrace, maxRuntime, failureThreshold, recoveryThreshold, renotifyAfter, failAlerts, paused };
}

function sameSchedule(a: StoredSchedule | null, b: StoredSchedule | null): boolean {
  if (a === null || b === null) return a === b;
  if ('every' in a) return 'every' in b && a.every === b.every;
  return 'cron' in b && a.cron === b.cron && a.timezone === b.timezone;
}
