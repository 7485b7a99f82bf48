import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONNECTIONS, SECONDS, load } from './load.js';
import type { Figures } from './load.js';
import { startPingmon } from './pingmon.js';
import { BUILDS, cpuMs, startListening } from './processes.js';
import type { Started } from './processes.js';

// SQLite pings of several builds against the bare hapi route, alternated in one sitting: on a shared, noisy machine
// only figures taken side by side compare. `npm run bench` ends with it (BENCH_ROUNDS=0: not); `node
// dist/sqlite-alternate.js` runs it alone. BENCH_BUILDS="old=/work/wt-old,new=/work/wt-new" (each a built checkout;
// this one alone by default), BENCH_ROUNDS rounds, each build's turn rotated per round. BENCH_SERVER_NODE_ARGS
// reach pingmon's server only (`--cpu-prof --cpu-prof-dir=…` profiles them under this load).
const BARE = fileURLToPath(new URL('./bare-server.js', import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

interface Measured extends Figures {
  cpuUsPerPing: number;
}

async function measure(label: string, server: Started, apiKey: string, monitorId: string): Promise<Measured> {
  const before = cpuMs(server);
  const figures = await load(label, server.url, apiKey, [monitorId]);
  return { ...figures, cpuUsPerPing: ((cpuMs(server) - before) * 1000) / figures.acknowledged! };
}

const spread = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return `${median.toFixed(2)} (${sorted[0]!.toFixed(2)}–${sorted.at(-1)!.toFixed(2)})`;
};

/**
 * Prints each round and, per build, the medians of its ratios to the bare route measured in the same round, and,
 * with several builds, to the first build in the same round (measured closer in time than the bare route).
 */
export async function sqliteAlternated(): Promise<void> {
  const ratios = new Map(BUILDS.map((b) => [b.label, { rps: [] as number[], cpu: [] as number[] }]));
  const toFirst = new Map(BUILDS.map((b) => [b.label, { rps: [] as number[], cpu: [] as number[] }]));
  const each = `${CONNECTIONS} connections, ${SECONDS} s each, ${ROUNDS} rounds`;
  console.log(`\nSQLite success pings against the bare hapi route, ${each}`);
  for (let round = 0; round < ROUNDS; round++) {
    const bareServer = await startListening([BARE], {});
    const bare = await measure('bare hapi', bareServer, 'none', 'mon_bare');
    await bareServer.stop();
    const line = [`round ${round + 1}: bare ${bare.rps.toFixed(0)}/s ${bare.cpuUsPerPing.toFixed(0)} µs`];
    const measured = new Map<string, Measured>();
    for (let i = 0; i < BUILDS.length; i++) {
      const build = BUILDS[(i + round) % BUILDS.length]!;
      const dataDir = mkdtempSync(join(tmpdir(), 'pingmon-bench-'));
      try {
        const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
        const ours = await startPingmon({ PINGMON_DATA_DIR: dataDir }, 1, 0, build.cli, nodeArgs);
        const m = await measure(build.label, ours.server, ours.apiKey, ours.monitorIds[0]!);
        await ours.server.stop();
        ratios.get(build.label)!.rps.push(m.rps / bare.rps);
        ratios.get(build.label)!.cpu.push(bare.cpuUsPerPing / m.cpuUsPerPing);
        measured.set(build.label, m);
        line.push(`${build.label} ${m.rps.toFixed(0)}/s ${m.cpuUsPerPing.toFixed(0)} µs (${m.errors} errors)`);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
    console.log(line.join(' · '));
    const first = measured.get(BUILDS[0]!.label)!;
    for (const [label, m] of measured) {
      toFirst.get(label)!.rps.push(m.rps / first.rps);
      toFirst.get(label)!.cpu.push(first.cpuUsPerPing / m.cpuUsPerPing);
    }
  }
  console.log('\nbuild'.padEnd(16) + 'pings/s ÷ bare, median (min–max)'.padEnd(36) + 'bare CPU/ping ÷ ours');
  for (const [label, r] of ratios) console.log(label.padEnd(15) + spread(r.rps).padEnd(36) + spread(r.cpu));
  if (BUILDS.length < 2) return;
  const head = BUILDS[0]!.label;
  console.log(`\nbuild`.padEnd(16) + `pings/s ÷ ${head}'s`.padEnd(36) + `${head}'s CPU/ping ÷ ours`);
  for (const [label, r] of toFirst) console.log(label.padEnd(15) + spread(r.rps).padEnd(36) + spread(r.cpu));
}

// Run alone: `node dist/sqlite-alternate.js`.
if (process.argv[1] === fileURLToPath(import.meta.url)) await sqliteAlternated();
