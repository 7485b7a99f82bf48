import { formatDuration } from '@pingmon/sdk/wire';
import type { AlertEvent, FailAlerts, IncidentCause, MonitorStatus, RunStatus } from '@pingmon/sdk/wire';

// Incidents (docs/schedules.md): a monitor is down after `failureThreshold` failed, missed or timed-out runs
// in a row, and up again after `recoveryThreshold` successes in a row. Pure: the callers store what it answers.

/** What a monitor remembers between runs to decide its incidents. */
export interface Health {
  failStreak: number;
  okStreak: number;
  /** The open incident, or null. */
  incident: Incident | null;
  /** When the next still_down reminder is due, while an incident is open and renotifyAfter is set. */
  remindAt: number | null;
}

/**
 * The name of a monitor's incident, the same on each of its alerts: on-call tools open one incident per name and
 * close it on recovery. Null for an alert outside an incident.
 */
export function incidentKey(monitorId: string, incident: Incident | null): string | null {
  return incident === null ? null : `${monitorId}:${incident.openedAt}`;
}

/** An open incident: when and why it opened, and the failed and missed runs since (those that opened it included). */
export interface Incident {
  openedAt: number;
  cause: IncidentCause;
  failedRuns: number;
  missedRuns: number;
}

export interface Thresholds {
  failureThreshold: number;
  recoveryThreshold: number;
  /** Seconds between reminders while down; null for none. */
  renotifyAfter: number | null;
  /** Which failed runs alert: every one that counts towards being down, or only the one opening an incident. */
  failAlerts: FailAlerts;
}

export const HEALTHY: Health = { failStreak: 0, okStreak: 0, incident: null, remindAt: null };

/** What happened to the monitor: a run's outcome, or `missed` slots counted by the sweeper. */
export type Outcome = { kind: 'success' } | { kind: 'fail' | 'timed_out' } | { kind: 'missed'; count: number };

/**
 * The monitor's health after `outcome`, and the alert it raises, if any. A failed or timed-out run alerts
 * once the failure streak reaches the threshold, every such run (so with the default threshold of 1 every
 * failure alerts, as before schedules), or with failAlerts `first` only the one that opens the incident; later
 * ones are counted on it. Missed slots alert only when they open the incident; the success that closes an
 * incident raises `recovered`.
 */
export function afterOutcome(
  health: Health,
  limits: Thresholds,
  outcome: Outcome,
  now: number,
): { health: Health; alert: AlertEvent | null } {
  if (outcome.kind === 'success') {
    if (health.incident === null) return { health: HEALTHY, alert: null };
    const okStreak = health.okStreak + 1;
    if (okStreak >= limits.recoveryThreshold) return { health: HEALTHY, alert: 'recovered' };
    return { health: { ...health, failStreak: 0, okStreak }, alert: null };
  }
  const failStreak = health.failStreak + (outcome.kind === 'missed' ? outcome.count : 1);
  const down = failStreak >= limits.failureThreshold;
  const opens = down && health.incident === null;
  const opened = opens ? { openedAt: now, cause: outcome.kind, failedRuns: 0, missedRuns: 0 } : health.incident;
  const incident = opened && counted(opened, outcome);
  const remindAt = opens ? reminderAfter(limits, now) : health.remindAt;
  const alert =
    outcome.kind === 'missed'
      ? opens
        ? 'missed'
        : null
      : down && (opens || limits.failAlerts === 'every')
        ? outcome.kind
        : null;
  return { health: { failStreak, okStreak: 0, incident, remindAt }, alert };
}

function counted(incident: Incident, outcome: Exclude<Outcome, { kind: 'success' }>): Incident {
  return outcome.kind === 'missed'
    ? { ...incident, missedRuns: incident.missedRuns + outcome.count }
    : { ...incident, failedRuns: incident.failedRuns + 1 };
}

/** "4 failed runs, down 12m": what an incident amounts to at `now`, for its reminders and its recovery. */
export function incidentSummary(incident: Incident, now: number): string {
  const runs = [
    [incident.failedRuns, 'failed run'],
    [incident.missedRuns, 'missed run'],
  ] as const;
  const parts = runs.filter(([n]) => n > 0).map(([n, what]) => `${n} ${what}${n === 1 ? '' : 's'}`);
  return [...parts, `down ${formatDuration((now - incident.openedAt) / 1000)}`].join(', ');
}

export function reminderAfter(limits: Pick<Thresholds, 'renotifyAfter'>, now: number): number | null {
  return limits.renotifyAfter === null ? null : now + limits.renotifyAfter * 1000;
}

/** Whether `health` differs from `before` (a ping leaves the monitor's row alone when it does not). */
export function healthChanged(before: Health, after: Health): boolean {
  return (
    before.failStreak !== after.failStreak ||
    before.okStreak !== after.okStreak ||
    before.remindAt !== after.remindAt ||
    before.incident?.openedAt !== after.incident?.openedAt ||
    before.incident?.cause !== after.incident?.cause ||
    before.incident?.failedRuns !== after.incident?.failedRuns ||
    before.incident?.missedRuns !== after.incident?.missedRuns
  );
}

/**
 * A monitor's status (docs/schedules.md), most pressing first: paused, down (an open incident), running (its
 * latest run), late (an expected opening is past and its grace runs), new (no run yet), up.
 */
export function monitorStatus(
  monitor: { paused: boolean; health: { incident: Pick<Incident, 'openedAt'> | null }; nextExpectedAt: number | null },
  lastRun: { status: RunStatus } | undefined,
  now: number,
): MonitorStatus {
  if (monitor.paused) return 'paused';
  if (monitor.health.incident !== null) return 'down';
  if (lastRun?.status === 'running') return 'running';
  if (monitor.nextExpectedAt !== null && now >= monitor.nextExpectedAt) return 'late';
  return lastRun === undefined ? 'new' : 'up';
}
