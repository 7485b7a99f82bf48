import type { IncidentCause, IncidentEnd } from '@pingmon/sdk/wire';
import type { Incident } from './incidents.js';

// A monitor's timeline (docs/api.md#events). Runs and alerts are read from their own tables; what has no history
// of its own is stored as events, decided here from the change that causes them. Pure: the callers store them.

/** The events the events table holds, each with its own fields; times are epoch milliseconds. */
export type StoredEvent =
  /** Expected openings that did not start by their deadline, found by one sweep; `quietCount` of them while quiet. */
  | { kind: 'missed'; expectedAt: number; count: number; quietCount: number }
  | { kind: 'timed_out'; runId: string; maxRuntime: number }
  | { kind: 'incident_opened'; cause: IncidentCause; runId: string | null }
  | {
      kind: 'incident_closed';
      cause: IncidentCause;
      openedAt: number;
      failedRuns: number;
      missedRuns: number;
      reason: IncidentEnd;
      runId: string | null;
    }
  /** `until` null: the snooze was ended early. */
  | { kind: 'snoozed'; until: number | null }
  | { kind: 'paused' }
  | { kind: 'resumed' };

export type StoredKind = StoredEvent['kind'];

export const STORED_KINDS: readonly StoredKind[] = [
  'missed',
  'timed_out',
  'incident_opened',
  'incident_closed',
  'snoozed',
  'paused',
  'resumed',
];

/** An incident opening or closing between two healths of a monitor: the run that did it, if any. */
export function incidentEvents(
  before: Incident | null,
  after: Incident | null,
  runId: string | null,
  reason: IncidentEnd,
): StoredEvent[] {
  if (before === null && after !== null) return [{ kind: 'incident_opened', cause: after.cause, runId }];
  if (before === null || after !== null) return [];
  const { cause, openedAt, failedRuns, missedRuns } = before;
  return [{ kind: 'incident_closed', cause, openedAt, failedRuns, missedRuns, reason, runId }];
}

interface Settled {
  paused: boolean;
  snoozedUntil: number | null;
  health: { incident: Incident | null };
}

/**
 * What a change of a monitor's settings at `now` records: a snooze set, moved or ended early (one that had run out
 * is no snooze), a pause, a resumption, and the incident a resumption closes (it starts afresh).
 */
export function settingEvents(current: Settled, next: Settled, now: number): StoredEvent[] {
  const snoozed = (m: Settled) => (m.snoozedUntil !== null && m.snoozedUntil > now ? m.snoozedUntil : null);
  const events: StoredEvent[] = [];
  if (snoozed(next) !== snoozed(current)) events.push({ kind: 'snoozed', until: snoozed(next) });
  if (next.paused !== current.paused) events.push({ kind: next.paused ? 'paused' : 'resumed' });
  return [...events, ...incidentEvents(current.health.incident, next.health.incident, null, 'resumed')];
}
