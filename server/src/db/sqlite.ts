import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import knexFactory from 'knex';
import { keepPrivate } from './file-modes.js';
import { migrate } from './migrate.js';
import type { SqlParam, Sql, TransactionSql } from './sql.js';
import type { AsOutage } from './unavailable.js';
import { outageClassifier, unavailable } from './unavailable.js';

/** Busy SQLite (another process writing) is waited for this long while migrating at start-up. */
const MIGRATION_BUSY_TIMEOUT_MS = 5_000;

function cannotOpen(location: string, err: unknown) {
  return unavailable(location, err instanceof Error ? err.message : String(err), err);
}

/**
 * knex migrates the file on a connection of its own and closes it; pingmon's statements then run on one
 * better-sqlite3 connection, which the group committer shares with the statements outside transactions.
 */
export async function openSqlite(dataDir: string) {
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
    conn.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
  } catch (err) {
    conn?.close();
    throw cannotOpen(filename, err);
  } finally {
    await knex.destroy();
  }
  const executors = sqliteExecutors(conn, outageClassifier(filename));
  const checkpoints = walCheckpointer(filename);
  // An empty transaction: it takes the write lock, which is what every ping needs.
  const check = () => executors.transaction(async () => undefined);
  const close = async () => {
    // The last connection to close checkpoints the WAL whole and removes it: the server's, as before.
    await checkpoints.stop();
    await executors.close();
  };
  return { location: filename, notices, check, ...executors, close };
}

/** SQLite's own checkpoint, made at a commit on the event loop, only once the thread's fall this far behind. */
const BACKSTOP_CHECKPOINT_PAGES = 10_000;
const CHECKPOINT_INTERVAL_MS = 500;

/**
 * Copies the WAL into the database file from a worker thread: SQLite's automatic checkpoint (every 1,000 pages) ran
 * inside a ping's COMMIT, copying and fsyncing on the event loop, and cost SQLite pings a third of their rate in the
 * bench. The server's connection keeps it only as a backstop (BACKSTOP_CHECKPOINT_PAGES).
 */
function walCheckpointer(filename: string): { stop(): Promise<void> } {
  const worker = new Worker(new URL('./wal-checkpoint.js', import.meta.url), { workerData: filename });
  let exited = false;
  let busy = false;
  const ended = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  // A thread that failed leaves the checkpoints to the backstop: the server goes on.
  worker.on('error', () => undefined);
  worker.on('message', () => (busy = false));
  worker.unref();
  const timer = setInterval(() => {
    if (busy || exited) return;
    busy = true;
    worker.postMessage('checkpoint');
  }, CHECKPOINT_INTERVAL_MS).unref();
  return {
    stop: () => {
      clearInterval(timer);
      // Held until its connection is closed: the server's close then removes the WAL.
      worker.ref();
      if (!exited) worker.postMessage('close');
      return ended;
    },
  };
}

export function configureSqlite(
  conn: { pragma(sql: string): unknown },
  busyTimeoutMs = MIGRATION_BUSY_TIMEOUT_MS,
): void {
  conn.pragma('journal_mode = WAL');
  // Another process may hold the write lock for a moment (two servers on one file, or an admin command).
  conn.pragma(`busy_timeout = ${busyTimeoutMs}`);
  // ON DELETE CASCADE removes a monitor's runs, logs, rules and alerts with it.
  conn.pragma('foreign_keys = ON');
  // In WAL mode NORMAL loses nothing on a process crash; only an OS crash can drop the last commits.
  conn.pragma('synchronous = NORMAL');
}

/** A better-sqlite3 connection, as far as pingmon uses it. */
export interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
  readonly inTransaction: boolean;
  close(): unknown;
}

interface SqliteStatement {
  readonly reader: boolean;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): { changes: number };
  raw(toggle: boolean): unknown;
  columns(): Array<{ name: string }>;
}

// SQLite has no boolean type; better-sqlite3 refuses JS booleans.
const sqliteParams = (params: readonly SqlParam[]): SqlParam[] =>
  params.map((p) => (typeof p === 'boolean' ? Number(p) : p));

