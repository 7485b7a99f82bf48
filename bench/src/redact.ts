import { spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, rmSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redactor } from '@pingmon/sdk';
import { LastLine, OutputCapture } from 'pingmon/internal';
import { CLI } from './processes.js';

const CHUNK = 64 * 1024;
const LINE = '2026-12-07T09:20:00.123Z INFO backup: copied 1234 files (56789 bytes) from /var/lib/data/t_42 to s3\n';
const SECRET_LINE = 'connecting to postgres://backup:s3cret-pw@db:5432/prod with password=hunter22\n';

/** 64 KiB chunks of a kind of output: zeros (no line ends), log lines, log lines with a secret in every 100th. */
function chunksOf(kind: 'zeros' | 'log lines' | 'with secrets'): Buffer {
  if (kind === 'zeros') return Buffer.alloc(CHUNK);
  const lines = Array.from({ length: 2_000 }, (_, i) =>
    kind === 'with secrets' && i % 100 === 0 ? SECRET_LINE : LINE,
  );
  return Buffer.from(lines.join('')).subarray(0, CHUNK);
}

/** MiB/s (of CPU time: the machine may be busy) of `bytes` of the chunk through what `pingmon run` does with it. */
function throughput(chunk: Buffer, bytes: number, redact: boolean): number {
  const capture = new OutputCapture('head-tail');
  const last = new LastLine();
  const consume = (c: Buffer) => {
    capture.add(c);
    last.add(c);
  };
  const stream = redact ? new Redactor().stream(consume) : undefined;
  const started = process.cpuUsage();
  for (let sent = 0; sent < bytes; sent += chunk.length) {
    if (stream) stream.write(chunk);
    else consume(chunk);
  }
  stream?.end();
  capture.text();
  const used = process.cpuUsage(started);
  return bytes / 1024 ** 2 / ((used.user + used.system) / 1e6);
}

/**
 * The redactor's cost on the wrapper's copy of the output, in one process: MiB/s through the log capture and the
 * last-line finder, with and without the redactor in front (the median of `rounds`).
 */
export function redactorBench(bytes = 256 * 1024 ** 2, rounds = 3): void {
  console.log(
    '\nthe copy pingmon run reports (log capture and last line), MiB/s of CPU time without and with redaction:',
  );
  for (const kind of ['zeros', 'log lines', 'with secrets'] as const) {
    const chunk = chunksOf(kind);
    const median = (redact: boolean) =>
      Array.from({ length: rounds }, () => throughput(chunk, bytes, redact)).sort((a, b) => a - b)[rounds >> 1]!;
    const [plain, redacted] = [median(false), median(true)];
    console.log(
      `  ${kind.padEnd(12)} without ${plain.toFixed(0)} MiB/s, with ${redacted.toFixed(0)} MiB/s ` +
        `(${(1024 / redacted - 1024 / plain).toFixed(2)} s more CPU per GiB)`,
    );
  }
}

/**
 * `pingmon run -- cat` of a file of log lines, reported (its output redacted) against `cat` alone: the medians of
 * `rounds` alternated runs.
 */
export function redactedCatBench(env: Record<string, string>, bytes = 512 * 1024 ** 2, rounds = 3): void {
  const dir = mkdtempSync(join(tmpdir(), 'pingmon-bench-redact-'));
  try {
    const file = join(dir, 'log.txt');
    const fd = openSync(file, 'w');
    const chunk = chunksOf('with secrets');
    for (let written = 0; written < bytes; written += chunk.length) writeSync(fd, chunk);
    closeSync(fd);
    const time = (line: string) => {
      const started = performance.now();
      const run = spawnSync('sh', ['-c', line], { env: { ...process.env, ...env }, stdio: 'ignore' });
      if (run.status !== 0) throw new Error(`${line} exited with ${run.status}`);
      return performance.now() - started;
    };
    const alone: number[] = [];
    const wrapped: number[] = [];
    for (let i = 0; i < rounds; i++) {
      alone.push(time(`cat ${file} > /dev/null`));
      // The job fails, so that the redacted log is sent too.
      wrapped.push(time(`node ${CLI} run -- sh -c 'cat ${file}; exit 1' > /dev/null 2>&1; true`));
    }
    const median = (ms: number[]) => [...ms].sort((a, b) => a - b)[rounds >> 1]!;
    const mbps = (ms: number) => (bytes / 1024 ** 2 / (ms / 1000)).toFixed(0);
    console.log(
      `${(bytes / 1024 ** 2).toFixed(0)} MiB of log lines (a secret in every 100th) through cat: alone ` +
        `${mbps(median(alone))} MiB/s; through pingmon run, reported and redacted, ${mbps(median(wrapped))} MiB/s ` +
        `(medians of ${rounds} rounds)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// `node bench/dist/redact.js`: the in-process figures alone.
if (process.argv[1] === fileURLToPath(import.meta.url)) redactorBench();
