import type {
  Client,
  EventKind,
  LogResult,
  Monitor,
  MonitorStatus,
  Run,
  RunDetail,
  RunOutput,
  RunStatus,
} from '@pingmon/sdk';
import type { EventPage } from './timeline.js';
import { listAllMonitors } from '../client.js';

/** Runs fetched per page of the runs view. */
export const RUNS_PAGE = 100;
/** Events fetched per page of the timeline. */
export const EVENTS_PAGE = 100;

/** One line of the monitors view. */
export interface MonitorRow {
  monitorId: string;
  slug: string;
  name: string;
  /** The monitor's status (docs/schedules.md) and when its next run is expected. */
  status: MonitorStatus;
  nextExpectedAt: string | null;
  lastRun: { status: RunStatus; startedAt: string; durationMs: number | null; silentFailure: boolean } | null;
  /** Failed runs among the latest `recentRuns` (at most RECENT_RUNS). */
  recentFailures: number;
  recentRuns: number;
  /** Until when it is snoozed, or null. */
  snoozedUntil: string | null;
}

/** Which of a monitor's runs the runs view lists. */
export interface RunsFilter {
  failedOnly: boolean;
  fingerprint: string | null;
}

export interface RunPage {
  runs: Run[];
  nextCursor: string | null;
}

/** What the dashboard reads: the management API, shaped for its views. */
export interface BrowseSource {
  listMonitors(): Promise<MonitorRow[]>;
  /** `fingerprint`: only the runs that failed so (docs/alerts.md#failure-fingerprints). */
  listRuns(monitorId: string, query: RunsFilter & { cursor?: string }): Promise<RunPage>;
  /** The monitor's timeline, newest first: the kinds named, or every kind when none is. */
  listEvents(monitorId: string, query: { kinds: EventKind[]; cursor?: string }): Promise<EventPage>;
  /** The monitor's scheduleHint, said in words, or null (docs/schedules.md#schedule-hints). */
  scheduleHint(monitorId: string): Promise<string | null>;
  getRun(monitorId: string, runId: string): Promise<RunDetail>;
  getLog(monitorId: string, runId: string): Promise<LogResult>;
  /** A running run's live output from offset `after` (docs/api.md#live-output). */
  getRunOutput(monitorId: string, runId: string, after: number): Promise<RunOutput>;
  /** Pauses (or resumes) the monitor. */
  setPaused(monitorId: string, paused: boolean): Promise<void>;
  /** Snoozes the monitor for `seconds` from now; 0 ends the snooze. */
  setSnooze(monitorId: string, seconds: number): Promise<void>;
}

/**
 * `connect` makes a client from the stored login. After the server refuses the token it is called again,
 * so a `pingmon login` in another terminal takes effect on the next refresh.
 */
export function createSource(connect: () => Client): BrowseSource {
  let client: Client | undefined;
  const call = async <T>(fn: (c: Client) => Promise<T>): Promise<T> => {
    client ??= connect();
    try {
      return await fn(client);
    } catch (err) {
      if ((err as { status?: unknown }).status === 401) client = undefined;
      throw err;
    }
  };

  return {
    listMonitors: async () => (await call(listAllMonitors)).map(monitorRow),
    listRuns: (monitorId, { failedOnly, fingerprint, cursor }) => {
      const query = { status: failedOnly ? ('failed' as const) : undefined, fingerprint: fingerprint ?? undefined };
      return call((c) => c.listRuns(monitorId, { ...query, limit: RUNS_PAGE, cursor }));
    },
    listEvents: (monitorId, { kinds, cursor }) =>
      call((c) => c.listEvents(monitorId, { kind: kinds, limit: EVENTS_PAGE, cursor })),
    scheduleHint: async (monitorId) => (await call((c) => c.getMonitor(monitorId))).scheduleHint?.message ?? null,
    getRun: (monitorId, runId) => call((c) => c.getRun(monitorId, runId)),
    getLog: (monitorId, runId) => call((c) => c.getLog(monitorId, runId)),
    getRunOutput: (monitorId, runId, after) => call((c) => c.getRunOutput(monitorId, runId, after)),
    setPaused: async (monitorId, paused) =>
      void (await call((c) => (paused ? c.pauseMonitor(monitorId) : c.resumeMonitor(monitorId)))),
    setSnooze: async (monitorId, seconds) => {
      const until = seconds === 0 ? null : new Date(Date.now() + seconds * 1000).toISOString();
      await call((c) => c.snoozeMonitor(monitorId, until));
    },
  };
}

function monitorRow(monitor: Monitor): MonitorRow {
  const last = monitor.lastRun;
  return {
    monitorId: monitor.monitorId,
    slug: monitor.slug,
    name: monitor.name,
    status: monitor.status,
    nextExpectedAt: monitor.nextExpectedAt,
    lastRun: last && {
      status: last.status,
      startedAt: last.startedAt,
      durationMs: last.durationMs,
      silentFailure: last.silentFailure,
    },
    recentFailures: monitor.recentRuns.failed,
    recentRuns: monitor.recentRuns.runs,
    snoozedUntil: monitor.snoozedUntil,
  };
}
