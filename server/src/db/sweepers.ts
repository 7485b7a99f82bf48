import { ms } from './index.js';
import type { SweeperRow } from '../domain/server-gaps.js';
import type { Sql, TransactionSql } from './sql.js';

/** A server process's sweeper: who it is, so that a process on the same host can tell whether it still runs. */
export interface SweeperRecord extends SweeperRow {
  host: string;
  pid: number;
  processStartedAt: number;
}

interface SweeperDbRow {
  id: string;
  host: string;
  pid: number;
  process_started_at: number | string;
  interval_ms: number;
  beat_at: number | string;
  stopped_at: number | string | null;
}

function toRecord(row: SweeperDbRow): SweeperRecord {
  return {
    sweeperId: row.id,
    host: row.host,
    pid: Number(row.pid),
    processStartedAt: ms(row.process_started_at),
    intervalMs: Number(row.interval_ms),
    beatAt: ms(row.beat_at),
    stoppedAt: ms(row.stopped_at),
  };
}

/** Every sweeper not yet known to have stopped, but `sweeperId`'s own. */
export async function listRunningSweepers(sql: Sql, sweeperId: string): Promise<SweeperRecord[]> {
  const rows = await sql.rows<SweeperDbRow>(
    'select id, host, pid, process_started_at, interval_ms, beat_at, stopped_at from sweepers ' +
      'where stopped_at is null and id <> ?',
    [sweeperId],
  );
  return rows.map(toRecord);
}

/** When `sweeperId` last beat; null before its first beat. */
export async function findBeat(sql: Sql, sweeperId: string): Promise<number | null> {
  const [row] = await sql.rows<{ beat_at: number | string }>('select beat_at from sweepers where id = ?', [sweeperId]);
  return row === undefined ? null : ms(row.beat_at);
}

/** When the last sweeper known to have stopped stopped; null when none has. */
export async function lastStop(sql: Sql): Promise<number | null> {
  const [row] = await sql.rows<{ at: number | string | null }>('select max(stopped_at) as at from sweepers', []);
  return row === undefined ? null : ms(row.at);
}

/** Sweepers found dead: they stopped at their last beat, unless they stopped (or beat) meanwhile. */
export async function closeSweepers(sql: TransactionSql, dead: readonly SweeperRecord[]): Promise<void> {
  for (const row of dead) {
    await sql.changes('update sweepers set stopped_at = beat_at where id = ? and stopped_at is null and beat_at = ?', [
      row.sweeperId,
      row.beatAt,
    ]);
  }
}

/** This process's sweeper beats at `now`: its row is written on its first beat. */
export async function beatSweeper(sql: TransactionSql, self: Omit<SweeperRecord, 'stoppedAt'>): Promise<void> {
  const moved = await sql.changes('update sweepers set beat_at = ? where id = ?', [self.beatAt, self.sweeperId]);
  if (moved > 0) return;
  await sql.changes(
    'insert into sweepers (id, host, pid, process_started_at, interval_ms, started_at, beat_at) ' +
      'values (?, ?, ?, ?, ?, ?, ?)',
    [self.sweeperId, self.host, self.pid, self.processStartedAt, self.intervalMs, self.beatAt, self.beatAt],
  );
}

/** A clean stop: the next server to start knows from when nobody swept. */
export async function stopSweeper(sql: Sql, sweeperId: string, at: number): Promise<void> {
  await sql.changes('update sweepers set stopped_at = ? where id = ?', [at, sweeperId]);
}

/** Sweepers that stopped, but the last to stop (its time is all a next start needs). */
export async function forgetSweepers(sql: TransactionSql): Promise<void> {
  await sql.changes(
    'delete from sweepers where stopped_at is not null and stopped_at < (select max(stopped_at) from sweepers)',
    [],
  );
}
