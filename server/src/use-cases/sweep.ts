import { formatDuration } from '@pingmon/sdk/wire';
import type { AlertEvent, MonitorStatus, RunStatus } from '@pingmon/sdk/wire';
import { insertAlert } from '../db/alerts.js';
import type { Database } from '../db/index.js';
import type { MonitorRecord } from '../db/monitors.js';
import { claimMissed, claimMonitor, claimReminders, moveMissedDeadlines, saveMonitorState } from '../db/monitors.js';
import type { OverdueRun } from '../db/runs.js';
import { findOverdueRuns, moveRunDeadlines, setRunDeadlines, timeOutRun } from '../db/runs.js';
import type { Outage } from '../db/settings.js';
import { beat, findOutage, saveOutage } from '../db/settings.js';
import type { TransactionSql } from '../db/sql.js';
import { afterOutcome, healthChanged, reminderAfter } from '../domain/incidents.js';
import type { StoredSchedule } from '../domain/schedule.js';
import { afterMiss, localTime } from '../domain/schedule.js';
import { newId } from '../ids.js';
import { iso } from '../presenter.js';

// The sweeper's work (docs/schedules.md): expected openings past their deadline, runs past their maxRuntime,
// and reminders while down. Every server runs it; each due row is claimed in the database (a locked row is
// skipped by the others on PostgreSQL; SQLite has one writer), so each alert is raised once.

export interface SweepResult {
  missed: number;
  timedOut: number;
  reminded: number;
  /** Alert deliveries written to the outbox. */
  queued: number;
  /** The gap this sweep found since the last one anywhere, when it was long enough to count as an outage. */
  outage: Outage | null;
}

/** Due rows handled per transaction, and transactions per kind per sweep: the rest waits for the next sweep. */
const BATCH = 500;
const MAX_BATCHES = 20;

/**
 * One sweep at `now`. A gap over `outageAfterMs` since the last sweep on this database means no pingmon
 * server was sweeping: deadlines that fell in it are counted again from now instead of all firing at once.
 */
export async function sweep(db: Database, now: number, outageAfterMs: number): Promise<SweepResult> {
  const outage = await db.transaction(async (sql) => {
    const previous = await beat(sql, now);
    if (previous === null || now - previous <= outageAfterMs) return null;
    const found = { from: previous, to: now };
    await saveOutage(sql, found);
    await moveMissedDeadlines(sql, previous, now);
    await moveRunDeadlines(sql, previous, now);
    return found;
  });
  const lastOutage = outage ?? (await findOutage(db.sql));
  const result: SweepResult = { missed: 0, timedOut: 0, reminded: 0, queued: 0, outage };
  await batches(async () => {
    const { handled, queued } = await db.transaction(async (sql) => {
      const due = await claimMissed(sql, now, BATCH);
      let count = 0;
      for (const monitor of due) count += await missed(sql, monitor, now, lastOutage);
      return { handled: due.length, queued: count };
    });
    result.missed += handled;
    result.queued += queued;
    return handled;
  });
  await batches(async () => {
    const overdue = await findOverdueRuns(db.sql, now, BATCH);
    if (overdue.length === 0) return 0;
    const { handled, queued } = await db.transaction(async (sql) => {
      let count = 0;
      let done = 0;
      for (const run of overdue) {
        const raised = await timedOut(sql, run, now);
        if (raised === null) continue;
        done++;
        count += raised;
      }
      return { handled: done, queued: count };
    });
    result.timedOut += handled;
    result.queued += queued;
    // Rows skipped (held by a ping) are found again next sweep; only a full batch done calls for another now.
    return handled === overdue.length ? handled : 0;
  });
  await batches(async () => {
    const { handled, queued } = await db.transaction(async (sql) => {
      const due = await claimReminders(sql, now, BATCH);
      let count = 0;
      for (const monitor of due) count += await remind(sql, monitor, now);
      return { handled: due.length, queued: count };
    });
    result.reminded += handled;
    result.queued += queued;
    return handled;
  });
  return result;
}

/** Runs `batch` again while it handles full batches, at most MAX_BATCHES times. */
async function batches(batch: () => Promise<number>): Promise<void> {
  for (let i = 0; i < MAX_BATCHES && (await batch()) === BATCH; i++);
}

