import { LOG_MAX_CHARS, LOG_SNIPPET_CHARS, truncate } from '@pingmon/sdk/wire';
import { insertRunLog } from '../db/run-logs.js';
import { deleteEndedOutputs, findRunOutputs, markLogged } from '../db/run-outputs.js';
import type { Sql, TransactionSql } from '../db/sql.js';
import { logTail } from '../domain/log-tail.js';

/** How long a run's live output is kept past its end: a follower polling once a second reads its last lines. */
export const OUTPUT_KEPT_AFTER_END_MS = 60_000;

/** An alert's view of a log: its start and its last lines. */
export interface AlertLog {
  logSnippet: string;
  logTail: string;
}

/**
 * Runs just timed out keep the last lines of their live output as their log (a hung job's last words), within
 * the log limit; answers what their alerts show of it, by run id. Runs without live output keep no log.
 */
export async function keepLastWords(
  sql: TransactionSql,
  runs: readonly { monitorId: string; runId: string }[],
): Promise<Map<string, AlertLog>> {
  const windows = await findRunOutputs(sql, runs);
  const logged: { monitorId: string; runId: string }[] = [];
  const logs = new Map<string, AlertLog>();
  for (const run of runs) {
    const log = logTail(windows.get(`${run.monitorId} ${run.runId}`)?.text ?? '', LOG_MAX_CHARS);
    if (log === '') continue;
    await insertRunLog(sql, { ...run, content: log });
    logged.push(run);
    logs.set(run.runId, { logSnippet: truncate(log, LOG_SNIPPET_CHARS), logTail: logTail(log) });
  }
  await markLogged(sql, logged);
  return logs;
}

/** Deletes the live output of runs that ended over OUTPUT_KEPT_AFTER_END_MS ago. */
export function dropEndedOutputs(sql: Sql, now: number): Promise<number> {
  return deleteEndedOutputs(sql, now - OUTPUT_KEPT_AFTER_END_MS);
}
