import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import knexFactory from 'knex';
import { closeDatabase, loadConfig, openDatabase } from '@pingmon/server';
import { CLI, runCli, startListening } from './processes.js';

// Retention's cost to pings (docs/configuration.md#retention): a monitor holding 1,000,000 runs is cut down to its
// newest 10,000 by a server while another monitor takes pings. Goal: ping p99 during the pruning at most 2 × idle.

const RUNS = Number(process.env.BENCH_PRUNE_RUNS ?? 1_000_000);
const KEEP = 10_000;
const SECONDS = 10;
const CONNECTIONS = 10;

type Env = Record<string, string>;

export async function pruneBench(postgresUrl: string | undefined): Promise<void> {
  console.log(
    `\nRetention: pings to one monitor while another's ${RUNS.toLocaleString('en-US')} runs are cut to ${KEEP}`,
  );
  console.log(
    'database'.padEnd(12) +
      'idle p99'.padStart(10) +
      'pruning p99'.padStart(13) +
      'ratio'.padStart(7) +
      'pings/s idle/pruning'.padStart(23) +
      'errors'.padStart(8) +
      '  time to prune',
  );
  const dir = mkdtempSync(join(tmpdir(), 'pingmon-prune-'));
  try {
    await measure('SQLite', { PINGMON_DATA_DIR: dir });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (!postgresUrl) return console.log('(PostgreSQL skipped: set PINGMON_TEST_DATABASE_URL)');
  const schema = `bench_prune_${randomBytes(4).toString('hex')}`;
  try {
    await measure('PostgreSQL', { PINGMON_DATABASE_URL: postgresUrl, PINGMON_DATABASE_SCHEMA: schema });
  } finally {
    const admin = knexFactory({ client: 'pg', connection: postgresUrl });
    await admin.raw('drop schema if exists ?? cascade', [schema]);
    await admin.destroy();
  }
}

async function measure(label: string, env: Env): Promise<void> {
  const off = { ...env, PINGMON_RETENTION_DAYS: '0', PINGMON_RETENTION_RUNS: '0', PINGMON_LOG_LEVEL: 'silent' };
  const created = JSON.parse(
    await runCli(
      [
        'admin',
        'create-account',
        '--email',
        'prune@example.com',
        '--password',
        'benchmark!',
        '--plan',
        'unlimited',
        '--json',
      ],
      off,
    ),
  ) as { accountId: string; apiKey: string };
  let server = await startListening([CLI, 'server', '--port', '0'], off);
  const [big, hot] = await monitors(server.url, ['big', 'hot']);
  await server.stop();
  await fill(env, created.accountId, big!);

  server = await startListening([CLI, 'server', '--port', '0'], off);
  const idle = await load(server.url, created.apiKey, hot!);
  await server.stop();

  const started = Date.now();
  const pruning = { ...off, PINGMON_RETENTION_RUNS: String(KEEP), PINGMON_PRUNE_INTERVAL: '0.5' };
  server = await startListening([CLI, 'server', '--port', '0'], pruning);
  const during = await load(server.url, created.apiKey, hot!);
  const left = await waitForPruned(env, big!);
  const pruneSeconds = (Date.now() - started) / 1000;
  await server.stop();
  console.log(
    label.padEnd(12) +
      `${idle.p99} ms`.padStart(10) +
      `${during.p99} ms`.padStart(13) +
      (during.p99 / Math.max(1, idle.p99)).toFixed(2).padStart(7) +
      `${idle.rps.toFixed(0)}/${during.rps.toFixed(0)}`.padStart(23) +
      String(idle.errors + during.errors).padStart(8) +
      `  ${pruneSeconds.toFixed(1)} s (${left} runs left)`,
  );
}

async function monitors(url: string, names: string[]): Promise<string[]> {
  const login = await fetch(`${url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'prune@example.com', password: 'benchmark!' }),
  });
  const { token } = (await login.json()) as { token: string };
  const ids: string[] = [];
  for (const name of names) {
    const reply = await fetch(`${url}/monitors`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ name }),
    });
    ids.push(((await reply.json()) as { monitorId: string }).monitorId);
  }
  return ids;
}

/** RUNS finished runs, one a second, ending a day ago: one statement on either database. */
async function fill(env: Env, accountId: string, monitorId: string): Promise<void> {
  const db = await openDatabase(loadConfig(env));
  try {
    const start = Date.now() - 86_400_000 - RUNS * 1000;
    await db.sql.changes(
      'with recursive c(x) as (select 1 union all select x + 1 from c where x < ?) ' +
        'insert into runs (monitor_id, id, account_id, status, started_at, finished_at, duration_ms, meta, ' +
        "error_message, has_log) select ?, 'bench-' || x, ?, 'success', cast(? as bigint) + x * 1000, " +
        "cast(? as bigint) + x * 1000 + 500, 500, '{}', null, false from c",
      [RUNS, monitorId, accountId, start, start],
    );
  } finally {
    await closeDatabase(db);
  }
}

async function load(url: string, apiKey: string, monitorId: string) {
  const options = {
    url: `${url}/ping/${monitorId}/success`,
    method: 'POST' as const,
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: '{}',
    connections: CONNECTIONS,
  };
  await autocannon({ ...options, duration: 2 });
  const result = await autocannon({ ...options, duration: SECONDS });
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/** Polls the run count of `monitorId` until retention has left KEEP (at most 10 minutes). */
async function waitForPruned(env: Env, monitorId: string): Promise<number> {
  const db = await openDatabase(loadConfig(env));
  try {
    const deadline = Date.now() + 600_000;
    for (;;) {
      const [row] = await db.sql.rows<{ n: number | string }>('select count(*) as n from runs where monitor_id = ?', [
        monitorId,
      ]);
      const left = Number(row!.n);
      if (left <= KEEP || Date.now() > deadline) return left;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    await closeDatabase(db);
  }
}
