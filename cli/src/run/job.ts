import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, constants as fsConstants, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { execa } from 'execa';
import { clean, formatDuration, META_MAX_KEYS } from '@pingmon/sdk/wire';
import type { LogKeep } from './capture.js';
import { OutputCapture } from './capture.js';
import { LastLine, withLastLine } from './cause.js';
import { parseMetaLines } from './meta.js';
import { startReport } from './report.js';
import type { ReportTo } from './report.js';

export interface Job {
  command: string;
  args: string[];
  meta: Record<string, number>;
  logKeep: LogKeep;
  /** Kill the command after this long (0: never); TERM first, KILL after the grace. */
  timeoutMs: number;
  killGraceMs: number;
  /** Where the run is reported; none when a setting is missing: the job runs all the same, unreported. */
  reportTo: ReportTo | undefined;
}

/**
 * What happened to the command, one of a wrapper's three outcomes, with the exit code pingmon passes on:
 * it succeeded; it failed (a non-zero exit, a signal, a timeout); or it could not be started at all.
 */
export type Outcome =
  | { kind: 'success'; exitCode: 0 }
  | { kind: 'failed'; exitCode: number; failure: string }
  | { kind: 'not-started'; exitCode: number; failure: string };

const SIGNALS = constants.signals as Record<string, number>;
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const;
/** Signals a terminal sends to its whole foreground group: an interactive job gets them without us. */
const FROM_TERMINAL = new Set<NodeJS.Signals>(['SIGINT', 'SIGQUIT']);
/** After the command exits, how long its output may still arrive (from children it left behind). */
const DRAIN_MS = 1_000;
/** The meta file is read up to this size; a job that writes more gets the first part. */
const META_FILE_MAX_BYTES = 64 * 1024;

/** A warning on the job's stderr; it may quote the server's or the meta file's text, so it is cleaned. */
export const warn = (message: string) => void process.stderr.write(`[pingmon] ${clean(message)}\n`);

/**
 * Runs the job with its stdio passed through unchanged, reporting start and result to pingmon when it can.
 * The job's exit code always wins: pings that cannot be delivered only print a warning.
 */
export async function runJob(job: Job): Promise<number> {
  const report = job.reportTo && startReport(job.reportTo, warn);
  // The job gets its meta file even unreported: a job writing to "$PINGMON_META_FILE" must not fail for it.
  const metaFile = createMetaFile();
  const removeMetaFile = () => metaFile && rmSync(metaFile, { force: true });
  process.once('exit', removeMetaFile);
  const capture = report && new OutputCapture(job.logKeep);
  // The last line of stderr (else of stdout) says why a job failed, more often than not.
  const lastLines = [new LastLine(), new LastLine()] as const;
  const copies =
    capture &&
    lastLines.map((last) => (chunk: Buffer) => {
      capture.add(chunk);
      last.add(chunk);
    });
  let outcome: Outcome;
  let fileMeta: Record<string, number> = {};
  try {
    outcome = await execute(job, copies, metaFile);
  } finally {
    if (metaFile && report) fileMeta = readMetaFile(metaFile);
    removeMetaFile();
    process.off('exit', removeMetaFile);
  }
  if (outcome.kind === 'not-started') process.stderr.write(`pingmon: ${outcome.failure}\n`);
  if (!report) return outcome.exitCode;

  const meta = boundedMeta({ ...job.meta, ...fileMeta });
  meta.exitCode = outcome.exitCode;
  if (outcome.kind === 'failed') {
    outcome = { ...outcome, failure: withLastLine(outcome.failure, lastLines[1].line() ?? lastLines[0].line()) };
  }
  await report.finish(outcome, capture?.text() ?? '', meta);
  return outcome.exitCode;
}

/** Takes a copy of a chunk of the job's stdout or stderr, before its buffer is reused. */
type Copy = (chunk: Buffer) => void;

