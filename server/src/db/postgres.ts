import knexFactory from 'knex';
import type { Knex } from 'knex';
import pg from 'pg';
import type { Config } from '../config.js';
import { redactUrl } from '../config.js';
import { batchedSql } from './batch.js';
import { runArrayForm } from './runs.js';
import { LostConnections } from './lost-connections.js';
import { migrate } from './migrate.js';
import type { RowLock, Sql, SqlParam, TransactionSql } from './sql.js';
import { isUniqueViolation } from './sql.js';
import type { DatabaseUnavailableError } from './unavailable.js';
import { outageClassifier, unavailable } from './unavailable.js';

/** One statement for a PostgreSQL connection, in pg's terms. */
export interface PgStatement {
  name?: string;
  text: string;
  values: readonly unknown[];
}

/** What pg answers a statement, as far as pingmon reads it. */
export interface PgResult {
  rows: unknown[];
  rowCount: number | null;
}

/** Runs one statement on a PostgreSQL connection: one of the pool's, or a transaction's own. */
export type PgRun = (statement: PgStatement) => Promise<PgResult>;

/** A connection attempt, and the wait for a pooled connection, fail after this long. */
const CONNECT_TIMEOUT_MS = 5_000;

/** The PostgreSQL executors on one pg.Pool; knex only migrates, on connections of its own that it then closes. */
export async function openPostgres(config: Config & { databaseUrl: string }) {
  const { databaseUrl: url, databaseSchema: schema } = config;
  const location = redactUrl(url) + (schema ? ` (schema ${schema})` : '');
  const cannotOpen = (err: unknown): DatabaseUnavailableError =>
    unavailable(location, err instanceof Error ? err.message : String(err), err);
  try {
    await migrateOnce(url, schema);
  } catch (err) {
    throw cannotOpen(err);
  }
  const connections = new LostConnections();
  // SETs, not the connection's startup options, which a pooler (PgBouncer) may refuse.
  const settings =
    (schema ? `set search_path to ${pg.escapeIdentifier(schema)}; ` : '') +
    `set idle_in_transaction_session_timeout = ${Number(config.databaseIdleInTransactionMs)}`;
  const pool = new pg.Pool({
    connectionString: url,
    max: config.databasePoolSize,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // pg-pool waits for this promise before it hands the client out (@types/pg says void).
    // eslint-disable-next-line @typescript-eslint/no-misused-promises
    onConnect: async (client) => void (await client.query(settings)),
  });
  connections.watch(pool);
  const asOutage = outageClassifier(location, connections.lost);
  const executors = postgresExecutors(pool, connections, asOutage);
  try {
    await executors.sql.rows('select 1', []);
  } catch (err) {
    await pool.end();
    throw cannotOpen(err);
  }
  // Closing twice (a server stopped twice) closes once.
  let closed: Promise<void> | undefined;
  return { location, ...executors, close: () => (closed ??= pool.end()) };
}

/** knex applies the migrations, then closes its connections: pingmon's statements go to pg.Pool. */
async function migrateOnce(url: string, schema: string | undefined): Promise<void> {
  const knex = knexFactory({
    client: 'pg',
    connection: { connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS },
    searchPath: schema ? [schema] : undefined,
    // The migration lock's transaction, and the migrations beside it.
    pool: { min: 0, max: 2 },
    acquireConnectionTimeout: 10_000,
    compileSqlOnError: false,
    // knex prints failed connection attempts with stack traces; openDatabase reports them in one line instead.
    log: { warn() {}, error() {}, deprecate() {}, debug() {} },
  });
  try {
    await knex.raw('select 1');
    if (schema) await createSchema(knex, schema);
    await migrate(knex, 'postgres');
  } finally {
    await knex.destroy();
  }
}

async function createSchema(knex: Knex, schema: string): Promise<void> {
  try {
    await knex.raw('create schema if not exists ??', [schema]);
  } catch (err) {
    // Two processes creating the schema at once: the loser sees a unique violation, and the schema exists.
    if (!isUniqueViolation(err)) throw err;
  }
}

