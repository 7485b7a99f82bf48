import type { OutputWindow } from '../domain/run-output.js';
import type { Sql, TransactionSql } from './sql.js';

// The live output of running runs (domain/run-output.ts): one row per run, deleted with it.

interface OutputRow {
  monitor_id: string;
  run_id: string;
  content: string;
  from_offset: number | string;
  to_offset: number | string;
}

const toWindow = (row: OutputRow): OutputWindow => ({
  text: row.content,
  from: Number(row.from_offset),
  to: Number(row.to_offset),
});

export async function findRunOutput(sql: Sql, monitorId: string, runId: string): Promise<OutputWindow | undefined> {
  const [row] = await sql.rows<OutputRow>(
    'select monitor_id, run_id, content, from_offset, to_offset from run_outputs where monitor_id = ? and run_id = ?',
    [monitorId, runId],
  );
  return row && toWindow(row);
}

/** Writes a run's window; its run's row is the caller's (locked), so no other writer races this one. */
export async function saveRunOutput(
  sql: TransactionSql,
  run: { monitorId: string; runId: string },
  window: OutputWindow,
  now: number,
): Promise<void> {
  await sql.changes(
    'insert into run_outputs (monitor_id, run_id, content, from_offset, to_offset, updated_at) ' +
      'values (?, ?, ?, ?, ?, ?) on conflict (monitor_id, run_id) do update set content = excluded.content, ' +
      'from_offset = excluded.from_offset, to_offset = excluded.to_offset, updated_at = excluded.updated_at',
    [run.monitorId, run.runId, window.text, window.from, window.to, now],
  );
}

/** The windows of these runs, by `monitorId runId`. */
export async function findRunOutputs(
  sql: Sql,
  runs: readonly { monitorId: string; runId: string }[],
): Promise<Map<string, OutputWindow>> {
  if (runs.length === 0) return new Map();
  const rows = await sql.rows<OutputRow>(
    'select monitor_id, run_id, content, from_offset, to_offset from run_outputs ' +
      `where (monitor_id, run_id) in (values ${runs.map(() => '(?, ?)').join(', ')})`,
    runs.flatMap((r) => [r.monitorId, r.runId]),
  );
  return new Map(rows.map((row) => [`${row.monitor_id} ${row.run_id}`, toWindow(row)]));
}

/**
 * Deletes the windows of runs that ended before `endedBefore`: kept a while past the end so that a follower
 * polling once a second reads the last lines. Answers how many went.
 */
export async function deleteEndedOutputs(sql: Sql, endedBefore: number): Promise<number> {
  return sql.changes(
    'delete from run_outputs where exists (select 1 from runs where runs.monitor_id = run_outputs.monitor_id ' +
      "and runs.id = run_outputs.run_id and runs.status <> 'running' and runs.finished_at < ?)",
    [endedBefore],
  );
}

/** Marks these runs as having a log (the timed-out runs whose window became their log). */
export async function markLogged(sql: TransactionSql, runs: readonly { monitorId: string; runId: string }[]) {
  if (runs.length === 0) return;
  await sql.changes(
    `update runs set has_log = ? where (monitor_id, id) in (values ${runs.map(() => '(?, ?)').join(', ')})`,
    [true, ...runs.flatMap((r) => [r.monitorId, r.runId])],
  );
}
