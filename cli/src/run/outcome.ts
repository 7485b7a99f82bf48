import { constants } from 'node:os';
import { formatDuration } from '@pingmon/sdk/wire';

/**
 * What happened to the command, one of a wrapper's three outcomes, with the exit code pingmon passes on:
 * it succeeded; it failed (a non-zero exit, a signal, a timeout); or it could not be started at all.
 */
export type Outcome =
  | { kind: 'success'; exitCode: 0 }
  | { kind: 'failed'; exitCode: number; failure: string }
  | { kind: 'not-started'; exitCode: number; failure: string };

/** How the command ended, as the spawn saw it. */
export interface ExitFacts {
  exitCode?: number;
  signal?: string;
  timedOut: boolean;
  /** The spawn's error code (ENOENT, EACCES…) when the command could not be started. */
  code?: string;
  failed: boolean;
}

const SIGNALS = constants.signals as Record<string, number>;

export function outcomeOf(job: { command: string; timeoutMs: number }, result: ExitFacts): Outcome {
  if (result.code === 'ENOENT') return notStarted(127, `command not found: ${job.command}`);
  if (result.code === 'EACCES') return notStarted(126, `permission denied (not executable?): ${job.command}`);
  if (result.timedOut) {
    const signal = result.signal ?? 'SIGTERM';
    const after = formatDuration(job.timeoutMs / 1_000);
    return failed(128 + (SIGNALS[signal] ?? 15), `timed out after ${after} and was killed (${signal})`);
  }
  if (result.signal) return failed(128 + (SIGNALS[result.signal] ?? 0), `killed by signal ${result.signal}`);
  const code = result.exitCode;
  if (code !== undefined && code !== 0) return failed(code, `exit code ${code}`);
  if (code === 0) return { kind: 'success', exitCode: 0 };
  return notStarted(1, `${result.code ?? 'unknown error'}: ${job.command}`);
}

function failed(exitCode: number, failure: string): Outcome {
  return { kind: 'failed', exitCode, failure };
}

function notStarted(exitCode: number, why: string): Outcome {
  return { kind: 'not-started', exitCode, failure: `could not start: ${why}` };
}
