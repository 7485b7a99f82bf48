import type { AlertEvent } from '@pingmon/sdk/wire';
import type { Health } from './incidents.js';
import { slotAtOrBefore } from './schedule.js';

// Quiet on purpose (docs/schedules.md#snooze-and-maintenance-windows): while a monitor is snoozed or in one of
// its maintenance windows, runs are recorded and health follows them, but no alert goes out; a slot expected in
// the quiet does not count as missed; when the quiet ends, one alert goes out if the monitor is still down.
// Pure: the callers read the windows and store what it answers.

/** A maintenance window: from each time `cron` names in `timezone`, for `durationMs`. */
export interface WindowTimes {
  cron: string;
  timezone: string;
  durationMs: number;
  /** The monitors it covers; null: every monitor of the account. */
  monitorIds: readonly string[] | null;
}

/** What makes one monitor quiet: its snooze and the windows that cover it. */
export interface Quiet {
  snoozedUntil: number | null;
  windows: readonly WindowTimes[];
}

/** Alerts held back while quiet: since the first one, and when the sweeper looks again (the quiet's end). */
export interface Hold {
  since: number;
  until: number;
}

/** A window followed into the next ones this many times at most (windows that overlap each other end to end). */
const MAX_STEPS = 1_000;

export function covers(window: Pick<WindowTimes, 'monitorIds'>, monitorId: string): boolean {
  return window.monitorIds === null || window.monitorIds.includes(monitorId);
}

/** The end of the quiet `at` falls in (the first time after it that is not quiet), or null when `at` is not quiet. */
export function quietUntil(quiet: Quiet, at: number): number | null {
  let end = at;
  for (let step = 0; step < MAX_STEPS; step++) {
    let moved = false;
    if (quiet.snoozedUntil !== null && quiet.snoozedUntil > end) {
      end = quiet.snoozedUntil;
      moved = true;
    }
    for (const window of quiet.windows) {
      const until = slotAtOrBefore(window, end) + window.durationMs;
      if (until > end) {
        end = until;
        moved = true;
      }
    }
    if (!moved) break;
  }
  return end === at ? null : end;
}

/**
 * Whether a missed slot counts: not when it was expected while quiet, nor when its grace ran out while quiet
 * (the job may have been stopped for the window).
 */
export function slotCounts(quiet: Quiet, slot: number, graceMs: number): boolean {
  return quietUntil(quiet, slot) === null && quietUntil(quiet, slot + graceMs) === null;
}

/** The hold once an alert is held back at `now`, while quiet until `end`. */
export function holdAlert(hold: Hold | null, end: number, now: number): Hold {
  return { since: hold?.since ?? now, until: end };
}

/**
 * The one alert a hold comes to when the quiet is over: none when the monitor is up again; the incident's own
 * (`fail`, `missed`, `timed_out`) when it opened while quiet; `still_down` when it was open, and alerted, before.
 */
export function heldAlert(health: Pick<Health, 'incident'>, hold: Hold): AlertEvent | null {
  const { incident } = health;
  if (incident === null) return null;
  return incident.openedAt >= hold.since ? incident.cause : 'still_down';
}
