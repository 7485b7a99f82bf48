import type { Sql } from './sql.js';

// Logs have their own table so that no list of runs ever reads them.

export async function insertRunLog(
  sql: Sql,
  log: { monitorId: string; runId: string; content: string },
): Promise<void> {
  await sql.changes('insert into run_logs (monitor_id, run_id, content) values (?, ?, ?)', [
    log.monitorId,
    log.runId,
    log.content,
  ]);
}

export async function findRunLog(sql: Sql, monitorId: string, runId: string): Promise<string | undefined> {
  const [row] = await sql.rows<{ content: string }>(
    'select content from run_logs where monitor_id = ? and run_id = ?',
    [monitorId, runId],
  );
  return row?.content;
}