function postgresExecutors(pool: pg.Pool, connections: LostConnections, asOutage: (err: unknown) => unknown) {
  const acquire = async (): Promise<pg.PoolClient> => {
    try {
      return await pool.connect();
    } catch (err) {
      connections.failedToConnect(err);
      throw asOutage(err);
    }
  };
  // A lost client goes back with an error, so that the pool destroys it instead of handing it out again.
  const release = (client: pg.PoolClient) => client.release(connections.isLost(client));
  const on =
    (client: pg.PoolClient): PgRun =>
    async (statement) => {
      try {
        return await client.query({ ...statement, values: statement.values as unknown[] });
      } catch (err) {
        connections.blame(err, client);
        throw asOutage(err);
      }
    };
  const sql = postgresSql(async (statement) => {
    const client = await acquire();
    try {
      return await on(client)(statement);
    } finally {
      release(client);
    }
  }, false);
  const begin = async <T>(fn: (run: PgRun) => Promise<T>, opening = 'BEGIN'): Promise<T> => {
    const client = await acquire();
    const run = on(client);
    let open = false;
    try {
      await run({ text: opening, values: [] });
      open = true;
      const result = await fn(run);
      open = false;
      await run({ text: 'COMMIT', values: [] });
      return result;
    } catch (err) {
      // A lost connection cannot roll back: PostgreSQL does, as the connection ends.
      if (open) await run({ text: 'ROLLBACK', values: [] }).catch(() => undefined);
      throw asOutage(err);
    } finally {
      release(client);
    }
  };
  const transaction = <T>(fn: (sql: TransactionSql) => Promise<T>) => begin((run) => fn(postgresSql(run, true)));
  // Batches pass arrays, in statements prepared as any other. Planned once: PostgreSQL would plan each anew, its
  // generic plan costed for arrays of 100 against the few items a batch has.
  const batched = batchedSql(
    sql,
    (fn) => begin((run) => fn((text, values) => run({ ...pgStatement(text), values })), BEGIN_GENERIC),
    runArrayForm,
  );
  return { sql, batched, transaction, check: async () => void (await sql.rows('select 1', [])) };
}

// One message: a simple query may hold several statements.
const BEGIN_GENERIC = 'BEGIN; SET LOCAL plan_cache_mode = force_generic_plan';

/** Statements are prepared by name on each connection, up to this many texts (`in (…)` lists vary). */
const PREPARED_MAX = 1_000;
/** Past this many texts, `?` is turned into `$n` at each call instead of once. */
const CONVERTED_MAX = 10_000;
const converted = new Map<string, { name?: string; text: string }>();

/**
 * `?` placeholders as PostgreSQL's `$1…`, and the name the statement is prepared under: PostgreSQL parses
 * and plans it once per connection instead of at each call.
 */
function pgStatement(sql: string): { name?: string; text: string } {
  let statement = converted.get(sql);
  if (statement) return statement;
  let n = 0;
  const text = sql.replace(/\?/g, () => `$${++n}`);
  statement = { text, name: converted.size < PREPARED_MAX ? `pingmon_${converted.size}` : undefined };
  if (converted.size < CONVERTED_MAX) converted.set(sql, statement);
  return statement;
}

const lockedTexts = new Map<string, string>();

/** The select with its locking clause, built once per text (the statement cache is keyed by it). */
export function locking(select: string, lock: RowLock): string {
  const key = `${lock}\0${select}`;
  let text = lockedTexts.get(key);
  if (text === undefined) {
    text = `${select} for ${lock}`;
    if (lockedTexts.size < CONVERTED_MAX) lockedTexts.set(key, text);
  }
  return text;
}

/** PostgreSQL's executor: statements outside a transaction (`run` takes a connection for each), or inside one. */
export function postgresSql(run: PgRun, inTransaction: false): Sql;
export function postgresSql(run: PgRun, inTransaction: true): TransactionSql;
export function postgresSql(run: PgRun, inTransaction: boolean): Sql {
  const execute = (sql: string, params: readonly SqlParam[]) => run({ ...pgStatement(sql), values: params });
  return {
    locking,
    inTransaction,
    rows: async <T>(sql: string, params: readonly SqlParam[]) => (await execute(sql, params)).rows as T[],
    changes: async (sql: string, params: readonly SqlParam[]) => (await execute(sql, params)).rowCount ?? 0,
    changesIf: async (w) => (await execute(w.inline, [...w.values, ...w.condition])).rowCount ?? 0,
  };
}