async function execute(job: Job, copies: Copy[] | undefined, metaFile: string | undefined): Promise<Outcome> {
  // Without a terminal the command gets a process group of its own, so that a signal or a timeout
  // reaches every process it started. With one, it stays in the terminal's foreground group, where it
  // may read the terminal, and Ctrl-C reaches it directly.
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
      env: metaFile ? { PINGMON_META_FILE: metaFile } : {},
    });
  } catch (err) {
    for (const fifo of fifos ?? []) {
      closeSync(fifo.read);
      closeSync(fifo.write);
    }
    throw err;
  }
  const signalJob = (signal: NodeJS.Signals) => {
    if (subprocess.pid === undefined) return;
    try {
      process.kill(interactive ? subprocess.pid : -subprocess.pid, signal);
    } catch {
      // Already gone.
    }
  };
  const forward = (signal: NodeJS.Signals) => {
    if (!(interactive && FROM_TERMINAL.has(signal))) signalJob(signal);
  };
  for (const signal of FORWARDED) process.on(signal, forward);

  let timedOut = false;
  const timers: NodeJS.Timeout[] = [];
  if (job.timeoutMs > 0) {
    timers.push(
      setTimeout(() => {
        timedOut = true;
        signalJob('SIGTERM');
        timers.push(setTimeout(() => signalJob('SIGKILL'), job.killGraceMs));
      }, job.timeoutMs),
    );
  }

  // Passed through byte for byte, with backpressure; the copy for the log is taken on the way.
  const targets = [process.stdout, process.stderr];
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
  const stopReading = () => {
    for (const [from] of streams) from.destroy();
  };
  // A reader that went away (`pingmon run -- yes | head -1`) closes the command's pipe as well:
  // the command sees what it would have seen without pingmon.
  for (const [from, to] of streams) to.on('error', () => from.destroy());
  // Children the command left behind may hold its output open: read a little longer, then stop.
  subprocess.once('exit', () => timers.push(setTimeout(stopReading, DRAIN_MS)));

  try {
    const result = await subprocess;
    // Whatever the command wrote is read (or given up DRAIN_MS after its exit) before its outcome is told.
    await Promise.all(streams.map(([from]) => closed(from)));
    return outcomeOf(job, { ...result, timedOut, signal: timedOut ? (result.signal ?? 'SIGTERM') : result.signal });
  } finally {
    for (const timer of timers) clearTimeout(timer);
    for (const signal of FORWARDED) process.off(signal, forward);
    // A command that timed out is killed with all it started.
    if (timedOut) signalJob('SIGKILL');
  }
}

function closed(stream: Readable): Promise<void> {
  return stream.closed ? Promise.resolve() : new Promise((resolve) => stream.once('close', () => resolve()));
}

/** One read of a job's output at most: the size of a pipe's buffer on Linux. */
const READ_BYTES = 64 * 1024;

/**
 * Two FIFOs for the job's stdout and stderr, read and write ends open, or undefined where none can be made
 * (no `mkfifo`): the job then gets ordinary pipes. A FIFO is read with one reused buffer (readFifo), where Node
 * allocates a new 64 KiB buffer for every read of a pipe: a job printing gigabytes then leaves no garbage, the
 * wrapper's memory stays flat and the copy runs faster (`npm run bench`, "through cat"). The command sees a FIFO
 * as it sees a pipe. Their names are removed at once; the open ends keep them.
 */