/** Statements built per call (`in` lists of any length) would otherwise pile up in the cache for ever. */
const MAX_CACHED_STATEMENTS = 1_000;

type Statement = Pick<SqliteStatement, 'all' | 'run'>;
type Prepare = (sql: string) => Statement;

function statementCache(conn: SqliteConnection): Prepare {
  // By length, then compared: V8 hashes a string once per string object, and a text built per call (a guard
  // appended) was hashed at every lookup, 9k instructions a ping; comparing it with its equal costs far less.
  const byLength = new Map<number, Array<{ sql: string; stmt: Statement }>>();
  let size = 0;
  return (sql) => {
    let same = byLength.get(sql.length);
    const found = same?.find((entry) => entry.sql === sql);
    if (found) return found.stmt;
    if (size >= MAX_CACHED_STATEMENTS) {
      byLength.clear();
      size = 0;
      same = undefined;
    }
    const stmt = prepare(conn, sql);
    if (same === undefined) byLength.set(sql.length, (same = []));
    same.push({ sql, stmt });
    size++;
    return stmt;
  };
}

/**
 * better-sqlite3 builds a row object a property at a time through V8's API (a wide row cost a ping 11 µs): a
 * reading statement's rows come as arrays, made objects by a function compiled once for its columns (a third less).
 */
function prepare(conn: SqliteConnection, sql: string): Statement {
  const stmt = conn.prepare(sql);
  if (!stmt.reader) return stmt;
  const fields = stmt.columns().map((column, i) => `${JSON.stringify(column.name)}: v[${i}]`);
  const toRow = new Function('v', `return { ${fields.join(', ')} };`) as (values: unknown[]) => unknown;
  stmt.raw(true);
  return {
    all: (...params) => (stmt.all(...params) as unknown[][]).map(toRow),
    run: (...params) => stmt.run(...params),
  };
}

/** How long a write waits for another process's write lock before the database counts as unavailable. */
const SQLITE_BUSY_TIMEOUT_MS = 5_000;

const isBusy = (err: unknown): boolean => /^SQLITE_BUSY(_|$)/.test(String((err as { code?: unknown } | null)?.code));

/**
 * Runs `run`, and again while another process holds the write lock, for up to SQLITE_BUSY_TIMEOUT_MS.
 * SQLite's own busy timeout would wait by sleeping inside the statement, which stops the whole server
 * (pings, reads, /health) for as long as the lock is held; these waits are timers, and the server goes on.
 */
async function unlessBusy<T>(run: () => T, asOutage: AsOutage, ready?: () => Promise<void>): Promise<T> {
  const deadline = Date.now() + SQLITE_BUSY_TIMEOUT_MS;
  for (let delayMs = 1; ; delayMs = Math.min(delayMs * 2, 100)) {
    try {
      return run();
    } catch (err) {
      if (!isBusy(err) || Date.now() + delayMs > deadline) throw asOutage(err);
    }
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    await ready?.();
  }
}

/** SQLite has no row locks: a transaction holds the whole database for writing. */
const noLock = (select: string): string => select;

/** Inside a transaction the write lock is held already (BEGIN IMMEDIATE): no statement waits for it. */
function sqliteTransactionSql(statement: Prepare, asOutage: AsOutage): TransactionSql {
  return {
    locking: noLock,
    inTransaction: true,
    rows: async <T>(sql: string, params: readonly SqlParam[]) => {
      try {
        return statement(sql).all(...sqliteParams(params)) as T[];
      } catch (err) {
        throw asOutage(err);
      }
    },
    changes: async (sql: string, params: readonly SqlParam[]) => {
      try {
        return statement(sql).run(...sqliteParams(params)).changes;
      } catch (err) {
        throw asOutage(err);
      }
    },
    changesIf: async ({ check, write, values, condition }) => {
      try {
        if (statement(check).all(...sqliteParams(condition)).length === 0) return 0;
        return statement(write).run(...sqliteParams(values)).changes;
      } catch (err) {
        throw asOutage(err);
      }
    },
  };
}

