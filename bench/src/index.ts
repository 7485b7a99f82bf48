import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import knexFactory from 'knex';
import { serverDownBench, startupBench, throughputBench } from './cli.js';
import { CLI, runCli, startListening } from './processes.js';
import { dashboardBench } from './dashboard.js';
import { postgresCeiling } from './pg-ceiling.js';
import { pruneBench } from './prune.js';
import { spoolRecoveryBench } from './spool-recovery.js';
import { sweepBench } from './sweep.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const WARMUP_SECONDS = 2;
const POSTGRES_URL = process.env.PINGMON_BENCH_DATABASE_URL ?? process.env.PINGMON_TEST_DATABASE_URL;
const BARE = fileURLToPath(new URL('./bare-server.js', import.meta.url));
/**
 * PostgreSQL is also loaded across this many monitors, next to one: a rate-limited monitor's pings take its row in
 * turn.
 */
const PG_MONITORS = 50;
const BODY = JSON.stringify({ meta: { rowsProcessed: 42 } });

interface Figures {
  label: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** 2xx answers, warm-up included: what the database must hold afterwards. */
  acknowledged?: number;
}

/** Pings spread over `monitorIds` in turn. */
async function load(label: string, url: string, apiKey: string, monitorIds: string[]): Promise<Figures> {
  let next = 0;
  const options = {
    url: `${url}/ping/${monitorIds[0]}/success`,
    method: 'POST' as const,
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: BODY,
    connections: CONNECTIONS,
  };
  // Several monitors: each request names the next one. (One: autocannon sends the same request, as for the bare route.)
  if (monitorIds.length > 1) {
    Object.assign(options, {
      requests: [
        {
          setupRequest: (req: autocannon.Request) => ({
            ...req,
            path: `${new URL(url).pathname}/ping/${monitorIds[next++ % monitorIds.length]}/success`,
          }),
        },
      ],
    });
  }
  // Both servers get the same warm-up, so that neither is measured while the JIT is still compiling.
  const warmup = await autocannon({ ...options, duration: WARMUP_SECONDS });
  const result = await autocannon({ ...options, duration: SECONDS });
  return {
    label,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    acknowledged: warmup['2xx'] + result['2xx'],
  };
}

/** The ceiling: PostgreSQL inserting one run row per transaction, with pingmon's connections and time. */
async function ceiling(label: string, schema: string, monitorIds: string[]): Promise<Figures> {
  const c = await postgresCeiling(POSTGRES_URL!, schema, monitorIds, CONNECTIONS, SECONDS, WARMUP_SECONDS);
  return { label, rps: c.rps, p50: c.p50, p99: c.p99, errors: c.errors };
}

async function countRuns(url: string, schema: string): Promise<number> {
  const knex = knexFactory({ client: 'pg', connection: url, searchPath: [schema] });
  try {
    const [{ count }] = (await knex('runs').count({ count: '*' })) as [{ count: string | number }];
    return Number(count);
  } finally {
    await knex.destroy();
  }
}

/**
 * Starts `pingmon server` on the given database, with an unlimited account, `monitors` monitors, and `scheduled`
 * more with a schedule (every minute).
 */
