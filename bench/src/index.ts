import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import knexFactory from 'knex';
import { serverDownBench, startupBench, throughputBench } from './cli.js';
import { copyBench } from './copy.js';
import { CLI, startListening } from './processes.js';
import { dashboardBench } from './dashboard.js';
import { monitorCacheBench } from './known-monitors.js';
import { CONNECTIONS, SECONDS, WARMUP_SECONDS, load, print } from './load.js';
import type { Figures } from './load.js';
import { postgresCeiling } from './pg-ceiling.js';
import { startPingmon } from './pingmon.js';
import { pruneBench } from './prune.js';
import { redactedCatBench, redactorBench } from './redact.js';
import { rulesBench } from './rules.js';
import { spoolRecoveryBench } from './spool-recovery.js';
import { sqliteAlternated } from './sqlite-alternate.js';
import { sweepBench } from './sweep.js';

const POSTGRES_URL = process.env.PINGMON_BENCH_DATABASE_URL ?? process.env.PINGMON_TEST_DATABASE_URL;
const BARE = fileURLToPath(new URL('./bare-server.js', import.meta.url));
const PG_ROUTE = fileURLToPath(new URL('./pg-route.js', import.meta.url));
/**
 * PostgreSQL is also loaded across this many monitors, next to one: a rate-limited monitor's pings take its row in
 * turn.
 */
const PG_MONITORS = 50;
/** The goals of issue 26: pingmon on PostgreSQL against the bare hapi route with the same insert through `pg`. */
const GOAL_PLAIN = 0.7;
const GOAL_SCHEDULED = 0.6;

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

function versus(label: string, ours: Figures, route: Figures, goal: number): string {
  const ratio = ours.rps / route.rps;
  const verdict = ratio >= goal ? 'met' : 'NOT met';
  return `  ${label.padEnd(34)}${ratio.toFixed(2).padStart(6)} × the route  (goal ≥ ${goal}: ${verdict})`;
}

/**
 * pingmon on PostgreSQL (one process, then `--workers 2`), each load next to the bare route with the same insert
 * through `pg` (pg-route.ts), and PostgreSQL alone without HTTP (pg-ceiling.ts).
 */