function openFifos(): Array<{ read: number; write: number }> | undefined {
  const opened: number[] = [];
  let dir: string | undefined;
  try {
    dir = mkdtempSync(join(tmpdir(), 'pingmon-output-'));
    const paths = [join(dir, 'stdout'), join(dir, 'stderr')];
    execFileSync('mkfifo', ['-m', '600', ...paths], { stdio: 'ignore' });
    return paths.map((path) => {
      // The read end first, without waiting for a writer; then the write end, which finds its reader.
      const read = openSync(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
      opened.push(read);
      const write = openSync(path, fsConstants.O_WRONLY);
      opened.push(write);
      return { read, write };
    });
  } catch {
    for (const fd of opened) closeSync(fd);
    return undefined;
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Reads a FIFO into one buffer, reused while `to` writes each chunk at once (a file, a terminal, a pipe with
 * room): the chunk goes to `copy` (the log capture and the last line, which copy what they keep) and to `to`. A
 * chunk `to` keeps to write later stays its own until written, and reading goes on into another buffer, taken back
 * once that write is done; when `to` is full, reading waits for its drain.
 */
function readFifo(fd: number, to: Writable, copy: Copy | undefined): Socket {
  let buffer: Buffer = Buffer.allocUnsafe(READ_BYTES);
  const free: Buffer[] = [];
  // `onread` is in Node's socket options since 12.2, though @types/node lists it for connect() only.
  const socket: Socket = new Socket({
    fd,
    readable: true,
    writable: false,
    ...{
      onread: {
        buffer: () => buffer,
        callback: (bytes: number, read: Uint8Array) => {
          const chunk = Buffer.from(read.buffer, read.byteOffset, bytes);
          copy?.(chunk);
          const used = buffer;
          const more = to.write(chunk, () => {
            if (used !== buffer) free.push(used);
          });
          if (to.writableLength > 0) buffer = free.pop() ?? Buffer.allocUnsafe(READ_BYTES);
          if (more) return true;
          to.once('drain', () => socket.resume());
          return false;
        },
      },
    },
  });
  // A read that fails (it should not) ends the copy, as a reader that went away does; the job goes on.
  socket.on('error', () => socket.destroy());
  return socket;
}

interface ExitFacts {
  exitCode?: number;
  signal?: string;
  timedOut: boolean;
  code?: string;
  failed: boolean;
}

export function outcomeOf(job: Pick<Job, 'command' | 'timeoutMs'>, result: ExitFacts): Outcome {
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

/** An empty file only we can read, for the job's key=number lines; none (with a warning) if it cannot be made. */
function createMetaFile(): string | undefined {
  const path = join(tmpdir(), `pingmon-meta-${randomBytes(8).toString('hex')}`);
  try {
    closeSync(openSync(path, 'wx', 0o600));
    return path;
  } catch (err) {
    warn(
      `cannot create a meta file in ${tmpdir()} (${(err as Error).message}); the job runs without PINGMON_META_FILE`,
    );
    return undefined;
  }
}

/** The job's key=number lines; a line that is not one is skipped with a warning, the others kept. */
function readMetaFile(path: string): Record<string, number> {
  let text: string;
  try {
    const fd = openSync(path, 'r');
    const buffer = Buffer.alloc(META_FILE_MAX_BYTES);
    const size = readSync(fd, buffer, 0, buffer.length, 0);
    closeSync(fd);
    text = buffer.toString('utf8', 0, size);
    if (size === buffer.length) {
      text = text.slice(0, text.lastIndexOf('\n') + 1);
      warn(`PINGMON_META_FILE is larger than ${META_FILE_MAX_BYTES / 1024} KiB; only its first lines were read`);
    }
  } catch {
    return {};
  }
  const meta: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const parsed = parseMetaLines([line], 'PINGMON_META_FILE');
    if (parsed.ok) Object.assign(meta, parsed.meta);
    else warn(`${parsed.error}; line skipped`);
  }
  return meta;
}

/** At most as many keys as the server takes, leaving room for exitCode. */
function boundedMeta(meta: Record<string, number>): Record<string, number> {
  const entries = Object.entries(meta).filter(([key]) => key !== 'exitCode');
  if (entries.length < META_MAX_KEYS) return Object.fromEntries(entries);
  warn(`meta has ${entries.length} keys besides exitCode; only the first ${META_MAX_KEYS - 1} were sent`);
  return Object.fromEntries(entries.slice(0, META_MAX_KEYS - 1));
}