class NestedTransactionError extends Error {
  constructor() {
    super(
      'a statement outside the transaction was run while a SQLite transaction is open; ' +
        'inside db.transaction(fn), use only the executor that fn is given',
    );
  }
}

/**
 * SQLite's statements outside a transaction: each one commits on its own. One arriving while a batch's
 * transaction is open on the connection (from another flow, between two of the batch's awaits) would run
 * inside it: it waits for the batch to end instead (see GroupCommitter.outside).
 */
function sqliteOuterSql(statement: Prepare, committer: GroupCommitter, asOutage: AsOutage): Sql {
  // Another process's lock waited out: each attempt after the first waits for a batch opened meanwhile too.
  const outer = <T>(run: () => T) => unlessBusy(run, asOutage, () => committer.outside(async () => undefined));
  return {
    locking: noLock,
    inTransaction: false,
    rows: <T>(sql: string, params: readonly SqlParam[]) =>
      committer.outside(() => outer(() => statement(sql).all(...sqliteParams(params)) as T[])),
    changes: (sql: string, params: readonly SqlParam[]) =>
      committer.outside(() => outer(() => statement(sql).run(...sqliteParams(params)).changes)),
    // The check and the write in one transaction: another process could write between two statements.
    changesIf: (write) => committer.run((tx) => tx.changesIf(write), true),
  };
}

/**
 * One SQLite connection's two executors, its transactions and its closing. The connection's own busy
 * timeout must be 0: waits for other processes' locks are made here, without blocking the event loop.
 */
function sqliteExecutors(
  conn: SqliteConnection,
  asOutage: AsOutage,
): {
  sql: Sql;
  batched: Sql;
  transaction: <T>(fn: (sql: TransactionSql) => Promise<T>) => Promise<T>;
  close: () => Promise<void>;
} {
  const statement = statementCache(conn);
  // IMMEDIATE takes the write lock up front: another process on the file is waited for here, not mid-way.
  const begin = (opened: () => void) =>
    unlessBusy(() => {
      statement('BEGIN IMMEDIATE').run();
      opened();
    }, asOutage);
  const committer = new GroupCommitter(sqliteTransactionSql(statement, asOutage), begin, () => conn.inTransaction);
  return {
    sql: sqliteOuterSql(statement, committer, asOutage),
    // Each statement a piece of the group committer's next batch: one commit for the statements arriving together.
    batched: {
      locking: noLock,
      inTransaction: false,
      rows: (sql, params) => committer.run((tx) => tx.rows(sql, params), true),
      changes: (sql, params) => committer.run((tx) => tx.changes(sql, params), true),
      changesIf: (write) => committer.run((tx) => tx.changesIf(write), true),
    },
    transaction: (fn) => committer.run(fn),
    close: async () => {
      await committer.idle();
      conn.close();
    },
  };
}

interface Work {
  fn: (sql: TransactionSql) => Promise<unknown>;
  /** One write (reads before it at most), which SQLite undoes by itself when it fails: no savepoint needed. */
  single: boolean;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

interface Waiting {
  statement: () => Promise<unknown>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

/**
 * Group commit: work arriving while a batch runs goes into the next batch, one transaction with a savepoint per
 * piece (a failing piece rolls back only itself); nothing is answered before its COMMIT.
 * A piece uses the sql it is given and never waits for I/O: a batch is one run of microtasks. A statement outside
 * the transaction arriving meanwhile waits for the batch to end; a batch still open when the event loop turns fails
 * what arrived during it (NestedTransactionError) rather than wait for itself. A flag, not AsyncLocalStorage, which
 * cost a fifth of the ping path on Node 20.
 */
class GroupCommitter {
  private queue: Work[] = [];
  private waiting: Waiting[] = [];
  private running = false;
  private drained: Array<() => void> = [];
  /** True while a batch's transaction is open on the connection. */
  private open = false;
  /** True once the event loop has turned with the transaction open: a piece waits for its own batch. */
  private stuck = false;
  /** Where the work queued while the transaction was open begins. */
  private openedAt = 0;

