import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import knexFactory from 'knex';
import type { Knex } from 'knex';
import type { Config } from '../config.js';
import { redactUrl } from '../config.js';
import { migrate } from './migrate.js';
import type { Dialect, Sql, TransactionSql } from './sql.js';
import { postgresSql, sqliteExecutors } from './sql.js';

export type { Dialect } from './sql.js';

/**
 * The one handle to the database. Every `db/` function takes an executor: `sql` outside a transaction,
 * or the one `transaction(fn)` hands `fn`. knex only connects PostgreSQL and runs the migrations.
 */
export interface Database {
  readonly dialect: Dialect;
  /** Where the data lives, for messages: a file path or a redacted URL. */
  readonly location: string;
  /** Statements outside a transaction, each committed on its own. */
  readonly sql: Sql;
  /** Runs `fn` in one transaction: all of it commits, or none of it. */
  transaction<T>(fn: (sql: TransactionSql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export class DatabaseUnavailableError extends Error {}

/** Busy SQLite (another process writing) is waited for this long before a statement fails. */
const SQLITE_BUSY_TIMEOUT_MS = 5_000;

/** Opens the configured database, checks it answers and applies pending migrations. */
export async function openDatabase(config: Config): Promise<Database> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl, config.databaseSchema);
  return openSqlite(config.dataDir);
}

export async function closeDatabase(db: Database): Promise<void> {
  await db.close();
}

function unavailable(location: string, err: unknown): DatabaseUnavailableError {
  const reason = err instanceof Error ? err.message : String(err);
  return new DatabaseUnavailableError(`cannot use the database at ${location}: ${reason}`, { cause: err });
}

/**
 * knex migrates the file on a connection of its own and closes it; pingmon's statements then run on one
 * better-sqlite3 connection, which the group committer shares with the statements outside transactions.
 */
async function openSqlite(dataDir: string): Promise<Database> {
  mkdirSync(dataDir, { recursive: true });
  const filename = join(dataDir, 'pingmon.db');
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
    conn = new BetterSqlite3(filename, { timeout: SQLITE_BUSY_TIMEOUT_MS });
    configureSqlite(conn);
  } catch (err) {
    conn?.close();
    throw unavailable(filename, err);
  } finally {
    await knex.destroy();
  }
  return { dialect: 'sqlite', location: filename, ...sqliteExecutors(conn) };
}

function configureSqlite(conn: { pragma(sql: string): unknown }): void {
  conn.pragma('journal_mode = WAL');
  // Another process may hold the write lock for a moment (two servers on one file, or an admin command).
  conn.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  // ON DELETE CASCADE removes a monitor's runs, logs, rules and alerts with it.
  conn.pragma('foreign_keys = ON');
  // In WAL mode NORMAL loses nothing on a process crash; only an OS crash can drop the last commits.
  conn.pragma('synchronous = NORMAL');
}

async function openPostgres(url: string, schema: string | undefined): Promise<Database> {
  const location = redactUrl(url) + (schema ? ` (schema ${schema})` : '');
  const knex = knexFactory({
    client: 'pg',
    connection: { connectionString: url, connectionTimeoutMillis: 5_000 },
    searchPath: schema ? [schema] : undefined,
    pool: { min: 0, max: 10 },
    acquireConnectionTimeout: 10_000,
    // knex prints failed connection attempts with stack traces; openDatabase reports them in one line instead.
    log: { warn() {}, error() {}, deprecate() {}, debug() {} },
  });
  try {
    await knex.raw('select 1');
    if (schema) await createSchema(knex, schema);
    await migrate(knex, 'postgres');
  } catch (err) {
    await knex.destroy();
    throw unavailable(location, err);
  }
  return {
    dialect: 'postgres',
    location,
    sql: postgresSql(knex),
    transaction: (fn) => knex.transaction((trx) => fn(postgresSql(trx, true))),
    close: () => knex.destroy(),
  };
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
