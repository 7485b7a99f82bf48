import { setTimeout as sleep } from 'node:timers/promises';
import type { Client, Run } from '@pingmon/sdk';
import { clean } from '@pingmon/sdk/wire';
import { duration } from './output.js';

/** How often a running run's output is read: the wrapper sends it about once a second. */
const POLL_MS = 1_000;

/** Where output goes: a terminal gets it cleaned of escape sequences, a file or pipe byte for byte. */
export function writeOutput(text: string): void {
  if (text !== '') process.stdout.write(process.stdout.isTTY ? clean(text) : text);
}

/**
 * Prints a run's live output as it arrives (docs/api.md#live-output) until the run ends or `stop` aborts. Answers
 * whether anything was printed: a run followed after its window went has only its log to show.
 */
export async function followOutput(
  client: Client,
  monitor: string,
  runId: string,
  stop: AbortSignal,
): Promise<boolean> {
  let after = 0;
  let printed = false;
  while (!stop.aborted) {
    const output = await client.getRunOutput(monitor, runId, after);
    if (output.from > after) {
      const what = after === 0 ? 'earlier output is no longer kept' : `${output.from - after} characters skipped`;
      process.stderr.write(`${printed ? '\n' : ''}[pingmon: ${what}]\n`);
    }
    writeOutput(output.text);
    printed ||= output.text !== '';
    after = output.next;
    if (!output.running) break;
    await sleep(POLL_MS, undefined, { signal: stop }).catch(() => undefined);
  }
  return printed;
}

/** "run 01a2… succeeded after 3s", or "… failed after 3s: exit code 2: tar: …" (its first line). */
export function resultLine(run: Run): string {
  const took = run.durationMs === null ? '' : ` after ${duration(run.durationMs)}`;
  const what = run.status === 'success' ? 'succeeded' : run.status === 'failed' ? 'failed' : 'is still running';
  const why = run.status === 'failed' && run.errorMessage ? `: ${run.errorMessage.split('\n')[0]}` : '';
  return `run ${run.runId} ${what}${took}${why}`;
}
