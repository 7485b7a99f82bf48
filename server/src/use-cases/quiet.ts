import { formatDuration } from '@pingmon/sdk/wire';
import type { AlertEvent } from '@pingmon/sdk/wire';
import type { AlertRecord } from '../db/alerts.js';
import { insertAlerts } from '../db/alerts.js';
import { listOfAccounts } from '../db/maintenance-windows.js';
import type { MonitorRecord, Quieting } from '../db/monitors.js';
import { claimHeld, saveHolds } from '../db/monitors.js';
import { findLastRuns } from '../db/runs.js';
import type { TransactionSql } from '../db/sql.js';
import type { Hold, Quiet } from '../domain/quiet.js';
import { covers, heldAlert, holdAlert, quietUntil } from '../domain/quiet.js';
import { newId } from '../ids.js';
import { iso } from '../presenter.js';

// Quiet on purpose (docs/schedules.md#snooze-and-maintenance-windows), where pings and the sweeper meet it:
// the alerts of a quiet monitor are held back, and the sweeper raises the one still due when the quiet ends.

/** What the quiet of a monitor is read from. */
export interface Quietable extends Quieting {
  monitorId: string;
  accountId: string;
}

/** The alerts that stand for a problem: held back while quiet, and raised at its end if it is still there. */
const PROBLEMS: ReadonlySet<AlertEvent> = new Set(['fail', 'timed_out', 'missed', 'still_down']);

/** Each monitor's snooze and its account's windows that cover it; one query for all of them. */
export async function findQuiet(sql: TransactionSql, monitors: readonly Quietable[]): Promise<Map<string, Quiet>> {
  const windows = await listOfAccounts(sql, [...new Set(monitors.map((m) => m.accountId))]);
  return new Map(
    monitors.map((m) => [
      m.monitorId,
      {
        snoozedUntil: m.snoozedUntil,
        windows: windows.filter((w) => w.accountId === m.accountId && covers(w, m.monitorId)),
      },
    ]),
  );
}

/**
 * Of `alerts` raised at `now`, those of quiet monitors are held back: a problem leaves a hold on its monitor
 * (stored here; its row is the caller's), the rest (silent_failure, recovered) simply go. Answers the alerts to
 * raise; every alert's monitor is among `monitors`. Reads nothing when there is no alert.
 */
export async function holdBack(
  sql: TransactionSql,
  alerts: readonly AlertRecord[],
  monitors: readonly Quietable[],
  now: number,
): Promise<AlertRecord[]> {
  if (alerts.length === 0) return [];
  const alerting = monitors.filter((m) => alerts.some((a) => a.monitorId === m.monitorId));
  const quiet = await findQuiet(sql, alerting);
  const holds = new Map<string, Hold | null>();
  const raised: AlertRecord[] = [];
  for (const alert of alerts) {
    const monitor = alerting.find((m) => m.monitorId === alert.monitorId)!;
    const end = quietUntil(quiet.get(monitor.monitorId)!, now);
    const problem = PROBLEMS.has(alert.event);
    if (end === null) {
      raised.push(alert);
      // A problem told now is the one a hold would tell at the quiet's end (which is over): told once.
      if (problem && monitor.hold !== null) holds.set(monitor.monitorId, null);
    } else if (problem) {
      holds.set(monitor.monitorId, holdAlert(holds.get(monitor.monitorId) ?? monitor.hold, end, now));
    }
  }
  await saveHolds(
    sql,
    [...holds].map(([monitorId, hold]) => ({ monitorId, hold })),
  );
  return raised;
}

/**
 * The sweeper's part: monitors whose quiet was due to end with alerts held back. One still quiet (a longer
 * snooze, the next window) is looked at again at its new end; one down raises one alert; one up, none.
 */
export async function endHolds(
  sql: TransactionSql,
  now: number,
  limit: number,
): Promise<{ handled: number; queued: number }> {
  const due = await claimHeld(sql, now, limit);
  if (due.length === 0) return { handled: 0, queued: 0 };
  const quiet = await findQuiet(sql, due);
  const lastRuns = await findLastRuns(
    sql,
    due.map((m) => m.monitorId),
  );
  const holds: Array<{ monitorId: string; hold: Hold | null }> = [];
  const alerts: AlertRecord[] = [];
  for (const monitor of due) {
    const end = monitor.paused ? null : quietUntil(quiet.get(monitor.monitorId)!, now);
    const hold = monitor.hold!;
    holds.push({ monitorId: monitor.monitorId, hold: end === null ? null : { ...hold, until: end } });
    const event = end === null && !monitor.paused ? heldAlert(monitor.health, hold) : null;
    if (event === null) continue;
    const last = lastRuns.get(monitor.monitorId);
    alerts.push(releasedAlert(monitor, event, hold, now, last?.startedAt ?? null, last?.status ?? null));
  }
  await saveHolds(sql, holds);
  return { handled: due.length, queued: await insertAlerts(sql, alerts) };
}

const CAUSES = { fail: 'a run failed', missed: 'a run did not start', timed_out: 'a run timed out' } as const;

function releasedAlert(
  monitor: MonitorRecord,
  event: AlertEvent,
  hold: Hold,
  now: number,
  lastRunAt: number | null,
  lastRunStatus: AlertRecord['lastRunStatus'],
): AlertRecord {
  const incident = monitor.health.incident!;
  const errorMessage =
    `Still down at the end of its quiet time (snoozed or in a maintenance window): down for ` +
    `${formatDuration((now - incident.openedAt) / 1000)}, since ${iso(incident.openedAt)} ` +
    `(${CAUSES[incident.cause]}). Alerts were held back from ${iso(hold.since)} to ${iso(now)}.`;
  return {
    alertId: newId('alert', now),
    accountId: monitor.accountId,
    event,
    monitorId: monitor.monitorId,
    runId: null,
    status: 'down',
    errorMessage,
    logSnippet: null,
    logTail: null,
    meta: {},
    matchedRules: [],
    expectedAt: null,
    lastRunAt,
    lastRunStatus,
    createdAt: now,
  };
}

/**
 * A ping's alerts at `now` (`event`, and maybe a silent_failure): true when its monitor is quiet and they are
 * held back. A `fail` leaves a hold; the ping holds the monitor's row for update whenever it raises one.
 */
export async function holdPing(
  sql: TransactionSql,
  monitor: Quietable & Pick<MonitorRecord, 'health'>,
  event: AlertEvent | null,
  now: number,
): Promise<boolean> {
  const quiet = (await findQuiet(sql, [monitor])).get(monitor.monitorId)!;
  const end = quietUntil(quiet, now);
  const { monitorId, hold } = monitor;
  if (end === null) {
    if (hold === null) return false;
    // A hold not yet released: a failure now is told instead, and an incident opened under it was never told, so
    // neither is its recovery.
    const untold = event === 'recovered' && (monitor.health.incident?.openedAt ?? -Infinity) >= hold.since;
    if (event === 'fail' || untold) await saveHolds(sql, [{ monitorId, hold: null }]);
    return untold;
  }
  if (event === 'fail') await saveHolds(sql, [{ monitorId, hold: holdAlert(monitor.hold, end, now) }]);
  return true;
}