async function ours(env: Record<string, string>, monitors = 1, scheduled = 0) {
  const created = JSON.parse(
    await runCli(
      [
        'admin',
        'create-account',
        '--email',
        'bench@example.com',
        '--password',
        'benchmark!',
        '--plan',
        'unlimited',
        '--json',
      ],
      env,
    ),
  );
  const server = await startListening([CLI, 'server', '--port', '0'], env);
  const login = await fetch(`${server.url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.com', password: 'benchmark!' }),
  });
  const { token } = (await login.json()) as { token: string };
  const create = async (settings: object) => {
    const monitor = await fetch(`${server.url}/monitors`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: 'bench', ...settings }),
    });
    return ((await monitor.json()) as { monitorId: string }).monitorId;
  };
  const monitorIds: string[] = [];
  for (let i = 0; i < monitors; i++) monitorIds.push(await create({}));
  const scheduledIds: string[] = [];
  for (let i = 0; i < scheduled; i++) scheduledIds.push(await create({ schedule: { every: 60 }, startGrace: 60 }));
  return { server, env, apiKey: created.apiKey as string, monitorIds, scheduledIds };
}

function print(rows: Figures[], bare: Figures): void {
  console.log(
    `\nPOST /ping/:id/success, ${CONNECTIONS} connections, ${SECONDS} s each after ${WARMUP_SECONDS} s of warm-up`,
  );
  console.log(
    'target'.padEnd(22) +
      'pings/s'.padStart(10) +
      'p50 ms'.padStart(9) +
      'p99 ms'.padStart(9) +
      'errors'.padStart(8) +
      'ours/bare'.padStart(11),
  );
  for (const r of [bare, ...rows]) {
    const ratio = r === bare ? '' : (r.rps / bare.rps).toFixed(2);
    console.log(
      r.label.padEnd(22) +
        r.rps.toFixed(0).padStart(10) +
        String(r.p50).padStart(9) +
        String(r.p99).padStart(9) +
        String(r.errors).padStart(8) +
        ratio.padStart(11),
    );
  }
}

async function main(): Promise<void> {
  const rows: Figures[] = [];
  const bareServer = await startListening([BARE], {});
  const bare = await load('bare hapi', bareServer.url, 'none', ['mon_bare']);
  await bareServer.stop();

  const dataDir = mkdtempSync(join(tmpdir(), 'pingmon-bench-'));
  try {
    const sqlite = await ours({ PINGMON_DATA_DIR: dataDir });
    rows.push(await load('pingmon on SQLite', sqlite.server.url, sqlite.apiKey, sqlite.monitorIds));
    print(rows, bare);
    const cliEnv = {
      PINGMON_URL: sqlite.server.url,
      PINGMON_API_KEY: sqlite.apiKey,
      PINGMON_MONITOR: sqlite.monitorIds[0]!,
      XDG_CONFIG_HOME: dataDir,
    };
    await startupBench(cliEnv);
    await serverDownBench(cliEnv);
    await spoolRecoveryBench(cliEnv);
    await throughputBench(cliEnv, Number(process.env.BENCH_CAT_BYTES ?? 1024 ** 3));
    await sqlite.server.stop();

    if (POSTGRES_URL) {
      const schema = `bench_${randomBytes(4).toString('hex')}`;
      try {
        const pg = await ours(
          { PINGMON_DATA_DIR: dataDir, PINGMON_DATABASE_URL: POSTGRES_URL, PINGMON_DATABASE_SCHEMA: schema },
          PG_MONITORS,
          PG_MONITORS,
        );
        const one = await load('pingmon on PostgreSQL', pg.server.url, pg.apiKey, pg.monitorIds.slice(0, 1));
        const many = await load(`  ${PG_MONITORS} monitors`, pg.server.url, pg.apiKey, pg.monitorIds);
        // Each success on a scheduled monitor moves its next expected time: the monitor's row is written too.
        const scheduled = await load(`  ${PG_MONITORS} scheduled`, pg.server.url, pg.apiKey, pg.scheduledIds);
        rows.push(one, many, scheduled);
        await pg.server.stop();
        // The same database and account, served by `pingmon server --workers 2`.
        const workers = await startListening([CLI, 'server', '--port', '0', '--workers', '2'], pg.env);
        const twoOne = await load('  2 workers', workers.url, pg.apiKey, pg.monitorIds.slice(0, 1));
        const twoMany = await load(`  2 workers, ${PG_MONITORS} mon.`, workers.url, pg.apiKey, pg.monitorIds);
        rows.push(twoOne, twoMany);
        await workers.stop();
        const acknowledged = [one, many, scheduled, twoOne, twoMany].reduce((sum, r) => sum + r.acknowledged!, 0);
        const stored = await countRuns(POSTGRES_URL, schema);
        const ceilingOne = await ceiling('PostgreSQL alone', schema, pg.monitorIds.slice(0, 1));
        const ceilingMany = await ceiling(`  ${PG_MONITORS} monitors`, schema, pg.monitorIds);
        rows.push(ceilingOne, ceilingMany);
        console.log(
          `\nPostgreSQL: pingmon acknowledged ${acknowledged} pings, ` +
            `the database holds ${stored} runs (also those of requests autocannon cut at the end of each load); ` +
            `pingmon / PostgreSQL alone (one run row per transaction, ` +
            `${CONNECTIONS} connections): ${(one.rps / ceilingOne.rps).toFixed(2)} on one monitor, ` +
            `${(many.rps / ceilingMany.rps).toFixed(2)} on ${PG_MONITORS}; with 2 workers ` +
            `${(twoOne.rps / ceilingOne.rps).toFixed(2)} and ${(twoMany.rps / ceilingMany.rps).toFixed(2)}`,
        );
      } finally {
        const admin = knexFactory({ client: 'pg', connection: POSTGRES_URL });
        await admin.raw('drop schema if exists ?? cascade', [schema]);
        await admin.destroy();
      }
    } else {
      console.log('(PostgreSQL skipped: set PINGMON_TEST_DATABASE_URL or PINGMON_BENCH_DATABASE_URL)');
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (rows.length > 1) print(rows, bare);
  if (process.env.BENCH_SWEEP !== '0') await sweepBench(POSTGRES_URL);
  if (process.env.BENCH_PRUNE !== '0') await pruneBench(POSTGRES_URL);
  if (process.env.BENCH_DASHBOARD !== '0') await dashboardBench();
}

await main();
