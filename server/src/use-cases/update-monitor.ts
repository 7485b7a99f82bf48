import type { Database } from '../db/index.js';
import { isUniqueViolation } from '../db/index.js';
import type { MonitorRecord, MonitorSettings } from '../db/monitors.js';
import { findMonitorForUpdate, updateMonitor as storeMonitor } from '../db/monitors.js';
import { setRunDeadlines } from '../db/runs.js';
import { settingEvents } from '../domain/events.js';
import { changeScheduling } from '../domain/monitor-settings.js';
import { recordEvents } from './events.js';

export interface MonitorChanges {
  name?: string;
  slug?: string;
  settings: Partial<MonitorSettings>;
  /** Epoch ms; null ends the snooze; undefined leaves it as it is. */
  snoozedUntil?: number | null;
}

export type UpdateOutcome =
  | { kind: 'updated'; monitor: MonitorRecord }
  | { kind: 'not_found' }
  /** Another monitor of the account has the slug asked for. */
  | { kind: 'slug_taken'; slug: string };

/**
 * Changes a monitor's name and settings in one transaction with its row held: a ping or sweep waits, or went first.
 */
export async function updateMonitor(
  db: Database,
  accountId: string,
  monitorId: string,
  changes: MonitorChanges,
  now: number,
): Promise<UpdateOutcome> {
  try {
    const monitor = await change(db, accountId, monitorId, changes, now);
    return monitor ? { kind: 'updated', monitor } : { kind: 'not_found' };
  } catch (err) {
    // The slug is the one unique column a change writes.
    if (changes.slug !== undefined && isUniqueViolation(err)) return { kind: 'slug_taken', slug: changes.slug };
    throw err;
  }
}

function change(db: Database, accountId: string, monitorId: string, changes: MonitorChanges, now: number) {
  return db.transaction(async (sql) => {
    const current = await findMonitorForUpdate(sql, accountId, monitorId);
    if (!current) return undefined;
    const next: MonitorRecord = {
      ...current,
      ...changeScheduling(current, changes.settings, now),
      ...changeQuiet(current, changes.snoozedUntil, changes.settings.paused, now),
      name: changes.name ?? current.name,
      slug: changes.slug ?? current.slug,
    };
    await storeMonitor(sql, next);
    await recordEvents(sql, next, settingEvents(current, next, now), now);
    if (next.paused !== current.paused || next.maxRuntime !== current.maxRuntime) {
      await setRunDeadlines(sql, monitorId, next.paused ? null : next.maxRuntime);
    }
    return next;
  });
}

/**
 * The snooze as changed. Held-back alerts are looked at again at the next sweep when the snooze changes (it may
 * have ended), and dropped when the monitor is paused (it raises nothing, and resumes afresh).
 */
function changeQuiet(
  current: MonitorRecord,
  snooze: number | null | undefined,
  paused: boolean | undefined,
  now: number,
) {
  const snoozedUntil = snooze === undefined ? current.snoozedUntil : snooze;
  if (paused === true || current.hold === null) return { snoozedUntil, hold: null };
  return { snoozedUntil, hold: snooze === undefined ? current.hold : { ...current.hold, until: now } };
}
