// TEMPORARY until wip/events is merged: the §16 event shapes, as its responses.ts has them.
import type { AlertDelivery, AlertEvent, IncidentCause, RunStatus } from '@pingmon/sdk/wire';

export type EventKind = MonitorEvent['kind'];
export type MonitorEvent =
  | {
      kind: 'run_started' | 'run_succeeded' | 'run_failed';
      at: string;
      runId: string;
      status: RunStatus;
      durationMs: number | null;
      errorMessage: string | null;
      silentFailure: boolean;
      host: string | null;
    }
  | { kind: 'missed'; at: string; expectedAt: string; count: number; quietCount: number }
  | { kind: 'timed_out'; at: string; runId: string; maxRuntime: number }
  | { kind: 'incident_opened'; at: string; cause: IncidentCause; runId: string | null }
  | {
      kind: 'incident_closed';
      at: string;
      cause: IncidentCause;
      openedAt: string;
      failedRuns: number;
      missedRuns: number;
      reason: 'recovered' | 'resumed';
      runId: string | null;
    }
  | {
      kind: 'alert';
      at: string;
      alertId: string;
      event: AlertEvent;
      runId: string | null;
      errorMessage: string | null;
      groupId: string | null;
      deliveries: AlertDelivery[];
    }
  | { kind: 'snoozed'; at: string; until: string | null }
  | { kind: 'paused' | 'resumed'; at: string };
export interface MonitorEventList {
  events: MonitorEvent[];
  nextCursor: string | null;
}
