import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI } from './processes.js';

const MINIMAL = fileURLToPath(new URL('./minimal-pinger.js', import.meta.url));
const THROUGH_OCLIF = fileURLToPath(new URL('./through-oclif.js', import.meta.url));

export interface Timed {
  ms: number;
  peakRss: number;
}

/** Runs a shell command line, timing it and sampling the resident memory of the process named `watch`. */
export function timed(line: string, env: Record<string, string>, watch?: RegExp): Promise<Timed> {
  const started = performance.now();
  const child = spawn('sh', ['-c', line], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  let peakRss = 0;
  const sample = setInterval(() => {
    if (!watch) return;
    for (const pid of descendants(child.pid!)) {
      try {
        const status = readFileSync(`/proc/${pid}/status`, 'utf8');
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
        if (watch.test(cmdline)) peakRss = Math.max(peakRss, Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024);
      } catch {
        // exited meanwhile
      }
    }
  }, 10);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      clearInterval(sample);
      if (code !== 0) reject(new Error(`${line} exited with ${code}`));
      else resolve({ ms: performance.now() - started, peakRss });
    });
  });
}

function descendants(pid: number): number[] {
  let children: number[];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
  return [...children, ...children.flatMap(descendants)];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Start-up: `pingmon run -- true` against a minimal script sending the same two pings, and against the same
 * command through oclif (bin/run.js skips it for `run`), alternated.
 */
export async function startupBench(env: Record<string, string>, rounds = 15): Promise<void> {
  const [ours, oclif, minimal]: number[][] = [[], [], []];
  for (let i = 0; i < rounds; i++) {
    ours.push((await timed(`node ${CLI} run -- true`, env)).ms);
    oclif.push((await timed(`node ${THROUGH_OCLIF} run -- true`, env)).ms);
    minimal.push((await timed(`node ${MINIMAL}`, env)).ms);
  }
  const [a, o, b] = [median(ours), median(oclif), median(minimal)];
  console.log(
    `\npingmon run -- true: median ${a.toFixed(0)} ms (through oclif ${o.toFixed(0)} ms); ` +
      `a minimal Node script sending the same two pings: ${b.toFixed(0)} ms; ` +
      `ratio ${(a / b).toFixed(2)} (${rounds} rounds each)`,
  );
}

/**
 * Throughput: 1 GiB through `pingmon run -- cat` against `cat` alone, and the wrapper's peak memory; the median
 * of `rounds` alternated runs of each.
 */
export async function throughputBench(env: Record<string, string>, bytes = 1024 ** 3, rounds = 3): Promise<void> {
  const source = `head -c ${bytes} /dev/zero`;
  const runs: Record<'alone' | 'wrapped' | 'quiet' | 'twice', Timed[]> = {
    alone: [],
    wrapped: [],
    quiet: [],
    twice: [],
  };
  for (let i = 0; i < rounds; i++) {
    runs.alone.push(await timed(`${source} | cat > /dev/null`, env));
    // Live output on (the default): the newest output sent once a second while cat runs.
    runs.wrapped.push(await timed(`${source} | node ${CLI} run -- cat > /dev/null`, env, /run\.js run/));
    runs.quiet.push(await timed(`${source} | node ${CLI} run --no-live -- cat > /dev/null`, env, /run\.js run/));
    // The same pipeline with a second cat: one more copy through a pipe, what a copying wrapper adds at the least.
    runs.twice.push(await timed(`${source} | cat | cat > /dev/null`, env));
  }
  const middle = (timings: Timed[]) => ({
    ms: median(timings.map((t) => t.ms)),
    peakRss: Math.max(...timings.map((t) => t.peakRss)),
  });
  const [alone, wrapped, quiet, twice] = [runs.alone, runs.wrapped, runs.quiet, runs.twice].map(middle) as [
    Timed,
    Timed,
    Timed,
    Timed,
  ];
  const mbps = (t: Timed) => (bytes / 1024 ** 2 / (t.ms / 1000)).toFixed(0);
  const rss = (t: Timed) => (t.peakRss / 1024 ** 2).toFixed(0);
  console.log(
    `${(bytes / 1024 ** 3).toFixed(2)} GiB through cat: alone ${mbps(alone)} MiB/s; ` +
      `through pingmon run (live output on) ${mbps(wrapped)} MiB/s, ratio ${(alone.ms / wrapped.ms).toFixed(2)}, ` +
      `peak RSS ${rss(wrapped)} MiB; with --no-live ${mbps(quiet)} MiB/s, ratio ${(alone.ms / quiet.ms).toFixed(2)}, ` +
      `peak RSS ${rss(quiet)} MiB; ` +
      `cat | cat (one more pipe hop, no wrapper) ${mbps(twice)} MiB/s, ratio ${(alone.ms / twice.ms).toFixed(2)} ` +
      `(medians of ${rounds} rounds; peak RSS the highest)`,
  );
}

/**
 * The server down: how long `pingmon run -- sleep 1` goes on after its job, against a port that refuses
 * connections and against one that accepts them and never answers (the pings then wait in the spool).
 */
export async function serverDownBench(env: Record<string, string>, rounds = 5): Promise<void> {
  const silent = createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const refused = createServer();
  await new Promise<void>((resolve) => refused.listen(0, '127.0.0.1', resolve));
  const refusedPort = (refused.address() as AddressInfo).port;
  await new Promise<void>((resolve) => refused.close(() => resolve()));
  const state = mkdtempSync(join(tmpdir(), 'pingmon-bench-spool-'));
  try {
    const after = async (url: string) => {
      const runs: number[] = [];
      for (let i = 0; i < rounds; i++) {
        const line = `node ${CLI} run -- sleep 1 2>/dev/null`;
        const run = await timed(line, { ...env, PINGMON_URL: url, XDG_STATE_HOME: state });
        runs.push(run.ms - 1000);
      }
      return Math.max(...runs);
    };
    const refusing = await after(`http://127.0.0.1:${refusedPort}`);
    const silentMs = await after(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`);
    const kept = readdirSync(join(state, 'pingmon', 'spool')).filter((f) => f.endsWith('.json')).length;
    console.log(
      `\nserver down, pingmon run -- sleep 1 (default --ping-timeout 2s, ${rounds} rounds each): ends at most ` +
        `${refusing.toFixed(0)} ms after the job when the port refuses, ${silentMs.toFixed(0)} ms when the server ` +
        `never answers (start-up included); ${kept} pings kept in the spool (${4 * rounds} sent)`,
    );
  } finally {
    silent.close();
    // The background flush these runs started (it would give up after 30 minutes).
    try {
      process.kill(Number(readFileSync(join(state, 'pingmon', 'spool', '.lock'), 'utf8').split(' ')[0]), 'SIGTERM');
    } catch {
      // None running.
    }
    rmSync(state, { recursive: true, force: true });
  }
}
