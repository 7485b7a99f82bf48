import type { TransactionSql } from '../db/sql.js';
import { moveHeldAlerts, moveMissedDeadlines } from '../db/monitors.js';
import { moveRunDeadlines } from '../db/runs.js';
import { beat, saveOutage } from '../db/settings.js';
import type { SweeperRecord } from '../db/sweepers.js';
import { beatSweeper, closeSweepers, findBeat, forgetSweepers, lastStop, listRunningSweepers } from '../db/sweepers.js';
import type { ServerGap } from '../domain/server-gaps.js';
import { gapOnResume, MIN_FRESH_GRACE_MS, mayBeSweeping } from '../domain/server-gaps.js';

/** This process's sweeper, as its row names it. */
export type SweeperSelf = Omit<SweeperRecord, 'beatAt' | 'stoppedAt'>;

export interface GapWatch {
  self: SweeperSelf;
  /** Its first sweep, or the first since it could not reach the database: it was not sweeping until now. */
  resuming: boolean;
  /**
   * When this process's last sweep began, null before its first. A sweep can fail after its beat was stored (a
   * later batch): then this process was sweeping, and its beat at that time says so.
   */
  lastSweepAt: number | null;
  /** A gap over this since any server's last sweep means none was sweeping (all frozen, or without a database). */
  outageAfterMs: number;
  /** Whether another sweeper's process is known gone: on this host, its pid runs no more (or is this process's). */
  isGone(row: SweeperRecord): boolean;
}

/**
 * Beats for this process at `now` and answers the gap that ends now, if no server was sweeping before it. Each
 * expected run and maxRuntime deadline that fell in it gets a fresh grace from now (docs/schedules.md). The
 * database-wide beat comes first: its row lock makes servers that resume together decide one after the other.
 */
export async function beatAndFindGap(sql: TransactionSql, now: number, watch: GapWatch): Promise<ServerGap | null> {
  const previous = await beat(sql, now);
  let gap: ServerGap | null = null;
  if (watch.resuming && !(await beatStored(sql, watch))) {
    const running = await listRunningSweepers(sql, watch.self.sweeperId);
    const gone = new Set(running.filter((row) => watch.isGone(row)).map((row) => row.sweeperId));
    await closeSweepers(
      sql,
      running.filter((row) => !mayBeSweeping(row, gone, now)),
    );
    await forgetSweepers(sql);
    const stopped = await lastStop(sql);
    const lastSeen = stopped === null || previous === null ? (stopped ?? previous) : Math.max(stopped, previous);
    gap = gapOnResume(running, gone, lastSeen, now);
  } else if (previous !== null && now - previous > watch.outageAfterMs) {
    gap = { from: previous, to: now };
  }
  await beatSweeper(sql, { ...watch.self, beatAt: now });
  if (gap !== null) {
    await saveOutage(sql, gap);
    await moveMissedDeadlines(sql, gap, MIN_FRESH_GRACE_MS);
    await moveRunDeadlines(sql, gap, MIN_FRESH_GRACE_MS);
    await moveHeldAlerts(sql, gap, MIN_FRESH_GRACE_MS);
  }
  return gap;
}

/** Whether this process's last sweep stored its beat, so that it was sweeping until then. */
async function beatStored(sql: TransactionSql, watch: GapWatch): Promise<boolean> {
  return watch.lastSweepAt !== null && (await findBeat(sql, watch.self.sweeperId)) === watch.lastSweepAt;
}
