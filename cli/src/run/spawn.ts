import { closeSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { execa } from 'execa';
import type { ResultPromise } from 'execa';
import { closeFifos, openFifos, readFifo } from './fifo.js';
import type { Copy, Fifo } from './fifo.js';
import type { ExitFacts } from './outcome.js';
import { superviseJob } from './signals.js';

/** What to run and how long it may take. */
export interface Command {
  command: string;
  args: string[];
  /** Kill the command after this long (0: never); TERM first, KILL after the grace. */
  timeoutMs: number;
  killGraceMs: number;
}

/** After the command exits, how long its output may still arrive (from children it left behind). */
const DRAIN_MS = 1_000;

/**
 * Runs the command with stdin inherited and its stdout and stderr passed through byte for byte, `copies` taking
 * a copy of each on the way; resolves once it has exited and its output is read.
 */
export async function spawnJob(
  job: Command,
  copies: readonly Copy[] | undefined,
  env: Record<string, string>,
): Promise<ExitFacts> {
  // Without a terminal the command leads a process group of its own, so that signals and the timeout reach all it
  // started; with one, it stays in the terminal's foreground group, to read the terminal and get Ctrl-C directly.
  const interactive = Boolean(process.stdin.isTTY);
  const fifos = openFifos();
  // A FIFO's write end (a file descriptor), or a pipe: execa takes either, though its types take no union.
  const output = (i: 0 | 1) => (fifos?.[i].write ?? 'pipe') as 'pipe';
  let subprocess;
  try {
    subprocess = execa(job.command, job.args, {
      stdin: 'inherit',
      stdout: output(0),
      stderr: output(1),
      encoding: 'buffer',
      buffer: false,
      reject: false,
      detached: !interactive,
      forceKillAfterDelay: false,
      env,
    });
  } catch (err) {
    if (fifos) closeFifos(fifos);
    throw err;
  }
  const supervision = superviseJob(subprocess.pid, {
    interactive,
    timeoutMs: job.timeoutMs,
    killGraceMs: job.killGraceMs,
  });
  const streams = passThrough(subprocess, fifos, copies);
  // Children the command left behind may hold its output open: read a little longer, then stop.
  let drain: NodeJS.Timeout | undefined;
  subprocess.once('exit', () => {
    drain = setTimeout(() => streams.forEach((from) => from.destroy()), DRAIN_MS);
  });
  try {
    const result = await subprocess;
    // Whatever the command wrote is read (or given up DRAIN_MS after its exit) before its outcome is told.
    await Promise.all(streams.map(closed));
    const { timedOut } = supervision;
    return { ...result, timedOut, signal: timedOut ? (result.signal ?? 'SIGTERM') : result.signal };
  } finally {
    clearTimeout(drain);
    supervision.stop();
  }
}

/** The job's stdout and stderr copied to ours, with backpressure; answers the streams read. */
function passThrough(
  subprocess: ResultPromise,
  fifos: readonly Fifo[] | undefined,
  copies: readonly Copy[] | undefined,
): Readable[] {
  const targets = [process.stdout, process.stderr] as const;
  let streams: Array<[Readable, Writable]>;
  if (fifos) {
    // The command holds the write ends now (it was forked in execa()): the reads end when it and its children do.
    for (const fifo of fifos) closeSync(fifo.write);
    streams = fifos.map((fifo, i) => [readFifo(fifo.read, targets[i]!, copies?.[i]), targets[i]!]);
  } else {
    streams = [subprocess.stdout!, subprocess.stderr!].map((from, i) => [from, targets[i]!]);
    for (const [i, [from, to]] of streams.entries()) {
      const copy = copies?.[i];
      if (copy) from.on('data', copy);
      from.pipe(to, { end: false });
    }
  }
  // A reader that went away (`pingmon run -- yes | head -1`) closes the command's pipe as well:
  // the command sees what it would have seen without pingmon.
  for (const [from, to] of streams) to.on('error', () => from.destroy());
  return streams.map(([from]) => from);
}

function closed(stream: Readable): Promise<void> {
  return stream.closed ? Promise.resolve() : new Promise((resolve) => stream.once('close', () => resolve()));
}
