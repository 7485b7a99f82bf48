import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import knexFactory from 'knex';
import { closeDatabase, loadConfig, openDatabase } from '@pingmon/server';
import type { Database } from '@pingmon/server';
import { sweep } from '@pingmon/server/internal';
import type { SweepResult } from '@pingmon/server/internal';

// The sweeper's cost (docs/schedules.md): one sweep over N scheduled monitors of which 1% have just passed their
// deadline, on the real migrations and indexes, through the server's own sweep. Goal: under 1 s at 100,000.

const SIZES = [10_000, 100_000];
const TICKS = 3;
/** Deadlines are spread one second apart per 1% of the monitors: each tick moves the clock by a second. */
const STEP_MS = 1_000;
const BASE = Date.parse('2027-01-04T00:00:00Z');
/** One sweeper, never resuming: no gap between these ticks is a time when pingmon was not sweeping. */
const NO_OUTAGE = {
  self: { sweeperId: 'swp_bench', host: 'bench', pid: 0, processStartedAt: 0, intervalMs: STEP_MS },
  resuming: false,
  lastSweepAt: null,
  outageAfterMs: Number.MAX_SAFE_INTEGER,
  isGone: () => false,
};

interface Case {
  label: string;
  due: number;
  ms: number[];
  handled: number[];
}