  constructor(
    private readonly sql: TransactionSql,
    /** Opens the transaction, calling `opened` in the same turn as its BEGIN. */
    private readonly begin: (opened: () => void) => Promise<void>,
    /** False once an error (disk full, I/O) has rolled the whole transaction back. */
    private readonly inTransaction: () => boolean,
  ) {}

  run<T>(fn: (sql: TransactionSql) => Promise<T>, single = false): Promise<T> {
    if (this.stuck) return Promise.reject(new NestedTransactionError());
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, single, resolve: resolve as (value: unknown) => void, reject });
      if (!this.running) {
        this.running = true;
        // Statements run synchronously, so a batch never yields to I/O: start it after this turn's
        // I/O phase, so that every request read in that phase joins it.
        setImmediate(() => void this.drain());
      }
    });
  }

  /** Runs a statement outside any transaction: now, or as soon as the batch in flight ends. */
  outside<T>(statement: () => Promise<T>): Promise<T> {
    if (!this.open) return statement();
    if (this.stuck) return Promise.reject(new NestedTransactionError());
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ statement, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  /** Resolves once no work is queued or running. */
  idle(): Promise<void> {
    return this.running ? new Promise((resolve) => this.drained.push(resolve)) : Promise.resolve();
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = [];
        await this.commit(batch).catch((err: unknown) => batch.forEach((work) => work.reject(err)));
        // What waited for the batch runs before the next BEGIN, which would otherwise take it in.
        const waiting = this.waiting.splice(0);
        await Promise.all(waiting.map((w) => w.statement().then(w.resolve, w.reject)));
      }
    } finally {
      // Never left marked as running: every later piece would wait for a drain that never comes.
      this.running = false;
      for (const resolve of this.drained.splice(0)) resolve();
    }
  }

  /** A savepoint and its release around one statement cost a fifth of a ping's statements: SQLite needs none. */
  private async alone(work: Work): Promise<{ work: Work; ok: boolean; value: unknown }> {
    try {
      return { work, ok: true, value: await work.fn(this.sql) };
    } catch (err) {
      // What SQLite rolled back with the transaction is lost for every piece: the batch fails as a whole.
      if (!this.inTransaction()) throw err;
      return { work, ok: false, value: err };
    }
  }

  /** Fails what waits for a batch whose own piece waits for it (see the class comment). */
  private unstick(): void {
    if (!this.open) return;
    this.stuck = true;
    const err = new NestedTransactionError();
    for (const w of this.waiting.splice(0)) w.reject(err);
    for (const work of this.queue.splice(this.openedAt)) work.reject(err);
  }

  private async commit(batch: Work[]): Promise<void> {
    const sql = this.sql;
    const results: Array<{ work: Work; ok: boolean; value: unknown }> = [];
    let guard: NodeJS.Immediate | undefined;
    try {
      await this.begin(() => {
        this.open = true;
        this.openedAt = this.queue.length;
        guard = setImmediate(() => this.unstick());
      });
      if (batch.length === 1) {
        // Alone in its transaction: its failure rolls back the whole transaction, which is only itself.
        results.push({ work: batch[0]!, ok: true, value: await batch[0]!.fn(sql) });
      } else {
        for (const work of batch) results.push(await (work.single ? this.alone(work) : inSavepoint(sql, work)));
      }
      await sql.changes('COMMIT', []);
    } catch (err) {
      if (this.open) await sql.changes('ROLLBACK', []).catch(() => undefined);
      for (const work of batch) work.reject(err);
      return;
    } finally {
      clearImmediate(guard);
      this.open = false;
      this.stuck = false;
    }
    for (const { work, ok, value } of results) {
      if (ok) work.resolve(value);
      else work.reject(value);
    }
  }
}

async function inSavepoint(sql: TransactionSql, work: Work): Promise<{ work: Work; ok: boolean; value: unknown }> {
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
