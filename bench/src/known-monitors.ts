import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import knexFactory from 'knex';
import { CONNECTIONS, SECONDS, load } from './load.js';
import { startPingmon } from './pingmon.js';
import { CLI, cpuMs, startListening } from './processes.js';
import type { Started } from './processes.js';

// Whether the server's memory of monitors between pings (PINGMON_MONITOR_CACHE) pays: PostgreSQL success pings with
// and without it, alternated in one sitting next to the bare hapi route with the same insert through pg (pg-route.ts),
// on plain and on scheduled monitors. Server CPU per ping is the figure to read: others' work moves pings/s.
const PG_ROUTE = fileURLToPath(new URL('./pg-route.js', import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const MONITORS = 50;
const KINDS = ['plain', 'scheduled'] as const;
const TARGETS = ['route', 'with cache', 'without'] as const;
/** The goals of issue 26: pingmon on PostgreSQL against the route. */
const GOALS = { plain: 0.7, scheduled: 0.6 };

type Kind = (typeof KINDS)[number];
type Target = (typeof TARGETS)[number];
interface Sample {
  rps: number;
  cpuUs: number;
}

export async function monitorCacheBench(url: string | undefined): Promise<void> {
  if (!url) return console.log('(PostgreSQL skipped: set PINGMON_TEST_DATABASE_URL or PINGMON_BENCH_DATABASE_URL)');
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'pingmon-bench-'));
  // Retention off: a prune mid-load would cost the pings time no real monitor pays.
  const env = {
    PINGMON_DATA_DIR: dataDir,
    PINGMON_DATABASE_URL: url,
    PINGMON_DATABASE_SCHEMA: schema,
    PINGMON_RETENTION_RUNS: '0',
  };
  const start: Record<Target, () => Promise<Started>> = {
    route: () => startListening([PG_ROUTE], { BENCH_ROUTE_DATABASE_URL: url, BENCH_ROUTE_SCHEMA: schema }),
    'with cache': () => startListening([CLI, 'server', '--port', '0'], env),
    without: () => startListening([CLI, 'server', '--port', '0'], { ...env, PINGMON_MONITOR_CACHE: '0' }),
  };
  const samples = new Map<string, Sample[]>();
  try {
    const created = await startPingmon(env, MONITORS, MONITORS);
    await created.server.stop();
    const ids: Record<Kind, string[]> = { plain: created.monitorIds, scheduled: created.scheduledIds };
    console.log(
      `\nPostgreSQL success pings on ${MONITORS} monitors with and without PINGMON_MONITOR_CACHE, ` +
        `${CONNECTIONS} connections, ${SECONDS} s each, ${ROUNDS} rounds, each round's order rotated:`,
    );
    for (let round = 0; round < ROUNDS; round++) {
      for (const kind of KINDS) {
        const line: string[] = [];
        for (let i = 0; i < TARGETS.length; i++) {
          const target = TARGETS[(i + round) % TARGETS.length]!;
          const server = await start[target]();
          const before = cpuMs(server);
          const figures = await load(target, server.url, created.apiKey, ids[kind]);
          const sample = { rps: figures.rps, cpuUs: ((cpuMs(server) - before) * 1000) / figures.acknowledged! };
          await server.stop();
          samples.set(`${target} ${kind}`, [...(samples.get(`${target} ${kind}`) ?? []), sample]);
          line.push(`${target} ${sample.rps.toFixed(0)}/s ${sample.cpuUs.toFixed(0)} µs (${figures.errors} errors)`);
        }
        console.log(`  round ${round + 1}, ${kind}: ${line.join(' · ')}`);
      }
    }
    summarize(samples);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    const admin = knexFactory({ client: 'pg', connection: url });
    await admin.raw('drop schema if exists ?? cascade', [schema]);
    await admin.destroy();
  }
}

/** Medians (min–max) of each round's figures, and of each round's ratios (taken within the round). */
function summarize(samples: Map<string, Sample[]>): void {
  const spread = (digits: number, xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return `${s[Math.floor(s.length / 2)]!.toFixed(digits)} (${s[0]!.toFixed(digits)}–${s.at(-1)!.toFixed(digits)})`;
  };
  const of = (target: Target, kind: Kind) => samples.get(`${target} ${kind}`)!;
  const perRound = (kind: Kind, a: Target, b: Target, f: (x: Sample, y: Sample) => number) =>
    of(a, kind).map((x, i) => f(x, of(b, kind)[i]!));
  const row = (cells: string[]) => '  ' + cells.map((cell, i) => cell.padEnd([11, 12, 20, 20, 0][i]!)).join('');
  console.log(row(['monitors', 'target', 'pings/s', '÷ route', 'server CPU µs/ping']));
  for (const kind of KINDS) {
    for (const target of TARGETS) {
      const s = of(target, kind);
      const toRoute = target === 'route' ? [] : perRound(kind, target, 'route', (x, r) => x.rps / r.rps);
      const [rps, cpu] = [s.map((x) => x.rps), s.map((x) => x.cpuUs)];
      console.log(row([kind, target, spread(0, rps), toRoute.length > 0 ? spread(2, toRoute) : '', spread(0, cpu)]));
    }
  }
  for (const kind of KINDS) {
    const saved = perRound(kind, 'with cache', 'without', (w, wo) => (1 - w.cpuUs / wo.cpuUs) * 100);
    const toRoute = perRound(kind, 'with cache', 'route', (w, r) => w.rps / r.rps).sort((a, b) => a - b);
    const met = toRoute[Math.floor(toRoute.length / 2)]! >= GOALS[kind] ? 'met' : 'NOT met';
    console.log(
      `  ${kind}: the cache spares ${spread(0, saved)} % of the server's CPU per ping; ` +
        `with it, pings/s ÷ route ≥ ${GOALS[kind]}: ${met}`,
    );
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await monitorCacheBench(process.env.PINGMON_BENCH_DATABASE_URL ?? process.env.PINGMON_TEST_DATABASE_URL);
}
