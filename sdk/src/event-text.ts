// A monitor's timeline (GET /monitors/:monitorId/events) written for people, one line an event: the CLI, the TUI
// and the dashboard say each alike. The time is the caller's to show, in its own column.
import { formatDuration } from './durations.js';
import { duration, SILENT_MARK, STATUS } from './format.js';
import type { AlertDelivery, EventKind, IncidentCause, MonitorEvent } from './types.js';

const [FAILED, SUCCESS, RUNNING] = [STATUS.failed.symbol, STATUS.success.symbol, STATUS.running.symbol];

/** Each kind as a symbol (one column wide, see STATUS) and words. */
export const EVENT_LABELS: Readonly<Record<EventKind, { symbol: string; words: string }>> = {
  run_started: { symbol: RUNNING, words: 'run started' },
  run_succeeded: { symbol: SUCCESS, words: 'run succeeded' },
  run_failed: { symbol: FAILED, words: 'run failed' },
  missed: { symbol: FAILED, words: 'missed' },
  timed_out: { symbol: FAILED, words: 'timed out' },
  incident_opened: { symbol: FAILED, words: 'down' },
  incident_closed: { symbol: SUCCESS, words: 'up again' },
  alert: { symbol: '»', words: 'alert' },
  snoozed: { symbol: '·', words: 'snoozed' },
  paused: { symbol: '·', words: 'paused' },
  resumed: { symbol: '·', words: 'resumed' },
};

const CAUSES: Readonly<Record<IncidentCause, string>> = {
  fail: 'a run failed',
  missed: 'a run did not start',
  timed_out: 'a run timed out',
};

/** "2027-03-28 03:00 UTC" */
function minute(iso: string): string {
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

/** "✗ run failed", "» alert" */
export function eventLabel(kind: EventKind): string {
  return `${EVENT_LABELS[kind].symbol} ${EVENT_LABELS[kind].words}`;
}

/** What the event says beyond its kind: "01a2019d-… in 3m 20s: exit code 2", "expected 2027-03-28 03:00 UTC". */
export function eventDetail(event: MonitorEvent): string {
  switch (event.kind) {
    case 'run_started':
      return `${event.runId}${event.host ? ` on ${event.host}` : ''}`;
    case 'run_succeeded':
    case 'run_failed': {
      const took = event.durationMs === null ? '' : ` in ${duration(event.durationMs)}`;
      const silent = event.silentFailure ? ` ${SILENT_MARK} silent failure` : '';
      return `${event.runId}${took}${silent}${event.errorMessage ? `: ${event.errorMessage}` : ''}`;
    }
    case 'missed': {
      const runs = event.count > 1 ? ` (${event.count} runs in a row)` : '';
      const quiet = event.quietCount > 0 ? `; ${event.quietCount} while snoozed or in maintenance, not counted` : '';
      return `expected ${minute(event.expectedAt)}${runs}${quiet}`;
    }
    case 'timed_out':
      return `${event.runId}: no result within ${formatDuration(event.maxRuntime)}`;
    case 'incident_opened':
      return `${CAUSES[event.cause]}${event.runId ? ` (${event.runId})` : ''}`;
    case 'incident_closed': {
      const how = event.reason === 'resumed' ? 'resumed' : `recovered${event.runId ? ` (${event.runId})` : ''}`;
      return `${how}; down since ${minute(event.openedAt)}`;
    }
    case 'alert': {
      const deliveries = event.deliveries.map(deliveryText).join(', ') || 'no channel took it';
      return `${event.event.replace('_', ' ')}: ${deliveries}`;
    }
    case 'snoozed':
      return event.until === null ? 'snooze ended' : `until ${minute(event.until)}`;
    case 'paused':
    case 'resumed':
      return '';
  }
}

function deliveryText(delivery: AlertDelivery): string {
  const state = delivery.state === 'failed' && delivery.lastError ? `failed (${delivery.lastError})` : delivery.state;
  return `${delivery.channelName} ${state}`;
}