export async function sweepBench(postgresUrl: string | undefined): Promise<void> {
  console.log('\nSweep: one sweep over N scheduled monitors, 1% of them due (median of 3 sweeps)');
  console.log(
    'database'.padEnd(12) + 'monitors'.padStart(10) + '  case'.padEnd(26) + 'due'.padStart(7) + 'ms'.padStart(9),
  );
  for (const n of SIZES) {
    const dir = mkdtempSync(join(tmpdir(), 'pingmon-sweep-'));
    try {
      await measure('SQLite', n, { PINGMON_DATA_DIR: dir });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (!postgresUrl)
    return console.log('(PostgreSQL skipped: set PINGMON_TEST_DATABASE_URL or PINGMON_BENCH_DATABASE_URL)');
  for (const n of SIZES) {
    const schema = `bench_sweep_${randomBytes(4).toString('hex')}`;
    try {
      await measure('PostgreSQL', n, { PINGMON_DATABASE_URL: postgresUrl, PINGMON_DATABASE_SCHEMA: schema }, true);
    } finally {
      const admin = knexFactory({ client: 'pg', connection: postgresUrl });
      await admin.raw('drop schema if exists ?? cascade', [schema]);
      await admin.destroy();
    }
  }
}

async function measure(label: string, n: number, env: Record<string, string>, explain = false): Promise<void> {
  const db = await openDatabase(loadConfig({ ...env, PINGMON_LOG_LEVEL: 'silent' }));
  try {
    await seed(db, n);
    // As autovacuum would after such a load: the planner knows the table's size.
    if (db.dialect === 'postgres') await db.sql.changes('analyze', []);
    if (explain) await printPlans(db);
    const onePercent = n / 100;
    const cases: Case[] = [
      { label: 'missed (1% due)', due: onePercent, ms: [], handled: [] },
      { label: 'nothing due', due: 0, ms: [], handled: [] },
      { label: 'timed out (1% due)', due: onePercent, ms: [], handled: [] },
    ];
    // Each tick, the clock passes the deadlines of the next 1% of the monitors.
    for (let tick = 1; tick <= TICKS; tick++) {
      const now = BASE + tick * STEP_MS;
      const missed = await timed(db, now);
      record(cases[0]!, missed.ms, missed.result.missed);
      const idle = await timed(db, now);
      record(cases[1]!, idle.ms, idle.result.missed + idle.result.timedOut);
      await openOverdueRuns(db, n, tick, now);
      const timedOut = await timed(db, now);
      record(cases[2]!, timedOut.ms, timedOut.result.timedOut);
    }
    for (const c of cases) {
      const wrong = c.handled.filter((h) => h !== c.due);
      const note = wrong.length > 0 ? `  ERROR: handled ${c.handled.join(', ')}, expected ${c.due} each` : '';
      console.log(
        label.padEnd(12) +
          n.toLocaleString('en-US').padStart(10) +
          `  ${c.label}`.padEnd(26) +
          String(c.due).padStart(7) +
          median(c.ms).toFixed(1).padStart(9) +
          note,
      );
    }
  } finally {
    await closeDatabase(db);
  }
}

function record(c: Case, ms: number, handled: number): void {
  c.ms.push(ms);
  c.handled.push(handled);
}

async function timed(db: Database, now: number): Promise<{ ms: number; result: SweepResult }> {
  const started = performance.now();
  const result = await sweep(db, now, NO_OUTAGE);
  return { ms: performance.now() - started, result };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * One account and `n` monitors, half on an hourly `every`, half on a Berlin cron, all with a 1-hour maxRuntime;
 * monitor i's deadline passes at tick (i mod 100) + 1.
 */
async function seed(db: Database, n: number): Promise<void> {
  await db.sql.changes("insert into accounts (id, plan, created_at) values ('acc_bench', 'unlimited', 0)", []);
  const columns = 'id, account_id, name, slug, created_at, schedule, max_runtime, next_expected_at, missed_at';
  const hourly = JSON.stringify({ every: 3600 });
  const nightly = JSON.stringify({ cron: '0 3 * * *', timezone: 'Europe/Berlin' });
  const ROWS = 500;
  for (let from = 0; from < n; from += ROWS) {
    const params: Array<string | number> = [];
    const count = Math.min(ROWS, n - from);
    for (let i = from; i < from + count; i++) {
      const missedAt = BASE + ((i % 100) + 1) * STEP_MS;
      params.push(
        monitorId(i),
        'acc_bench',
        `job ${i}`,
        `job-${i}`,
        0,
        i % 2 ? hourly : nightly,
        3600,
        missedAt - 300_000,
        missedAt,
      );
    }
    const rows = Array.from({ length: count }, () => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
    await db.transaction((sql) => sql.changes(`insert into monitors (${columns}) values ${rows}`, params));
  }
}

const monitorId = (i: number) => `mon_bench${String(i).padStart(7, '0')}`;

/** A running run past its maxRuntime for 1% of the monitors: those whose deadlines passed at this tick. */
async function openOverdueRuns(db: Database, n: number, tick: number, now: number): Promise<void> {
  const columns = 'monitor_id, id, account_id, status, started_at, meta, has_log, timeout_at';
  const ROWS = 500;
  const ids: number[] = [];
  for (let i = tick - 1; i < n; i += 100) ids.push(i);
  for (let from = 0; from < ids.length; from += ROWS) {
    const chunk = ids.slice(from, from + ROWS);
    const params = chunk.flatMap((i) => [
      monitorId(i),
      `run-${tick}-${i}`,
      'acc_bench',
      'running',
      now - 3_700_000,
      '{}',
      false,
      now - 100_000,
    ]);
    const rows = chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
    await db.transaction((sql) => sql.changes(`insert into runs (${columns}) values ${rows}`, params));
  }
}

async function printPlans(db: Database): Promise<void> {
  const plan = async (query: string) =>
    (await db.sql.rows<{ 'QUERY PLAN': string }>(`explain ${query}`, [BASE, 500]))
      .map((r) => `    ${r['QUERY PLAN']}`)
      .join('\n');
  console.log('  PostgreSQL plan of the missed-run claim:');
  console.log(
    await plan('select id from monitors where missed_at <= ? order by missed_at limit ? for update skip locked'),
  );
  console.log('  and of the overdue-run search:');
  console.log(
    await plan(
      "select monitor_id, id from runs where status = 'running' and timeout_at <= ? order by timeout_at limit ?",
    ),
  );
}
