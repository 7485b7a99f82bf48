import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import knexFactory from 'knex';
import type { Knex } from 'knex';
import type { Config } from '../config.js';
import { redactUrl } from '../config.js';
import { keepPrivate } from './file-modes.js';
import { lostConnections } from './lost-connections.js';
import type { LostConnections, PooledClient } from './lost-connections.js';
import { migrate } from './migrate.js';
import type { Dialect, PgResult, PgRun, Sql, TransactionSql } from './sql.js';
import { batchedSql, prepareText } from './batch.js';
import { postgresSql, sqliteExecutors } from './sql.js';
import type { DatabaseUnavailableError } from './unavailable.js';
import { outageClassifier, unavailable } from './unavailable.js';

export type { Dialect } from './sql.js';
export { DatabaseUnavailableError } from './unavailable.js';

/**
 * The one handle to the database. Every `db/` function takes an executor: `sql` outside a transaction,
 * or the one `transaction(fn)` hands `fn`. knex only connects PostgreSQL and runs the migrations.
 */
export interface Database {
  readonly dialect: Dialect;
  /** Where the data lives, for messages: a file path or a redacted URL. */
  readonly location: string;
  /** What opening it changed or found wrong, for the log (SQLite's file modes, db/file-modes.ts). */
  readonly notices: readonly string[];
  /** Statements outside a transaction, each committed on its own. */
  readonly sql: Sql;
  /**
   * Statements outside a transaction that each stand alone, committed together with those that arrive at the
   * same moment (PostgreSQL: one round trip for all, db/batch.ts); on SQLite the same as `sql`.
   */
  readonly batched: Sql;
  /** Runs `fn` in one transaction: all of it commits, or none of it. */
  transaction<T>(fn: (sql: TransactionSql) => Promise<T>): Promise<T>;
  /**
   * Resolves once the database answers and takes writes, as a ping needs it to; rejects with
   * DatabaseUnavailableError when it does not (on SQLite, after waiting out another process's write lock).
   */
  check(): Promise<void>;
  close(): Promise<void>;
}

/** Busy SQLite (another process writing) is waited for this long while migrating at start-up. */
const SQLITE_BUSY_TIMEOUT_MS = 5_000;

/** Opens the configured database, checks it answers and applies pending migrations. */
export async function openDatabase(config: Config): Promise<Database> {
  if (config.databaseUrl) return openPostgres({ ...config, databaseUrl: config.databaseUrl });
  return openSqlite(config.dataDir);
}

export async function closeDatabase(db: Database): Promise<void> {
  await db.close();
}

function cannotOpen(location: string, err: unknown): DatabaseUnavailableError {
  return unavailable(location, err instanceof Error ? err.message : String(err), err);
}

/**
 * knex migrates the file on a connection of its own and closes it; pingmon's statements then run on one
 * better-sqlite3 connection, which the group committer shares with the statements outside transactions.
 */
async function openSqlite(dataDir: string): Promise<Database> {
  const filename = join(dataDir, 'pingmon.db');
  let notices: string[];
  try {
    notices = keepPrivate(dataDir, filename);
  } catch (err) {
    throw cannotOpen(filename, err);
  }
  const knex = knexFactory({
    client: 'better-sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    pool: {
      afterCreate(conn: { pragma(sql: string): unknown }, done: (err: Error | null, conn: unknown) => void) {
        configureSqlite(conn);
        done(null, conn);
      },
    },
  });
  let conn: BetterSqlite3.Database | undefined;
  try {
    await migrate(knex, 'sqlite');
    // No busy timeout of SQLite's own: it would sleep inside the statement, the event loop with it.
    // sqliteExecutors waits for other processes' locks with timers instead.
    conn = new BetterSqlite3(filename, { timeout: 0 });
    configureSqlite(conn, 0);
  } catch (err) {
    conn?.close();
    throw cannotOpen(filename, err);
  } finally {
    await knex.destroy();
  }
  const executors = sqliteExecutors(conn, outageClassifier(filename));
  // An empty transaction: it takes the write lock, which is what every ping needs.
  const check = () => executors.transaction(async () => undefined);
  return { dialect: 'sqlite', location: filename, notices, check, batched: executors.sql, ...executors };
}

function configureSqlite(conn: { pragma(sql: string): unknown }, busyTimeoutMs = SQLITE_BUSY_TIMEOUT_MS): void {
  conn.pragma('journal_mode = WAL');
  // Another process may hold the write lock for a moment (two servers on one file, or an admin command).
  conn.pragma(`busy_timeout = ${busyTimeoutMs}`);
  // ON DELETE CASCADE removes a monitor's runs, logs, rules and alerts with it.
  conn.pragma('foreign_keys = ON');
  // In WAL mode NORMAL loses nothing on a process crash; only an OS crash can drop the last commits.
  conn.pragma('synchronous = NORMAL');
}

/** A new pg client in knex's pool, as far as it is set up. */
interface SettableClient extends PooledClient {
  query(text: string, callback: (err: Error | null) => void): void;
  end(callback: () => void): void;
}

