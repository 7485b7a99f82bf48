import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CLI } from './processes.js';

const MINIMAL = fileURLToPath(new URL('./minimal-pinger.js', import.meta.url));

interface Timed {
  ms: number;
  peakRss: number;
}

/** Runs a shell command line, timing it and sampling the resident memory of the process named `watch`. */
function timed(line: string, env: Record<string, string>, watch?: RegExp): Promise<Timed> {
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

/** Start-up: `pingmon run -- true` against a minimal script sending the same two pings, alternated. */
export async function startupBench(env: Record<string, string>, rounds = 15): Promise<void> {
  const ours: number[] = [];
  const minimal: number[] = [];
  for (let i = 0; i < rounds; i++) {
    ours.push((await timed(`node ${CLI} run -- true`, env)).ms);
    minimal.push((await timed(`node ${MINIMAL}`, env)).ms);
  }
  const [a, b] = [median(ours), median(minimal)];
  console.log(
    `\npingmon run -- true: median ${a.toFixed(0)} ms; ` +
      `a minimal Node script sending the same two pings: ${b.toFixed(0)} ms; ` +
      `ratio ${(a / b).toFixed(2)} (${rounds} rounds each)`,
  );
}

/** Throughput: 1 GiB through `pingmon run -- cat` against `cat` alone, and the wrapper's peak memory. */
export async function throughputBench(env: Record<string, string>, bytes = 1024 ** 3): Promise<void> {
  const source = `head -c ${bytes} /dev/zero`;
  const alone = await timed(`${source} | cat > /dev/null`, env);
  const wrapped = await timed(`${source} | node ${CLI} run -- cat > /dev/null`, env, /run\.js run/);
  const mbps = (t: Timed) => (bytes / 1024 ** 2 / (t.ms / 1000)).toFixed(0);
  console.log(
    `${(bytes / 1024 ** 3).toFixed(2)} GiB through cat: alone ${mbps(alone)} MiB/s; ` +
      `through pingmon run ${mbps(wrapped)} MiB/s; ` +
      `throughput ratio ${(alone.ms / wrapped.ms).toFixed(2)}; ` +
      `pingmon run peak RSS ${(wrapped.peakRss / 1024 ** 2).toFixed(0)} MiB`,
  );
}
