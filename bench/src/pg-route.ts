import { randomUUID } from 'node:crypto';
import Hapi from '@hapi/hapi';
import pg from 'pg';
import { RUN_INSERT } from './pg-ceiling.js';

// The honest ceiling for an HTTP service on PostgreSQL: the bare hapi route, plus the one-row insert of the run
// a success ping opens, through `pg` directly (prepared by the driver), on a pool the size of pingmon's default.
const pool = new pg.Pool({
  connectionString: process.env.BENCH_ROUTE_DATABASE_URL,
  max: Number(process.env.BENCH_ROUTE_POOL_SIZE ?? 10),
  options: `-c search_path=${process.env.BENCH_ROUTE_SCHEMA}`,
});
const server = Hapi.server({ host: '127.0.0.1', port: 0 });
server.route({
  method: 'POST',
  path: '/api/v1/ping/{monitorId}/success',
  handler: async (request) => {
    const { monitorId } = request.params;
    const meta = (request.payload as { meta?: object } | null)?.meta ?? {};
    const runId = `run_${randomUUID()}`;
    const at = Date.now();
    await pool.query({ name: 'insert_run', text: RUN_INSERT, values: [monitorId, runId, at, JSON.stringify(meta)] });
    return {
      success: true,
      data: { received: true, monitorId, runId, status: 'success', timestamp: new Date(at).toISOString() },
    };
  },
});
await server.start();
process.stdout.write(`hapi with pg listening on ${server.info.uri}/api/v1\n`);
process.on('SIGTERM', () => void server.stop().then(() => pool.end().then(() => process.exit(0))));
