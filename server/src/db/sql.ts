import type { Knex } from 'knex';
import type { Database } from './index.js';

/**
 * Plain SQL with `?` placeholders, run the same way on both dialects. The ping path uses it instead of
 * knex's query builder: on SQLite it runs as cached prepared statements, which is most of its speed.
 */
export type SqlParam = string | number | boolean | null;

export interface Sql {
  rows<T>(sql: string, params: readonly SqlParam[]): Promise<T[]>;
  /** Runs a statement; the number of rows it changed. */
  changes(sql: string, params: readonly SqlParam[]): Promise<number>;
  readonly dialect: Database['dialect'];
}

interface SqliteStatement {
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): { changes: number };
}

interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
}

// SQLite has no boolean type; better-sqlite3 refuses JS booleans.
const sqliteParams = (params: readonly SqlParam[]): SqlParam[] => params.map((p) => (typeof p === 'boolean' ? Number(p) : p));

const statementCaches = new WeakMap<SqliteConnection, Map<string, SqliteStatement>>();

function preparedSql(conn: SqliteConnection): Sql {
  let cache = statementCaches.get(conn);
  if (!cache) statementCaches.set(conn, (cache = new Map()));
  const statement = (sql: string) => {
    let stmt = cache!.get(sql);
    if (!stmt) cache!.set(sql, (stmt = conn.prepare(sql)));
    return stmt;
  };
  return {
    dialect: 'sqlite',
    rows: async <T>(sql: string, params: readonly SqlParam[]) => statement(sql).all(...sqliteParams(params)) as T[],
    changes: async (sql: string, params: readonly SqlParam[]) => statement(sql).run(...sqliteParams(params)).changes,
  };
}

/** SQL through knex.raw: for PostgreSQL, and for reads outside the ping path on either dialect. */
export function knexSql(knex: Knex, dialect: Database['dialect']): Sql {
  if (dialect === 'sqlite') {
    return {
      dialect,
      rows: async <T>(sql: string, params: readonly SqlParam[]) => (await knex.raw(sql, sqliteParams(params))) as T[],
      changes: async (sql: string, params: readonly SqlParam[]) => {
        // knex.raw on better-sqlite3 runs writes with .run() and answers its info object.
        const info = (await knex.raw(sql, sqliteParams(params))) as { changes?: number };
        return info.changes ?? 0;
      },
    };
  }
  return {
    dialect,
    rows: async <T>(sql: string, params: readonly SqlParam[]) => ((await knex.raw(sql, params)) as { rows: T[] }).rows,
    changes: async (sql: string, params: readonly SqlParam[]) => ((await knex.raw(sql, params)) as { rowCount: number }).rowCount,
  };
}

/** Runs `fn` in one transaction: all of it commits, or none of it. */
export async function inTransaction<T>(db: Database, fn: (sql: Sql) => Promise<T>): Promise<T> {
  if (!db.committer) return db.knex.transaction((trx) => fn(knexSql(trx, db.dialect)));
  return db.committer.run(fn);
}

interface Work {
  fn: (sql: Sql) => Promise<unknown>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

export type SqliteClient = { acquireConnection(): Promise<SqliteConnection>; releaseConnection(conn: SqliteConnection): Promise<void> };

/**
 * SQLite commits one transaction at a time, and a commit costs more than the statements in it.
 * Work that arrives while a batch runs waits for the next batch, which runs all of it in one
 * transaction, each piece in its own savepoint (a failing piece rolls back only itself).
 * Nothing is answered before its COMMIT, and an idle server runs a piece at once, alone.
 * A piece must use the sql it is given and never start another transaction: that one would wait for
 * the next batch, which waits for this one. (A guard with AsyncLocalStorage cost a fifth of the
 * ping path's time on Node 20, so this is a rule, not a check.)
 */
export class GroupCommitter {
  private queue: Work[] = [];
  private running = false;

  constructor(private readonly client: SqliteClient) {}

  run<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, resolve: resolve as (value: unknown) => void, reject });
      if (!this.running) {
        this.running = true;
        // Statements run synchronously, so a batch never yields to I/O: start it after this turn's
        // I/O phase, so that every request read in that phase joins it.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = [];
        await this.commit(batch).catch((err: unknown) => batch.forEach((work) => work.reject(err)));
      }
    } finally {
      // Never left marked as running: every later ping would wait for a drain that never comes.
      this.running = false;
    }
  }

  private async commit(batch: Work[]): Promise<void> {
    let conn: SqliteConnection;
    try {
      // Holding SQLite's one pooled connection keeps every other query out of the transaction.
      conn = await this.client.acquireConnection();
    } catch (err) {
      for (const work of batch) work.reject(err);
      return;
    }
    const sql = preparedSql(conn);
    const results: Array<{ work: Work; ok: boolean; value: unknown }> = [];
    try {
      // IMMEDIATE takes the write lock up front: another process on the file waits instead of failing mid-way.
      await sql.changes('BEGIN IMMEDIATE', []);
      if (batch.length === 1) {
        // Alone in its transaction: its failure rolls back the whole transaction, which is only itself.
        results.push({ work: batch[0]!, ok: true, value: await batch[0]!.fn(sql) });
      } else {
        for (const work of batch) results.push(await inSavepoint(sql, work));
      }
      await sql.changes('COMMIT', []);
    } catch (err) {
      await sql.changes('ROLLBACK', []).catch(() => undefined);
      for (const work of batch) work.reject(err);
      return;
    } finally {
      await this.client.releaseConnection(conn);
    }
    for (const { work, ok, value } of results) (ok ? work.resolve(value) : work.reject(value));
  }
}

async function inSavepoint(sql: Sql, work: Work): Promise<{ work: Work; ok: boolean; value: unknown }> {
  await sql.changes('SAVEPOINT ping', []);
  try {
    const value = await work.fn(sql);
    await sql.changes('RELEASE ping', []);
    return { work, ok: true, value };
  } catch (err) {
    await sql.changes('ROLLBACK TO ping', []);
    await sql.changes('RELEASE ping', []);
    return { work, ok: false, value: err };
  }
}
