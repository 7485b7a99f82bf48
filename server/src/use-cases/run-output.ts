import { storableText } from '@pingmon/sdk/wire';
import type { Database } from '../db/index.js';
import { findRunOutput, saveRunOutput } from '../db/run-outputs.js';
import { lockRunStatus } from '../db/runs.js';
import type { OutputChunk } from '../domain/run-output.js';
import { OUTPUT_WINDOW_CHARS, withChunk } from '../domain/run-output.js';

/**
 * Takes a piece of a running run's output into its window, in order and once: answers the offset the sender goes on
 * from, or, when the run is not running, its status (`not_started`: no such run yet).
 */
export async function takeOutput(
  db: Database,
  run: { accountId: string; monitorId: string; runId: string },
  chunk: OutputChunk,
  now: number,
): Promise<number | string> {
  return db.transaction(async (sql) => {
    const status = await lockRunStatus(sql, run.accountId, run.monitorId, run.runId);
    if (status !== 'running') return status ?? 'not_started';
    const window = await findRunOutput(sql, run.monitorId, run.runId);
    const next = withChunk(window, chunk);
    if (next === undefined) return window!.to;
    // Cut to the window, a pair of surrogates may have lost its half: kept as U+FFFD (the same length).
    const stored = { ...next, text: storableText(next.text, OUTPUT_WINDOW_CHARS) };
    await saveRunOutput(sql, run, stored, now);
    return next.to;
  });
}