async function openPostgres(config: Config & { databaseUrl: string }): Promise<Database> {
  const { databaseUrl: url, databaseSchema: schema, databasePoolSize: poolSize } = config;
  const location = redactUrl(url) + (schema ? ` (schema ${schema})` : '');
  const connections = lostConnections();
  const knex = knexFactory({
    client: 'pg',
    connection: { connectionString: url, connectionTimeoutMillis: 5_000 },
    searchPath: schema ? [schema] : undefined,
    pool: {
      min: 0,
      max: poolSize,
      // A SET, not the connection's startup options, which a pooler (PgBouncer) may refuse.
      afterCreate(conn: SettableClient, done: (err: Error | null, conn: unknown) => void) {
        conn.query(`set idle_in_transaction_session_timeout = ${config.databaseIdleInTransactionMs}`, (err) => {
          // knex does not close a connection its afterCreate refused.
          if (err) conn.end(() => done(err, conn));
          else connections.afterCreate(conn, done);
        });
      },
    },
    acquireConnectionTimeout: 10_000,
    // Error messages name the statement, never its values (which can be secrets) in the log.
    compileSqlOnError: false,
    // knex prints failed connection attempts with stack traces; openDatabase reports them in one line instead.
    log: { warn() {}, error() {}, deprecate() {}, debug() {} },
  });
  connections.watch(knex);
  try {
    await knex.raw('select 1');
    if (schema) await createSchema(knex, schema);
    await migrate(knex, 'postgres');
  } catch (err) {
    await knex.destroy();
    throw cannotOpen(location, err);
  }
  const asOutage = outageClassifier(location, connections.lost);
  // knex keeps the pool (and its watch on lost connections); statements go to pg directly, prepared by name:
  // knex's query building and transactions cost about a third of a ping's time on PostgreSQL (measured).
  const pool = knex.client as unknown as PgPool;
  const acquire = async (): Promise<PgConnection> => {
    try {
      return await pool.acquireConnection();
    } catch (err) {
      throw asOutage(err);
    }
  };
  const on =
    (conn: PgConnection): PgRun =>
    async (statement) => {
      try {
        return await conn.query(statement);
      } catch (err) {
        connections.blame(err, conn);
        throw asOutage(err);
      }
    };
  const sql = postgresSql(async (statement) => {
    const conn = await acquire();
    try {
      return await on(conn)(statement);
    } finally {
      await pool.releaseConnection(conn);
    }
  }, false);
  const preparedOn = new WeakMap<PgConnection, Map<string, string>>();
  const batched = batchedSql(sql, async (build) => {
    const conn = await acquire();
    const prepared = preparedOn.get(conn) ?? new Map<string, string>();
    preparedOn.set(conn, prepared);
    const run = on(conn);
    try {
      const { prepare, execute } = build(prepared);
      // No values: pg sends the text with the simple query protocol, which takes several statements.
      if (prepare.size > 0) await run({ text: prepareText(prepare), values: [] });
      for (const [text, name] of prepare) prepared.set(text, name);
      const results = (await run({ text: execute, values: [] })) as PgResult | PgResult[];
      return Array.isArray(results) ? results : [results];
    } finally {
      await pool.releaseConnection(conn);
    }
  });
  return {
    dialect: 'postgres',
    location,
    notices: [],
    sql,
    batched,
    transaction: async (fn) => {
      const conn = await acquire();
      const run = on(conn);
      let open = false;
      try {
        await run({ text: 'BEGIN', values: [] });
        open = true;
        const result = await fn(postgresSql(run, true));
        open = false;
        await run({ text: 'COMMIT', values: [] });
        return result;
      } catch (err) {
        // A lost connection cannot roll back: PostgreSQL does, as the connection ends.
        if (open) await run({ text: 'ROLLBACK', values: [] }).catch(() => undefined);
        throw asOutage(err);
      } finally {
        await pool.releaseConnection(conn);
      }
    },
    check: async () => void (await sql.rows('select 1', [])),
    close: () => knex.destroy(),
  };
}

/** A pg client of knex's pool. */
type PgConnection = Parameters<LostConnections['blame']>[1] & { query: PgRun };

/** knex's client, as far as its pool is used directly. */
interface PgPool {
  acquireConnection(): Promise<PgConnection>;
  releaseConnection(conn: PgConnection): Promise<void>;
}

async function createSchema(knex: Knex, schema: string): Promise<void> {
  try {
    await knex.raw('create schema if not exists ??', [schema]);
  } catch (err) {
    // Two processes creating the schema at once: the loser sees a unique violation, and the schema exists.
    if (!isUniqueViolation(err)) throw err;
  }
}

export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return (
    code === '23505' ||
    code === '42P06' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

/** Epoch milliseconds from a bigint column (pg returns bigints as strings). */
export function ms(value: number | string): number;
export function ms(value: number | string | null): number | null;
export function ms(value: number | string | null): number | null {
  return value === null ? null : Number(value);
}
