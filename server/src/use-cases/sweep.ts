import { formatDuration } from '@pingmon/sdk/wire';
import type { AlertEvent, MonitorStatus, RunStatus } from '@pingmon/sdk/wire';
import type { AlertRecord } from '../db/alerts.js';
import { insertAlerts } from '../db/alerts.js';
import type { Database } from '../db/index.js';
import type { MonitorRecord, MonitorState } from '../db/monitors.js';
import { claimMissed, claimMonitors, claimReminders, saveMonitorStates } from '../db/monitors.js';
import type { EventRecord } from '../db/events.js';
import { insertEvents } from '../db/events.js';
import type { LastRun, OverdueRun } from '../db/runs.js';
import { countRepeats, findLastRuns, findOverdueRuns, setRunDeadlines, timeOutRuns } from '../db/runs.js';
import { findOutage } from '../db/settings.js';
import type { TransactionSql } from '../db/sql.js';
import { groupByHost } from '../domain/alert-groups.js';
import { fingerprint } from '../domain/fingerprint.js';
import { incidentEvents } from '../domain/events.js';
import { afterOutcome, incidentKey, incidentSummary, reminderAfter } from '../domain/incidents.js';
import type { Incident } from '../domain/incidents.js';
import type { ServerGap } from '../domain/server-gaps.js';
import { gapOfExpected } from '../domain/server-gaps.js';
import type { StoredSchedule } from '../domain/schedule.js';
import { afterMiss, localTime } from '../domain/schedule.js';
import { newId } from '../ids.js';
import { iso } from '../presenter.js';
import type { Quiet } from '../domain/quiet.js';
import { slotCounts } from '../domain/quiet.js';
import { eventRecords } from './events.js';
import { dropEndedOutputs, keepLastWords } from './last-words.js';
import { endHolds, findQuiet, holdBack } from './quiet.js';
import type { GapWatch } from './server-gap.js';
import { beatAndFindGap } from './server-gap.js';

// The sweeper's work (docs/schedules.md): expected openings past their deadline, runs past their maxRuntime,
// and reminders while down. Every server runs it; each due row is claimed in the database (a locked row is
// skipped by the others on PostgreSQL; SQLite has one writer), so each alert is raised once.

export interface SweepResult {
  missed: number;
  timedOut: number;
  reminded: number;
  /** Alert deliveries written to the outbox. */
  queued: number;
  /** The gap this sweep ends: no server was sweeping before it. */
  outage: ServerGap | null;
}

/** Due rows handled per transaction, and transactions per kind per sweep: the rest waits for the next sweep. */
const BATCH = 500;
const MAX_BATCHES = 20;

/**
 * One sweep at `now`. After a time when no pingmon server was sweeping, the expected runs and deadlines that
 * fell in it get a fresh grace from now instead of all firing at once (server-gap.ts).
 */
export async function sweep(db: Database, now: number, watch: GapWatch): Promise<SweepResult> {
  const outage = await db.transaction((sql) => beatAndFindGap(sql, now, watch));
  const lastOutage = outage ?? (await findOutage(db.sql));
  const result: SweepResult = { missed: 0, timedOut: 0, reminded: 0, queued: 0, outage };
  await batches(async () => {
    const { handled, queued } = await db.transaction(async (sql) => {
      const due = await claimMissed(sql, now, BATCH);
      const quiet = await findQuiet(sql, due);
      const lastRuns = await findLastRuns(
        sql,
        due.map((m) => m.monitorId),
      );
      const decisions = due.map((m) => missed(m, now, lastOutage, lastRuns.get(m.monitorId), quiet.get(m.monitorId)!));
      return { handled: due.length, queued: await store(sql, decisions, due, now, groupMissed(lastRuns)) };
    });
    result.missed += handled;
    result.queued += queued;
    return handled;
  });
  await batches(async () => {
    const overdue = await findOverdueRuns(db.sql, now, BATCH);
    if (overdue.length === 0) return 0;
    const { handled, queued } = await db.transaction((sql) => timedOut(sql, overdue, now));
    result.timedOut += handled;
    result.queued += queued;
    // Runs skipped (their monitor held by a ping) are found again next sweep; only a full batch calls for another.
    return handled === overdue.length ? handled : 0;
  });
  await batches(async () => {
    const { handled, queued } = await db.transaction(async (sql) => {
      const due = await claimReminders(sql, now, BATCH);
      return {
        handled: due.length,
        queued: await store(
          sql,
          due.map((m) => remind(m, now)),
          due,
          now,
        ),
      };
    });
    result.reminded += handled;
    result.queued += queued;
    return handled;
  });
  await batches(async () => {
    const { handled, queued } = await db.transaction((sql) => endHolds(sql, now, BATCH));
    result.queued += queued;
    return handled;
  });
  await dropEndedOutputs(db.sql, now);
  return result;
}

