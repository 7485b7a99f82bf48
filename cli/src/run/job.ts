import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { createMonitor } from '@pingmon/sdk';
import type { PingmonError } from '@pingmon/sdk';
import type { LogKeep } from './capture.js';
import { OutputCapture } from './capture.js';
import { parseMetaLines } from './meta.js';

export interface Job {
  command: string;
  args: string[];
  monitorId: string;
  apiKey: string;
  url: string;
  meta: Record<string, number>;
  logKeep: LogKeep;
  /** Kill the command after this long (0: never); TERM first, KILL after the grace. */
  timeoutMs: number;
  killGraceMs: number;
  /** How long each ping may take, retries included, before a warning. */
  pingBudgetMs: number;
}

/** What happened to the command: the three outcomes of a wrapper, and the exit code pingmon passes on. */
export interface Outcome {
  exitCode: number;
  failure?: string;
}

const SIGNALS = constants.signals as Record<string, number>;
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Runs the job with its stdio passed through unchanged, reporting start and result to pingmon.
 * The job's exit code always wins: pings that cannot be delivered only print a warning.
 */
export async function runJob(job: Job): Promise<number> {
  const warn = (err: PingmonError) => process.stderr.write(`[pingmon] ${err.message}\n`);
  const monitor = createMonitor({ monitorId: job.monitorId, apiKey: job.apiKey, baseUrl: job.url, retryBudgetMs: job.pingBudgetMs, timeoutMs: Math.min(10_000, job.pingBudgetMs), onError: warn });
  // The job does not wait for the server: start travels while it runs.
  const started = monitor.start().then(() => undefined, warn);

  const metaFile = join(tmpdir(), `pingmon-meta-${randomBytes(8).toString('hex')}`);
  writeFileSync(metaFile, '', { mode: 0o600 });
  const capture = new OutputCapture(job.logKeep);
  let outcome: Outcome;
  let fileMeta: Record<string, number> = {};
  try {
    outcome = await execute(job, capture, metaFile);
  } finally {
    fileMeta = readMetaFile(metaFile);
    rmSync(metaFile, { force: true });
  }

  const meta = { ...job.meta, ...fileMeta, exitCode: outcome.exitCode };
  await started;
  const result = outcome.failure === undefined
    ? monitor.success({ meta })
    : monitor.fail({ message: outcome.failure, log: capture.text(), meta });
  await result.catch(warn);
  return outcome.exitCode;
}

async function execute(job: Job, capture: OutputCapture, metaFile: string): Promise<Outcome> {
  const subprocess = execa(job.command, job.args, {
    stdin: 'inherit',
    stdout: 'pipe',
    stderr: 'pipe',
    encoding: 'buffer',
    buffer: false,
    reject: false,
    timeout: job.timeoutMs || undefined,
    forceKillAfterDelay: job.killGraceMs,
    env: { PINGMON_META_FILE: metaFile },
  });
  const forward = (signal: NodeJS.Signals) => subprocess.kill(signal);
  for (const signal of FORWARDED) process.on(signal, forward);
  // Passed through byte for byte, with backpressure; the copy for the log is taken on the way.
  for (const [from, to] of [[subprocess.stdout, process.stdout], [subprocess.stderr, process.stderr]] as const) {
    from?.on('data', (chunk: Buffer) => capture.add(chunk));
    from?.pipe(to, { end: false });
  }
  try {
    const result = await subprocess;
    return outcomeOf(job, result);
  } finally {
    for (const signal of FORWARDED) process.off(signal, forward);
  }
}

interface ExitFacts {
  exitCode?: number;
  signal?: string;
  timedOut: boolean;
  code?: string;
  failed: boolean;
}

export function outcomeOf(job: Pick<Job, 'command' | 'timeoutMs'>, result: ExitFacts): Outcome {
  if (result.code === 'ENOENT') return { exitCode: 127, failure: `could not start: command not found: ${job.command}` };
  if (result.code === 'EACCES') return { exitCode: 126, failure: `could not start: permission denied (not executable?): ${job.command}` };
  if (result.timedOut) {
    const signal = result.signal ?? 'SIGTERM';
    return { exitCode: 128 + (SIGNALS[signal] ?? 15), failure: `timed out after ${formatDuration(job.timeoutMs)} and was killed (${signal})` };
  }
  if (result.signal) return { exitCode: 128 + (SIGNALS[result.signal] ?? 0), failure: `killed by signal ${result.signal}` };
  if (result.exitCode !== undefined && result.exitCode !== 0) return { exitCode: result.exitCode, failure: `exit code ${result.exitCode}` };
  if (result.exitCode === 0) return { exitCode: 0 };
  return { exitCode: 1, failure: `could not start: ${result.code ?? 'unknown error'}: ${job.command}` };
}

function readMetaFile(path: string): Record<string, number> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return {};
  }
  const parsed = parseMetaLines(text.split('\n'), 'PINGMON_META_FILE');
  if (parsed.ok) return parsed.meta;
  process.stderr.write(`[pingmon] ${parsed.error}; the meta file was ignored\n`);
  return {};
}

export function formatDuration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1_000 === 0) return `${ms / 1_000}s`;
  return `${ms}ms`;
}