/** The monitor's expected opening went by its deadline: counted as missed, and the next one expected. */
async function missed(sql: TransactionSql, monitor: MonitorRecord, now: number, outage: Outage | null) {
  const schedule = monitor.schedule;
  const expected = monitor.nextExpectedAt;
  if (schedule === null || expected === null || monitor.paused) {
    // Nothing to expect (a change raced the claim): the deadline goes.
    await saveMonitorState(sql, monitor.monitorId, { ...monitor, missedAt: null });
    return 0;
  }
  const graceMs = monitor.startGrace * 1000;
  const slots = afterMiss(schedule, expected, graceMs, now, monitor.failureThreshold);
  const count = Math.max(1, slots.missed);
  const { health, alert } = afterOutcome(monitor.health, monitor, { kind: 'missed', count }, now);
  await saveMonitorState(sql, monitor.monitorId, {
    nextExpectedAt: slots.next,
    missedAt: slots.next + graceMs,
    health,
  });
  if (alert === null) return 0;
  const text = missedText(schedule, expected, monitor.startGrace, count, outage);
  return raise(sql, monitor, alert, { status: 'down', runId: null, errorMessage: text, expectedAt: expected }, now);
}

function missedText(
  schedule: StoredSchedule,
  expected: number,
  graceSeconds: number,
  count: number,
  outage: Outage | null,
): string {
  const when = 'cron' in schedule ? localText(expected, schedule.timezone) : iso(expected);
  const what =
    count > 1
      ? `${count} expected runs in a row did not start; the first was expected at ${when}`
      : `No run started by ${iso(expected + graceSeconds * 1000)}: one was expected at ${when}`;
  const deadline = expected + graceSeconds * 1000;
  const moved =
    outage !== null && deadline > outage.from && deadline <= outage.to
      ? ` pingmon was not running (or could not reach its database) from ${iso(outage.from)} to ` +
        `${iso(outage.to)}; the grace was counted again from its restart.`
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
 * A run past its maxRuntime is finished as failed. Null when it was not (its monitor is held by a ping, or
 * the run got its result meanwhile); else the deliveries queued.
 */
async function timedOut(sql: TransactionSql, run: OverdueRun, now: number): Promise<number | null> {
  // The monitor's row first, as a ping takes it: a ping finishing this run holds it, and the run waits a sweep.
  const monitor = await claimMonitor(sql, run.monitorId);
  if (monitor === undefined) return null;
  if (monitor.paused || monitor.maxRuntime === null) {
    // A deadline it should not have (a change raced the run's start): dropped, so that it is not found again.
    await setRunDeadlines(sql, monitor.monitorId, null);
    return null;
  }
  const message = `no result within maxRuntime (${formatDuration(monitor.maxRuntime)})`;
  if (!(await timeOutRun(sql, run, now, message))) return null;
  const { health, alert } = afterOutcome(monitor.health, monitor, { kind: 'timed_out' }, now);
  if (healthChanged(monitor.health, health)) await saveMonitorState(sql, monitor.monitorId, { ...monitor, health });
  if (alert === null) return 0;
  const fields = { status: 'failed' as const, runId: run.runId, errorMessage: message, expectedAt: null };
  return raise(sql, monitor, alert, fields, now);
}

/** A reminder that the monitor is still down; the next one renotifyAfter later. */
async function remind(sql: TransactionSql, monitor: MonitorRecord, now: number): Promise<number> {
  const { incident } = monitor.health;
  const remindAt = incident === null || monitor.paused ? null : reminderAfter(monitor, now);
  await saveMonitorState(sql, monitor.monitorId, { ...monitor, health: { ...monitor.health, remindAt } });
  if (incident === null || remindAt === null) return 0;
  const since = formatDuration((now - incident.openedAt) / 1000);
  const errorMessage = `Still down, for ${since} now (since ${iso(incident.openedAt)}, ${CAUSES[incident.cause]}).`;
  return raise(sql, monitor, 'still_down', { status: 'down', runId: null, errorMessage, expectedAt: null }, now);
}

const CAUSES = { fail: 'a run failed', missed: 'a run did not start', timed_out: 'a run timed out' } as const;

async function raise(
  sql: TransactionSql,
  monitor: MonitorRecord,
  event: AlertEvent,
  fields: {
    status: RunStatus | MonitorStatus;
    runId: string | null;
    errorMessage: string;
    expectedAt: number | null;
  },
  now: number,
): Promise<number> {
  return insertAlert(sql, {
    alertId: newId('alert', now),
    accountId: monitor.accountId,
    event,
    monitorId: monitor.monitorId,
    runId: fields.runId,
    status: fields.status,
    errorMessage: fields.errorMessage,
    logSnippet: null,
    meta: {},
    matchedRules: [],
    expectedAt: fields.expectedAt,
    createdAt: now,
  });
}