/** Runs `batch` again while it handles full batches, at most MAX_BATCHES times. */
async function batches(batch: () => Promise<number>): Promise<void> {
  for (let i = 0; i < MAX_BATCHES && (await batch()) === BATCH; i++);
}

/** What a sweep decided for one monitor: where it now stands, the alert it raises, if any, and its events. */
interface Decision {
  monitorId: string;
  state: MonitorState;
  alert: AlertRecord | null;
  events?: EventRecord[];
}

/**
 * Stores a batch's decisions in three statements, whatever its size (more for alerts of quiet monitors, which
 * are held back); the alerts raised are then grouped, if asked; answers the deliveries queued.
 */
async function store(
  sql: TransactionSql,
  decisions: readonly Decision[],
  monitors: readonly MonitorRecord[],
  now: number,
  group: (alerts: AlertRecord[]) => AlertRecord[] = (alerts) => alerts,
): Promise<number> {
  await saveMonitorStates(sql, decisions);
  await insertEvents(
    sql,
    decisions.flatMap((d) => d.events ?? []),
  );
  const alerts = decisions.flatMap((d) => (d.alert ? [d.alert] : []));
  return insertAlerts(sql, group(await holdBack(sql, alerts, monitors, now)));
}

/**
 * The batch's missed alerts (those not held back) with the host of each monitor's last run, those of one account
 * and host grouped into one message (domain/alert-groups.ts): the host most likely died.
 */
function groupMissed(lastRuns: Map<string, LastRun>): (alerts: AlertRecord[]) => AlertRecord[] {
  const hosts = new Map([...lastRuns].flatMap(([id, run]) => (run.host === null ? [] : [[id, run.host] as const])));
  return (alerts) => (alerts.length === 0 ? alerts : groupByHost(alerts, hosts));
}

/** Missed slots counted per sweep (for the incident's count and the message); a bound for a long gap's loop. */
const MISSED_COUNTED = 100;

/**
 * The monitor's expected opening went by its deadline: counted as missed, and the next one expected. The alert
 * names the monitor's last run (`lastRun`), which tells a job that stopped from one that failed to start.
 */