async function postgresRows(
  url: string,
  dataDir: string,
): Promise<{ rows: Figures[]; against: Map<Figures, Figures> }> {
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const against = new Map<Figures, Figures>();
  try {
    // Retention off: one monitor gets past its 10,000 runs within seconds here, and a prune mid-load would both
    // cost the pings time no real monitor pays and leave fewer runs than were acknowledged.
    const pg = await startPingmon(
      {
        PINGMON_DATA_DIR: dataDir,
        PINGMON_DATABASE_URL: url,
        PINGMON_DATABASE_SCHEMA: schema,
        PINGMON_RETENTION_RUNS: '0',
      },
      PG_MONITORS,
      PG_MONITORS,
    );
    const route = await startListening([PG_ROUTE], { BENCH_ROUTE_DATABASE_URL: url, BENCH_ROUTE_SCHEMA: schema });
    const routeOne = await load('hapi + pg insert', route.url, 'none', pg.monitorIds.slice(0, 1));
    const one = await load('pingmon on PostgreSQL', pg.server.url, pg.apiKey, pg.monitorIds.slice(0, 1));
    const routeMany = await load(`hapi + pg, ${PG_MONITORS} monitors`, route.url, 'none', pg.monitorIds);
    const many = await load(`  ${PG_MONITORS} monitors`, pg.server.url, pg.apiKey, pg.monitorIds);
    // Each success on a scheduled monitor moves its next expected time: the monitor's row is written too. The
    // route is loaded again just before it: others' work on the machine drifts within a run.
    const routeScheduled = await load(`hapi + pg, ${PG_MONITORS} sched. ids`, route.url, 'none', pg.scheduledIds);
    const scheduled = await load(`  ${PG_MONITORS} scheduled (cron)`, pg.server.url, pg.apiKey, pg.scheduledIds);
    await route.stop();
    await pg.server.stop();
    // The same database and account, served by `pingmon server --workers 2`.
    const workers = await startListening([CLI, 'server', '--port', '0', '--workers', '2'], pg.env);
    const twoOne = await load('  2 workers', workers.url, pg.apiKey, pg.monitorIds.slice(0, 1));
    const twoMany = await load(`  2 workers, ${PG_MONITORS} mon.`, workers.url, pg.apiKey, pg.monitorIds);
    await workers.stop();
    const acknowledged = [one, many, scheduled, twoOne, twoMany].reduce((sum, r) => sum + r.acknowledged!, 0);
    const routeRuns = [routeOne, routeMany, routeScheduled].reduce((sum, r) => sum + r.acknowledged!, 0);
    const stored = (await countRuns(url, schema)) - routeRuns;
    const ceilingOne = await ceiling('PostgreSQL alone, no HTTP', schema, pg.monitorIds.slice(0, 1));
    const ceilingMany = await ceiling(`  ${PG_MONITORS} monitors`, schema, pg.monitorIds);
    for (const [ours, to] of [
      [one, routeOne],
      [many, routeMany],
      [scheduled, routeScheduled],
      [twoOne, routeOne],
      [twoMany, routeMany],
    ] as const) {
      against.set(ours, to);
    }
    // PostgreSQL alone is read on its own: no ratio printed.
    against.set(ceilingOne, ceilingOne);
    against.set(ceilingMany, ceilingMany);
    console.log(
      `\nPostgreSQL: pingmon acknowledged ${acknowledged} pings and the database holds ${stored} of their runs ` +
        '(more: also those of requests autocannon cut at the end of each load). ' +
        `pingmon against the bare hapi route with the same insert through pg (${CONNECTIONS} connections):\n` +
        [
          versus('plain, one monitor', one, routeOne, GOAL_PLAIN),
          versus(`plain, ${PG_MONITORS} monitors`, many, routeMany, GOAL_PLAIN),
          versus(`scheduled (cron), ${PG_MONITORS} monitors`, scheduled, routeScheduled, GOAL_SCHEDULED),
        ].join('\n') +
        `\nThe route against PostgreSQL alone: ${(routeOne.rps / ceilingOne.rps).toFixed(2)} on one monitor, ` +
        `${(routeMany.rps / ceilingMany.rps).toFixed(2)} on ${PG_MONITORS}.`,
    );
    return {
      rows: [routeOne, one, routeMany, many, routeScheduled, scheduled, twoOne, twoMany, ceilingOne, ceilingMany],
      against,
    };
  } finally {
    const admin = knexFactory({ client: 'pg', connection: url });
    await admin.raw('drop schema if exists ?? cascade', [schema]);
    await admin.destroy();
  }
}

async function main(): Promise<void> {
  const rows: Figures[] = [];
  let against = new Map<Figures, Figures>();
  const bareServer = await startListening([BARE], {});
  const bare = await load('bare hapi', bareServer.url, 'none', ['mon_bare']);
  await bareServer.stop();

  const dataDir = mkdtempSync(join(tmpdir(), 'pingmon-bench-'));
  try {
    const sqlite = await startPingmon({ PINGMON_DATA_DIR: dataDir });
    rows.push(await load('pingmon on SQLite', sqlite.server.url, sqlite.apiKey, sqlite.monitorIds));
    print(rows, bare);
    if (process.env.BENCH_CLI !== '0') {
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
      redactorBench();
      redactedCatBench(cliEnv);
    }
    await sqlite.server.stop();

    if (POSTGRES_URL) {
      const pg = await postgresRows(POSTGRES_URL, dataDir);
      rows.push(...pg.rows);
      against = pg.against;
    } else {
      console.log('(PostgreSQL skipped: set PINGMON_TEST_DATABASE_URL or PINGMON_BENCH_DATABASE_URL)');
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (rows.length > 1) print(rows, bare, against);
  if (process.env.BENCH_MONITOR_CACHE !== '0') await monitorCacheBench(POSTGRES_URL);
  if (process.env.BENCH_ROUNDS !== '0') await sqliteAlternated();
  if (process.env.BENCH_SWEEP !== '0') await sweepBench(POSTGRES_URL);
  if (process.env.BENCH_PRUNE !== '0') await pruneBench(POSTGRES_URL);
  if (process.env.BENCH_RULES !== '0') await rulesBench(POSTGRES_URL);
  if (process.env.BENCH_DASHBOARD !== '0') await dashboardBench();
  if (process.env.BENCH_COPY !== '0') await copyBench(POSTGRES_URL);
}

await main();
