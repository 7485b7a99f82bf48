import type { Config } from '../config.js';
import { openPostgres } from './postgres.js';
import { openSqlite } from './sqlite.js';
import type { Dialect, Sql, TransactionSql } from './sql.js';

export { isUniqueViolation } from './sql.js';
export type { Dialect } from './sql.js';
export { DatabaseUnavailableError } from './unavailable.js';

/**
 * The one handle to the database. Every `db/` function takes an executor: `sql` outside a transaction,
 * or the one `transaction(fn)` hands `fn`. knex only runs the migrations.
 */
export interface Database {
  /** Which database this is: a name for /health and the log, never a branch outside db/. */
  readonly dialect: Dialect;
  /** Where the data lives, for messages: a file path or a redacted URL. */
  readonly location: string;
  /** What opening it changed or found wrong, for the log (SQLite's file modes, db/file-modes.ts). */
  readonly notices: readonly string[];
  /** Statements outside a transaction, each committed on its own. */
  readonly sql: Sql;
  /**
   * Statements outside a transaction that each stand alone, committed together with those that arrive at the
   * same moment: in one transaction (PostgreSQL: db/batch.ts; SQLite: the group committer).
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

/** Opens the configured database, checks it answers and applies pending migrations. */
export async function openDatabase(config: Config): Promise<Database> {
  if (config.databaseUrl) {
    return {
      dialect: 'postgres',
      notices: [],
      ...(await openPostgres({ ...config, databaseUrl: config.databaseUrl })),
    };
  }
  return { dialect: 'sqlite', ...(await openSqlite(config.dataDir)) };
}

export async function closeDatabase(db: Database): Promise<void> {
  await db.close();
}

/** Epoch milliseconds from a bigint column (pg returns bigints as strings). */
export function ms(value: number | string): number;
export function ms(value: number | string | null): number | null;
export function ms(value: number | string | null): number | null {
  return value === null ? null : Number(value);
}