function missed(
  monitor: MonitorRecord,
  now: number,
  lastGap: ServerGap | null,
  lastRun: LastRun | undefined,
  quiet: Quiet,
): Decision {
  const { monitorId, schedule, nextExpectedAt: expected } = monitor;
  if (schedule === null || expected === null || monitor.paused) {
    // Nothing to expect (a change raced the claim): the deadline goes.
    return { monitorId, state: { ...monitor, missedAt: null }, alert: null };
  }
  const graceMs = monitor.startGrace * 1000;
  const counts = (slot: number) => slotCounts(quiet, slot, graceMs);
  const threshold = Math.max(monitor.failureThreshold, MISSED_COUNTED);
  const slots = afterMiss(schedule, expected, graceMs, now, threshold, counts);
  const next = { nextExpectedAt: slots.next, missedAt: slots.next + graceMs };
  const quietCount = slots.skipped;
  // Slots expected in a snooze or a maintenance window do not count: no streak, no incident; on the timeline still.
  if (slots.missed === 0 && quietCount > 0) {
    const events = eventRecords(
      monitor,
      [{ kind: 'missed', expectedAt: expected, count: quietCount, quietCount }],
      now,
    );
    return { monitorId, state: { ...next, health: monitor.health }, alert: null, events };
  }
  const count = Math.max(1, slots.missed);
  const { health, alert } = afterOutcome(monitor.health, monitor, { kind: 'missed', count }, now);
  const state = { ...next, health };
  const events = eventRecords(
    monitor,
    [
      { kind: 'missed', expectedAt: expected, count: count + quietCount, quietCount },
      ...incidentEvents(monitor.health.incident, health.incident, null, 'recovered'),
    ],
    now,
  );
  if (alert === null) return { monitorId, state, alert: null, events };
  const serverGap = gapOfExpected(lastGap, expected, graceMs);
  const last = {
    lastRunAt: lastRun?.startedAt ?? monitor.lastOpenedAt,
    lastRunStatus: lastRun?.status ?? null,
  };
  const errorMessage =
    `${missedText(schedule, expected, monitor.startGrace, count, serverGap)} ` +
    lastRunText(last.lastRunAt, last.lastRunStatus, schedule);
  const fields = { status: 'down' as const, runId: null, errorMessage, expectedAt: expected, ...last };
  return { monitorId, state, alert: { ...alertOf(monitor, alert, fields, health.incident, now), serverGap }, events };
}

const DONE = { success: 'succeeded', failed: 'failed', running: 'still running' } as const;

/** "Last run: started 2027-03-27 03:00 CET (02:00 UTC), succeeded." A run deleted by retention has no status. */
function lastRunText(at: number | null, status: RunStatus | null, schedule: StoredSchedule): string {
  if (at === null) return 'It has never run.';
  const when = 'cron' in schedule ? localText(at, schedule.timezone) : iso(at);
  return `Last run: started ${when}, ${status === null ? 'no longer kept' : DONE[status]}.`;
}

function missedText(
  schedule: StoredSchedule,
  expected: number,
  graceSeconds: number,
  count: number,
  serverGap: ServerGap | null,
): string {
  const when = 'cron' in schedule ? localText(expected, schedule.timezone) : iso(expected);
  const what =
    count > 1
      ? `${count} expected runs in a row did not start; the first was expected at ${when}`
      : `No run started by ${iso(expected + graceSeconds * 1000)}: one was expected at ${when}`;
  const moved =
    serverGap !== null
      ? ` pingmon was not running (or could not reach its database) from ${iso(serverGap.from)} to ` +
        `${iso(serverGap.to)}; the grace was counted again from its restart.`
      : '';
  return `${what} (startGrace ${formatDuration(graceSeconds)}).${moved}`;
}

/** "2027-03-28 03:00 CEST (01:00 UTC)" */
function localText(at: number, timezone: string): string {
  const local = localTime(at, timezone);
  const utc = iso(at);
  return `${local.local.slice(0, 10)} ${local.local.slice(11, 16)} ${local.zone} (${utc.slice(11, 16)} UTC)`;
}

/**
 * Runs past their maxRuntime are finished as failed, with the health and alerts that follows for their
 * monitors. A run whose monitor a ping holds (PostgreSQL) waits for the next sweep, as does a run that got its
 * result meanwhile (it is not timed out at all).
 */
