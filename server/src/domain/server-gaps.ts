// When no pingmon server was sweeping (docs/schedules.md#when-pingmon-itself-was-down), and what the expected runs
// of that time get. Pure: the sweeper gathers the rows and the facts about this host, and stores what it answers.

/** A time when no pingmon server was sweeping, epoch ms. */
export interface ServerGap {
  from: number;
  to: number;
}

/** One server process's sweeper as the database remembers it. */
export interface SweeperRow {
  sweeperId: string;
  intervalMs: number;
  beatAt: number;
  /** When it stopped cleanly (or was found dead: its last beat); null while it may be running. */
  stoppedAt: number | null;
}

/**
 * The least fresh grace after a gap: a job host's background flush empties its spool within about 15 s of the
 * server coming back (docs/cli.md); two minutes leave room for a host that is itself slow to notice.
 */
export const MIN_FRESH_GRACE_MS = 120_000;

/** A sweeper that has not beaten for this many of its intervals is not sweeping any more. */
const LIVE_INTERVALS = 3;

/** The grace an expected run whose time fell in a gap gets again, counted from when sweeping resumed. */
export function freshGraceMs(startGraceSeconds: number): number {
  return Math.max(startGraceSeconds * 1000, MIN_FRESH_GRACE_MS);
}

/** Whether `row` may still be sweeping at `now`: not stopped, not known gone, and beating in its own rhythm. */
export function mayBeSweeping(row: SweeperRow, gone: ReadonlySet<string>, now: number): boolean {
  return row.stoppedAt === null && !gone.has(row.sweeperId) && now - row.beatAt <= LIVE_INTERVALS * row.intervalMs;
}

/**
 * A sweeper that resumes at `now` (its process starting, or reaching the database again) while `running` are the
 * other sweepers not known to have stopped: the gap since `lastSeen` (the last stop or beat of any sweeper),
 * unless one of them may still be sweeping.
 */
export function gapOnResume(
  running: readonly SweeperRow[],
  gone: ReadonlySet<string>,
  lastSeen: number | null,
  now: number,
): ServerGap | null {
  if (running.some((row) => mayBeSweeping(row, gone, now))) return null;
  return lastSeen === null || lastSeen >= now ? null : { from: lastSeen, to: now };
}

/**
 * The gap an alert about the expected run at `expectedAt` names: the run was due (its time or its grace) while
 * no server was sweeping.
 */
export function gapOfExpected(gap: ServerGap | null, expectedAt: number, graceMs: number): ServerGap | null {
  return gap !== null && expectedAt <= gap.to && expectedAt + graceMs >= gap.from ? gap : null;
}
