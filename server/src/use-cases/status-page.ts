import type { MonitorStatus } from '@pingmon/sdk/wire';
import type { Database } from '../db/index.js';
import { isUniqueViolation } from '../db/index.js';
import { isForeignKeyViolation } from '../db/sql.js';
import { findAccountIdBySlug, findAccountSlug, setAccountSlug } from '../db/accounts.js';
import { countProblemDays } from '../db/events.js';
import type { MonitorRecord } from '../db/monitors.js';
import { findMonitors } from '../db/monitors.js';
import { countRunDays, findLatestRuns } from '../db/runs.js';
import type { Sql } from '../db/sql.js';
import { findPublicMonitorId, listPublicMonitorIds, replacePublicMonitors } from '../db/status-page-monitors.js';
import { findStatusPage, saveStatusPage } from '../db/status-pages.js';
import { monitorStatus } from '../domain/incidents.js';
import type { RunRecord } from '../domain/runs.js';
import type { DayBar, DayCounts } from '../domain/uptime.js';
import { dayBars, uptimeRange } from '../domain/uptime.js';

// An account's status page: set by its admins (routes/status-page.ts), read by anyone at /status/<slug>
// (status/routes.ts). Only the monitors it names are ever read for it.

/** The page as its admins set it. */
export interface StatusPageSettings {
  slug: string | null;
  title: string | null;
  showErrorMessages: boolean;
  /** Its public monitors, in their order. */
  monitors: MonitorRecord[];
  updatedAt: number | null;
}

export async function readStatusPageSettings(sql: Sql, accountId: string): Promise<StatusPageSettings> {
  const [slug, page, monitorIds] = await Promise.all([
    findAccountSlug(sql, accountId),
    findStatusPage(sql, accountId),
    listPublicMonitorIds(sql, accountId),
  ]);
  const monitors = await findMonitors(sql, accountId, monitorIds);
  return {
    slug,
    title: page?.title ?? null,
    showErrorMessages: page?.showErrorMessages ?? false,
    monitors: monitorIds.flatMap((id) => monitors.get(id) ?? []),
    updatedAt: page?.updatedAt ?? null,
  };
}

export type SetStatusPageResult =
  { kind: 'set' } | { kind: 'slug_taken'; slug: string } | { kind: 'unknown_monitor'; monitorId: string };

/** Sets the page: its slug, title, public monitors (ids of the account's monitors) and error messages, at once. */
export async function setStatusPage(
  db: Database,
  accountId: string,
  page: { slug: string | null; title: string | null; showErrorMessages: boolean; monitorIds: readonly string[] },
  now: number,
): Promise<SetStatusPageResult> {
  const known = await findMonitors(db.sql, accountId, page.monitorIds);
  const unknown = page.monitorIds.find((id) => !known.has(id));
  if (unknown !== undefined) return { kind: 'unknown_monitor', monitorId: unknown };
  try {
    await db.transaction(async (sql) => {
      await setAccountSlug(sql, accountId, page.slug);
      await saveStatusPage(sql, {
        accountId,
        title: page.title,
        showErrorMessages: page.showErrorMessages,
        updatedAt: now,
      });
      await replacePublicMonitors(sql, accountId, page.monitorIds);
    });
  } catch (err) {
    if (page.slug !== null && isUniqueViolation(err)) return { kind: 'slug_taken', slug: page.slug };
    // A monitor deleted since it was looked up: named as any unknown one.
    if (isForeignKeyViolation(err)) {
      const still = await findMonitors(db.sql, accountId, page.monitorIds);
      const gone = page.monitorIds.find((id) => !still.has(id));
      if (gone !== undefined) return { kind: 'unknown_monitor', monitorId: gone };
    }
    throw err;
  }
  return { kind: 'set' };
}

/** A public monitor as its page shows it at `now`. */
export interface PublicMonitor {
  monitor: MonitorRecord;
  status: MonitorStatus;
  lastRun: RunRecord | undefined;
  bars: DayBar[];
}

export interface PublicPage {
  slug: string;
  title: string | null;
  showErrorMessages: boolean;
  monitors: PublicMonitor[];
}

/** The page at /status/`slug` at `now`; undefined when no account has that slug. Few statements, whatever the days. */
export async function readPublicPage(sql: Sql, slug: string, now: number): Promise<PublicPage | undefined> {
  const accountId = await findAccountIdBySlug(sql, slug);
  if (accountId === undefined) return undefined;
  const settings = await readStatusPageSettings(sql, accountId);
  const ids = settings.monitors.map((m) => m.monitorId);
  const range = uptimeRange(now);
  const [latest, runDays, problemDays] = await Promise.all([
    findLatestRuns(sql, accountId, ids),
    countRunDays(sql, accountId, ids, range),
    countProblemDays(sql, accountId, ids, range),
  ]);
  const counts = new Map<string, Map<number, DayCounts>>(ids.map((id) => [id, new Map()]));
  const countsOf = (monitorId: string, day: number) => {
    const days = counts.get(monitorId)!;
    const counted = days.get(day) ?? { runs: 0, failed: 0, missed: 0, timedOut: 0 };
    days.set(day, counted);
    return counted;
  };
  for (const d of runDays) Object.assign(countsOf(d.monitorId, d.day), { runs: d.runs, failed: d.failed });
  for (const d of problemDays) Object.assign(countsOf(d.monitorId, d.day), { missed: d.missed, timedOut: d.timedOut });
  const monitors = settings.monitors.map((monitor) => {
    const lastRun = latest.get(monitor.monitorId)?.lastRun;
    return {
      monitor,
      lastRun,
      status: monitorStatus(monitor, lastRun, now),
      bars: dayBars(range.from, monitor.createdAt, counts.get(monitor.monitorId)!),
    };
  });
  return { slug, title: settings.title, showErrorMessages: settings.showErrorMessages, monitors };
}

/** The status of the public monitor `monitorSlug` of the account of slug `accountSlug`; undefined when none is. */
export async function readPublicStatus(
  sql: Sql,
  accountSlug: string,
  monitorSlug: string,
  now: number,
): Promise<{ monitor: MonitorRecord; status: MonitorStatus } | undefined> {
  const accountId = await findAccountIdBySlug(sql, accountSlug);
  if (accountId === undefined) return undefined;
  const monitorId = await findPublicMonitorId(sql, accountId, monitorSlug);
  if (monitorId === undefined) return undefined;
  const [monitors, latest] = await Promise.all([
    findMonitors(sql, accountId, [monitorId]),
    findLatestRuns(sql, accountId, [monitorId]),
  ]);
  const monitor = monitors.get(monitorId);
  if (monitor === undefined) return undefined;
  return { monitor, status: monitorStatus(monitor, latest.get(monitorId)?.lastRun, now) };
}