async function timedOut(
  sql: TransactionSql,
  overdue: readonly OverdueRun[],
  now: number,
): Promise<{ handled: number; queued: number }> {
  // The monitors' rows first, as a ping takes them: a ping finishing one of these runs holds its monitor.
  const monitors = new Map(
    (await claimMonitors(sql, [...new Set(overdue.map((r) => r.monitorId))])).map((m) => [m.monitorId, m]),
  );
  const byLimit = new Map<number, OverdueRun[]>();
  for (const run of overdue) {
    const monitor = monitors.get(run.monitorId);
    if (monitor === undefined) continue;
    if (monitor.paused || monitor.maxRuntime === null) {
      // A deadline it should not have (a change raced the run's start): dropped, so that it is not found again.
      await setRunDeadlines(sql, monitor.monitorId, null);
      continue;
    }
    byLimit.set(monitor.maxRuntime, [...(byLimit.get(monitor.maxRuntime) ?? []), run]);
  }
  const decisions = new Map<string, Decision>();
  const alerts: AlertRecord[] = [];
  const events: EventRecord[] = [];
  let handled = 0;
  for (const [limit, runs] of byLimit) {
    const errorMessage = `no result within maxRuntime (${formatDuration(limit)})`;
    const failure = { errorMessage, fingerprint: fingerprint(errorMessage, null) };
    const ended = await timeOutRuns(sql, runs, now, failure);
    const lastWords = await keepLastWords(sql, ended);
    for (const run of ended) {
      handled++;
      const monitor = monitors.get(run.monitorId)!;
      const before = decisions.get(run.monitorId)?.state.health ?? monitor.health;
      const { health, alert } = afterOutcome(before, monitor, { kind: 'timed_out' }, now);
      const timeout = { kind: 'timed_out' as const, runId: run.runId, maxRuntime: limit };
      events.push(
        ...eventRecords(
          monitor,
          [timeout, ...incidentEvents(before.incident, health.incident, run.runId, 'recovered')],
          now,
        ),
      );
      decisions.set(run.monitorId, { monitorId: run.monitorId, state: { ...monitor, health }, alert: null });
      if (alert === null) continue;
      const fields = { status: 'failed' as const, runId: run.runId, errorMessage, expectedAt: null };
      const repeats = alert === 'timed_out' ? await countRepeats(sql, run) : null;
      alerts.push({ ...alertOf(monitor, alert, fields, health.incident, now), ...lastWords.get(run.runId), repeats });
    }
  }
  await saveMonitorStates(sql, [...decisions.values()]);
  await insertEvents(sql, events);
  return { handled, queued: await insertAlerts(sql, await holdBack(sql, alerts, [...monitors.values()], now)) };
}

/** A reminder that the monitor is still down; the next one renotifyAfter later. */
function remind(monitor: MonitorRecord, now: number): Decision {
  const { incident } = monitor.health;
  const remindAt = incident === null || monitor.paused ? null : reminderAfter(monitor, now);
  const state = { ...monitor, health: { ...monitor.health, remindAt } };
  if (incident === null || remindAt === null) return { monitorId: monitor.monitorId, state, alert: null };
  const summary = incidentSummary(incident, now);
  const errorMessage = `Still down: ${summary} (since ${iso(incident.openedAt)}, ${CAUSES[incident.cause]}).`;
  const fields = { status: 'down' as const, runId: null, errorMessage, expectedAt: null };
  return { monitorId: monitor.monitorId, state, alert: alertOf(monitor, 'still_down', fields, incident, now) };
}

const CAUSES = { fail: 'a run failed', missed: 'a run did not start', timed_out: 'a run timed out' } as const;

function alertOf(
  monitor: MonitorRecord,
  event: AlertEvent,
  fields: {
    status: RunStatus | MonitorStatus;
    runId: string | null;
    errorMessage: string;
    expectedAt: number | null;
    lastRunAt?: number | null;
    lastRunStatus?: RunStatus | null;
  },
  /** The incident open after it. */
  incident: Incident | null,
  now: number,
): AlertRecord {
  return {
    alertId: newId('alert', now),
    accountId: monitor.accountId,
    event,
    monitorId: monitor.monitorId,
    runId: fields.runId,
    status: fields.status,
    errorMessage: fields.errorMessage,
    logSnippet: null,
    // A run's log comes with its result; a run that timed out has the last words of its live output, if any.
    logTail: null,
    meta: {},
    matchedRules: [],
    expectedAt: fields.expectedAt,
    lastRunAt: fields.lastRunAt ?? null,
    lastRunStatus: fields.lastRunStatus ?? null,
    incidentKey: incidentKey(monitor.monitorId, incident),
    cause: incident?.cause ?? null,
    createdAt: now,
  };
}
