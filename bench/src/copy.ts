import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import knexFactory from 'knex';
import { closeDatabase, loadConfig, openDatabase } from '@pingmon/server';
import { timed } from './cli.js';
import type { Timed } from './cli.js';
import { CLI, runCli } from './processes.js';

// Moving to PostgreSQL (docs/deploy.md#moving-to-postgresql): `pingmon admin copy` of an installation holding
// 1,000,000 runs, one in a hundred failed with a 4 KiB log, from SQLite to PostgreSQL; the second pass of the
// cut-over over the unchanged copy (the time the server stays stopped); and back to SQLite. Each copy verifies
// itself (counts and checksums): a wrong copy fails the bench.

const RUNS = Number(process.env.BENCH_COPY_RUNS ?? 1_000_000);
const LOG = 'x'.repeat(4096);

export async function copyBench(postgresUrl: string | undefined): Promise<void> {
  console.log(`\nMoving: pingmon admin copy of ${RUNS.toLocaleString('en-US')} runs (${RUNS / 100} with logs)`);
  if (!postgresUrl) return console.log('(skipped: set PINGMON_TEST_DATABASE_URL)');
  console.log('copy'.padEnd(34) + 'time'.padStart(9) + 'runs/s'.padStart(10) + 'peak RSS'.padStart(11));
  const source = mkdtempSync(join(tmpdir(), 'pingmon-copy-'));
  const back = mkdtempSync(join(tmpdir(), 'pingmon-copy-back-'));
  const schema = `bench_copy_${randomBytes(4).toString('hex')}`;
  const sqlite = { PINGMON_DATA_DIR: source, PINGMON_LOG_LEVEL: 'silent' };
  const to = `--to '${postgresUrl}' --to-schema ${schema}`;
  try {
    await fill(sqlite);
    row('SQLite → PostgreSQL', await copy(`admin copy ${to}`, sqlite));
    row('  second pass, nothing changed', await copy(`admin copy ${to} --update`, sqlite));
    const postgres = { PINGMON_DATABASE_URL: postgresUrl, PINGMON_DATABASE_SCHEMA: schema, PINGMON_DATA_DIR: back };
    row('PostgreSQL → SQLite', await copy(`admin copy --to '${back}/copy'`, postgres));
  } finally {
    rmSync(source, { recursive: true, force: true });
    rmSync(back, { recursive: true, force: true });
    const admin = knexFactory({ client: 'pg', connection: postgresUrl });
    await admin.raw('drop schema if exists ?? cascade', [schema]);
    await admin.destroy();
  }
}

function copy(args: string, env: Record<string, string>): Promise<Timed> {
  return timed(`'${process.execPath}' '${CLI}' ${args} > /dev/null`, env, /admin copy/);
}

function row(label: string, result: Timed): void {
  const seconds = result.ms / 1000;
  console.log(
    label.padEnd(34) +
      `${seconds.toFixed(1)} s`.padStart(9) +
      Math.round(RUNS / seconds)
        .toLocaleString('en-US')
        .padStart(10) +
      `${(result.peakRss / 1024 ** 2).toFixed(0)} MiB`.padStart(11),
  );
}

/** An account, a monitor, RUNS finished runs a second apart and a log for every hundredth (a failure). */
async function fill(env: Record<string, string>): Promise<void> {
  const created = JSON.parse(
    await runCli(['admin', 'create-account', '--email', 'copy@example.com', '--password', 'benchmark!', '--json'], env),
  ) as { accountId: string };
  const db = await openDatabase(loadConfig(env));
  try {
    const monitorId = 'mon_copybench00000001';
    await db.sql.changes('insert into monitors (id, account_id, name, created_at, slug) values (?, ?, ?, ?, ?)', [
      monitorId,
      created.accountId,
      'nightly backup',
      Date.now(),
      'nightly-backup',
    ]);
    const start = Date.now() - 86_400_000 - RUNS * 1000;
    await db.sql.changes(
      'with recursive c(x) as (select 1 union all select x + 1 from c where x < ?) ' +
        'insert into runs (monitor_id, id, account_id, status, started_at, finished_at, duration_ms, meta, ' +
        "error_message, has_log) select ?, printf('bench-%08d', x), ?, " +
        "case when x % 100 = 0 then 'failed' else 'success' end, ? + x * 1000, ? + x * 1000 + 500, 500, " +
        "'{\"rows\":42}', case when x % 100 = 0 then 'exit code 1' end, x % 100 = 0 from c",
      [RUNS, monitorId, created.accountId, start, start],
    );
    await db.sql.changes(
      "insert into run_logs (monitor_id, run_id, content) select monitor_id, id, ? from runs where status = 'failed'",
      [LOG],
    );
  } finally {
    await closeDatabase(db);
  }
}
