import type { FaultRecord } from './restarts.js';

// What the false-alert scenario's alerts say: which were false, and by when the stopped job's had to come.

/** A webhook alert as received (docs/alerts.md#webhook), with when. */
export interface Alert {
  event: string;
  alertId: string;
  monitorId: string;
  runId: string | null;
  expectedAt: string | null;
  serverGap: { from: string; to: string } | null;
  receivedAt: number;
}

/** The least fresh grace after a time no server swept (docs/schedules.md#when-pingmon-itself-was-down). */
const FRESH_GRACE_MIN_SECONDS = 120;

/** Alerts by event, e.g. { missed: 4, recovered: 0 }. */
export function tally(alerts: readonly Alert[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const alert of alerts) counts[alert.event] = (counts[alert.event] ?? 0) + 1;
  return counts;
}

/**
 * The alerts no job deserved. Every job ran at each of its slots and exited 0 well within maxRuntime, until
 * the load ended (or, for the stopped job, until it stopped): so a `fail` or `timed_out` is false, and so is a
 * `missed` whose expected run came before the monitor's last job start (half a slot allowed for the start's way
 * from the host). A `missed` for the slot after the last start is a job that really stopped.
 */
export function falseAlerts(
  alerts: readonly Alert[],
  lastStarts: ReadonlyMap<string, number>,
  everySeconds: number,
): Alert[] {
  return alerts.filter((alert) => {
    if (alert.event === 'fail' || alert.event === 'timed_out') return true;
    if (alert.event !== 'missed') return false;
    const lastStart = lastStarts.get(alert.monitorId) ?? Number.NEGATIVE_INFINITY;
    return Date.parse(alert.expectedAt!) < lastStart + (everySeconds * 1000) / 2;
  });
}

/**
 * By when the `missed` alert of the run expected at `expectedAt` is due: its startGrace later, or, when that
 * deadline was still ahead as a fault began (and the expected time had come by the fault's end), a fresh grace
 * after the fault. A server's gap runs from its last sweep before the fault to its first after: a sweep either side.
 */
export function dueBy(
  expectedAt: number,
  faults: readonly FaultRecord[],
  options: { startGraceSeconds: number; sweepSeconds: number },
): number {
  const sweepMs = options.sweepSeconds * 1000;
  const freshMs = Math.max(options.startGraceSeconds, FRESH_GRACE_MIN_SECONDS) * 1000;
  let due = expectedAt + options.startGraceSeconds * 1000;
  for (const { beganAt, endedAt } of faults) {
    const gap = { from: beganAt - sweepMs, to: endedAt + sweepMs };
    if (expectedAt <= gap.to && due >= gap.from) due = Math.max(due, gap.to + freshMs);
  }
  return due;
}

/** Counts by kind, e.g. "stop×2 kill×1". */
export function countLine(names: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts].map(([name, n]) => `${name}×${n}`).join(' ') || 'none';
}
