import { randomBytes } from 'node:crypto';
import pg from 'pg';

// What this machine's PostgreSQL can do for a ping's durable work without pingmon: one run row inserted per
// transaction (autocommit, as pgbench's simple protocol does), into pingmon's own runs table (same indexes, same
// foreign key), from as many concurrent connections as the load has. pingmon's PostgreSQL figures are read
// against it (issue: PostgreSQL as fast as the database allows).

/** A success ping's run, as pingmon inserts it: ($1 monitor, $2 run id, $3 time, $4 meta). */
export const RUN_INSERT =
  'insert into runs (monitor_id, id, account_id, status, started_at, finished_at, duration_ms, meta, ' +
  "error_message, has_log, matched_rules) values ($1, $2, 'acc_ceiling', 'success', $3, $3, null, $4, null, " +
  'false, null)';
const META = JSON.stringify({ rowsProcessed: 42 });

export interface Ceiling {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  rows: number;
}

export async function postgresCeiling(
  url: string,
  schema: string,
  monitorIds: string[],
  connections: number,
  seconds: number,
  warmupSeconds: number,
): Promise<Ceiling> {
  const pool = new pg.Pool({ connectionString: url, max: connections, options: `-c search_path=${schema}` });
  try {
    await hammer(pool, RUN_INSERT, monitorIds, connections, warmupSeconds);
    const measured = await hammer(pool, RUN_INSERT, monitorIds, connections, seconds);
    const [{ count }] = (
      await pool.query<{ count: string }>("select count(*) as count from runs where account_id = 'acc_ceiling'")
    ).rows as [{ count: string }];
    const sorted = measured.latencies.sort((a, b) => a - b);
    const at = (q: number) => Number(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]?.toFixed(1));
    return {
      rps: measured.rows / seconds,
      p50: at(0.5),
      p99: at(0.99),
      errors: measured.errors,
      rows: Number(count),
    };
  } finally {
    await pool.end();
  }
}

async function hammer(pool: pg.Pool, insert: string, monitorIds: string[], connections: number, seconds: number) {
  const until = performance.now() + seconds * 1000;
  let rows = 0;
  let errors = 0;
  let next = 0;
  const latencies: number[] = [];
  const prefix = randomBytes(4).toString('hex');
  const client = async () => {
    while (performance.now() < until) {
      const n = next++;
      const began = performance.now();
      try {
        await pool.query(insert, [monitorIds[n % monitorIds.length], `ceiling-${prefix}-${n}`, Date.now(), META]);
        rows++;
        latencies.push(performance.now() - began);
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, client));
  return { rows, latencies, errors };
}
