import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import knexFactory from 'knex';
import type { Knex } from 'knex';
import type { Config } from '../config.js';
import { redactUrl } from '../config.js';
import { migrate } from './migrate.js';
import type { Sql } from './sql.js';
import { GroupCommitter, knexSql } from './sql.js';
import type { SqliteClient } from './sql.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  readonly knex: Knex;
  readonly dialect: Dialect;
  /** Where the data lives, for messages: a file path or a redacted URL. */
  readonly location: string;
  /** Plain SQL outside a transaction. */
  readonly sql: Sql;
  /** SQLite only: commits concurrent ping transactions together (see sql.ts). */
  readonly committer?: GroupCommitter;
}

export class DatabaseUnavailableError extends Error {}

/** Opens the configured database, checks it answers and applies pending migrations. */
export async function openDatabase(config: Config): Promise<Database> {
  const db = config.databaseUrl ? openPostgres(config.databaseUrl, config.databaseSchema) : openSqlite(config.dataDir);
  try {
    await db.knex.raw('select 1');
    if (db.dialect === 'postgres' && config.databaseSchema) await createSchema(db.knex, config.databaseSchema);
    await migrate(db.knex, db.dialect);
  } catch (err) {
    await db.knex.destroy();
    const reason = err instanceof Error ? err.message : String(err);
    throw new DatabaseUnavailableError(`cannot use the database at ${db.location}: ${reason}`, { cause: err });
  }
  return db;
}

export async function closeDatabase(db: Database): Promise<void> {
  await db.knex.destroy();
}

function openSqlite(dataDir: string): Database {
  mkdirSync(dataDir, { recursive: true });
  const filename = join(dataDir, 'pingmon.db');
  const knex = knexFactory({
    client: 'better-sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    pool: {
      afterCreate(conn: { pragma(sql: string): unknown }, done: (err: Error | null, conn: unknown) => void) {
        conn.pragma('journal_mode = WAL');
        // Another process may hold the write lock for a moment (two servers on one file, or an admin command).
        conn.pragma('busy_timeout = 5000');
        conn.pragma('foreign_keys = ON');
        // In WAL mode NORMAL loses nothing on a process crash; only an OS crash can drop the last commits.
        conn.pragma('synchronous = NORMAL');
        done(null, conn);
      },
    },
  });
  return { knex, dialect: 'sqlite', location: filename, sql: knexSql(knex, 'sqlite'), committer: new GroupCommitter(knex.client as SqliteClient) };
}

function openPostgres(url: string, schema: string | undefined): Database {
  const knex = knexFactory({
    client: 'pg',
    connection: { connectionString: url, connectionTimeoutMillis: 5_000 },
    searchPath: schema ? [schema] : undefined,
    pool: { min: 0, max: 10 },
    acquireConnectionTimeout: 10_000,
    // knex prints failed connection attempts with stack traces; openDatabase reports them in one line instead.
    log: { warn() {}, error() {}, deprecate() {}, debug() {} },
  });
  return { knex, dialect: 'postgres', location: redactUrl(url) + (schema ? ` (schema ${schema})` : ''), sql: knexSql(knex, 'postgres') };
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
  return code === '23505' || code === '42P06' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** Epoch milliseconds from a bigint column (pg returns bigints as strings). */
export function ms(value: number | string): number;
export function ms(value: number | string | null): number | null;
export function ms(value: number | string | null): number | null {
  return value === null ? null : Number(value);
}
