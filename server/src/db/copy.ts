import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Knex } from 'knex';
import type { Config } from '../config.js';
import { openDatabase } from './index.js';
import { MIGRATION_NAMES } from './migrate.js';
import type { AdminConnection, Table } from './tables.js';
import { adminConnection, appliedMigrations, rowCounts, TABLES, tableNames } from './tables.js';

/** Why a copy was not made or not finished: all but the last two are refusals before anything is written. */
export type CopyFailure =
  'same_database' | 'no_source' | 'source_schema' | 'target_not_empty' | 'target_schema' | 'mismatch' | 'failed';

export class CopyError extends Error {
  constructor(
    readonly reason: CopyFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Where a copy is, for a progress bar: rows of `table` done of `total`. */
export interface CopyProgress {
  phase: 'copy' | 'verify';
  table: string;
  done: number;
  total: number;
}

export interface TableCopy {
  table: string;
  /** Rows in the source's snapshot, and in the target once verified. */
  rows: number;
  inserted: number;
  updated: number;
  deleted: number;
  /** The rows' digest, the same on both sides (any order, either database). */
  checksum: string;
}

export interface DatabaseCopy {
  source: string;
  target: string;
  /** A later pass over a target that held an earlier copy: only differences written. */
  update: boolean;
  tables: TableCopy[];
  durationMs: number;
}

export interface CopyOptions {
  /** Make a target that holds data (an earlier copy) equal to the source, writing only what differs. */
  update: boolean;
  onProgress?: (progress: CopyProgress) => void;
}

/** A batch's statement carries at most this many values (SQLite's limit is 32,766, PostgreSQL's 65,535). */
const MAX_VALUES = 30_000;
const MAX_BATCH_ROWS = 1_000;
/** Batches are sized to hold about this much text: a table of long logs goes by fewer rows at a time. */
const BATCH_BYTES = 4 * 1024 * 1024;

/**
 * Copies every table of the source database (as `pingmon server` would open it) into the target, SQLite to
 * PostgreSQL or back, while servers may go on using the source: the source is read in one snapshot (a read
 * transaction; PostgreSQL's repeatable read), by batches in key order. A target that holds data is refused unless
 * `update`, which reads both sides and writes only the rows that differ, deleting those the source no longer has:
 * the second pass of a cut-over. At the end every table of the target is read again, and its row count and
 * checksum must be the snapshot's.
 */
export async function copyDatabase(source: Config, target: Config, options: CopyOptions): Promise<DatabaseCopy> {
  const startedAt = Date.now();
  if (sameDatabase(source, target)) {
    throw new CopyError('same_database', SAME_DATABASE);
  }
  const from = adminConnection(source, { readonly: true });
  let to: AdminConnection | undefined;
  try {
    await checkSource(from);
    await checkTarget(target, options.update);
    // The server's own opening makes the target's schema (and, for SQLite, its private directory and file).
    const created = await openDatabase(target);
    await created.close();
    to = adminConnection(target, { readonly: false });
    const tables = await copyAll(from, to, options);
    return {
      source: from.location,
      target: to.location,
      update: options.update,
      tables,
      durationMs: Date.now() - startedAt,
    };
  } catch (err) {
    if (err instanceof CopyError) throw err;
    throw new CopyError('failed', `the copy failed: ${(err as Error).message}`, { cause: err });
  } finally {
    await from.knex.destroy();
    await to?.knex.destroy();
  }
}

const SAME_DATABASE = 'the source and the target are the same database: --to names the new one';

/** The same settings, or the same SQLite file by another path (a link); PostgreSQL is asked in `copyAll`. */
function sameDatabase(a: Config, b: Config): boolean {
  if (a.databaseUrl || b.databaseUrl) {
    return a.databaseUrl === b.databaseUrl && (a.databaseSchema ?? '') === (b.databaseSchema ?? '');
  }
  if (resolve(a.dataDir) === resolve(b.dataDir)) return true;
  try {
    const [x, y] = [statSync(join(a.dataDir, 'pingmon.db')), statSync(join(b.dataDir, 'pingmon.db'))];
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}

/**
 * Two PostgreSQL URLs may name one database (localhost and 127.0.0.1): the target's server is asked whether the
 * source's session is one of its own, on the same database, with the same schema.
 */
async function samePostgres(read: Knex, to: AdminConnection): Promise<boolean> {
  const source = await read.raw<{ rows: Array<{ pid: number; started: string; schema: string }> }>(
    'select pid, backend_start::text as started, current_schema() as schema from pg_stat_activity ' +
      'where pid = pg_backend_pid()',
  );
  const { pid, started, schema } = source.rows[0]!;
  const target = await to.knex.raw<{ rows: Array<{ schema: string }> }>(
    'select current_schema() as schema from pg_stat_activity where pid = ? and backend_start::text = ? ' +
      'and datname = current_database()',
    [pid, started],
  );
  return target.rows.some((row) => row.schema === schema);
}

async function checkSource(from: AdminConnection): Promise<void> {
  const applied = from.exists ? await appliedMigrations(from.knex, await tableNames(from, from.knex)) : [];
  if (applied.length === 0) {
    throw new CopyError(
      'no_source',
      `there is no pingmon database at ${from.location}: --data-dir, or --database-url (with ` +
        'PINGMON_DATABASE_SCHEMA when pingmon has a schema of its own), names the one to copy',
    );
  }
  const pending = MIGRATION_NAMES.filter((name) => !applied.includes(name));
  const unknown = applied.filter((name) => !MIGRATION_NAMES.includes(name));
  if (unknown.length > 0) {
    throw new CopyError(
      'source_schema',
      `${from.location} was migrated by a newer pingmon (${unknown.join(', ')}): copy it with that version`,
    );
  }
  if (pending.length > 0) {
    throw new CopyError(
      'source_schema',
      `${from.location} is at schema ${applied.at(-1) ?? 'none'}, and this pingmon copies schema ` +
        `${MIGRATION_NAMES.at(-1)}: ` +
        'start this version of pingmon server on it once (it migrates at its start), then copy',
    );
  }
}

/** A target with rows is someone's data: written over only when told (`update`). */
async function checkTarget(target: Config, update: boolean): Promise<void> {
  const to = adminConnection(target, { readonly: true });
  try {
    if (!to.exists) return;
    const tables = await tableNames(to, to.knex);
    const unknown = (await appliedMigrations(to.knex, tables)).filter((name) => !MIGRATION_NAMES.includes(name));
    if (unknown.length > 0) {
      throw new CopyError('target_schema', `${to.location} was migrated by a newer pingmon (${unknown.join(', ')})`);
    }
    if (update) return;
    const held = Object.entries(await rowCounts(to.knex, tables)).filter(([, count]) => count > 0);
    if (held.length > 0) {
      const what = held.map(([table, count]) => `${count} ${table}`).join(', ');
      throw new CopyError(
        'target_not_empty',
        `${to.location} already holds data (${what}): copy into an empty database, or pass --update to make it ` +
          'equal to the source (the second pass of a move; rows the source does not have are deleted)',
      );
    }
  } finally {
    await to.knex.destroy();
  }
}

async function copyAll(from: AdminConnection, to: AdminConnection, options: CopyOptions): Promise<TableCopy[]> {
  const snapshot = from.dialect === 'postgres' ? { isolationLevel: 'repeatable read' as const, readOnly: true } : {};
  return from.knex.transaction(async (read) => {
    if (from.dialect === 'postgres' && to.dialect === 'postgres' && (await samePostgres(read, to))) {
      throw new CopyError('same_database', SAME_DATABASE);
    }
    const totals = await rowCounts(read, await tableNames(from, read));
    const report = (phase: CopyProgress['phase'], table: string, done: number) =>
      options.onProgress?.({ phase, table, done, total: totals[table] ?? 0 });
    const shapes = new Map<string, Shape>();
    for (const table of TABLES) shapes.set(table.name, await shapeOf(read, to, table));
    const deleted = new Map<string, number>();
    if (options.update) {
      // Statistics as the target's rows are: the key lookups of an update use the primary key's index.
      for (const table of TABLES) await analyze(to, table);
      // Children first: a row whose parent is going is gone before the parent is.
      for (const table of [...TABLES].reverse()) deleted.set(table.name, await deleteMissing(read, to, table));
      for (const table of TABLES) await releaseUnique(read, to, table);
    }
    const copies: TableCopy[] = [];
    for (const table of TABLES) {
      const shape = shapes.get(table.name)!;
      const copied = await copyTable(read, to, table, shape, options.update, (done) =>
        report('copy', table.name, done),
      );
      await analyze(to, table);
      const verified = await digestTable(to.knex, table, shape, (done) => report('verify', table.name, done));
      if (verified.rows !== copied.digest.rows || verified.checksum !== copied.digest.checksum) {
        throw new CopyError(
          'mismatch',
          `${table.name} differs after the copy: the source has ${copied.digest.rows} rows (checksum ` +
            `${copied.digest.checksum}), ${to.location} ${verified.rows} (checksum ${verified.checksum}); ` +
            'was a server writing to the target? Stop it and copy again with --update',
        );
      }
      copies.push({
        table: table.name,
        rows: verified.rows,
        inserted: copied.inserted,
        updated: copied.updated,
        deleted: deleted.get(table.name) ?? 0,
        checksum: verified.checksum,
      });
    }
    return copies;
  }, snapshot);
}

/**
 * PostgreSQL plans a table just filled as the empty one it was (a scan for every batch of the next pass) until
 * autovacuum gets to it: its statistics are taken at once. SQLite's planner takes the primary key without them.
 */
async function analyze(to: AdminConnection, table: Table): Promise<void> {
  if (to.dialect === 'postgres') await to.knex.raw('analyze ??', [table.name]);
}

/** A column's kind, which decides its canonical value: the same on SQLite and PostgreSQL. */
type Kind = 'boolean' | 'integer' | 'float' | 'text';

/** The columns of a table, sorted, each with its kind on either side. */
interface Shape {
  columns: string[];
  source: Kind[];
  target: Kind[];
  targetDialect: 'sqlite' | 'postgres';
}

async function shapeOf(read: Knex, to: AdminConnection, table: Table): Promise<Shape> {
  const [source, target] = [await read(table.name).columnInfo(), await to.knex(table.name).columnInfo()];
  const columns = Object.keys(source).sort();
  const missing = columns.filter((column) => !(column in target));
  if (missing.length > 0 || Object.keys(target).length !== columns.length) {
    throw new CopyError('target_schema', `${table.name} has other columns in the target (${missing.join(', ')})`);
  }
  return {
    columns,
    source: columns.map((column) => kindOf(source[column]!.type)),
    target: columns.map((column) => kindOf(target[column]!.type)),
    targetDialect: to.dialect,
  };
}

function kindOf(type: string): Kind {
  if (/bool/i.test(type)) return 'boolean';
  if (/int/i.test(type)) return 'integer';
  if (/float|double|real|numeric/i.test(type)) return 'float';
  return 'text';
}

type Row = Record<string, unknown>;

/** A row as both databases agree on it: SQLite's 0/1 a boolean, integers as their digits, other numbers as such. */
function canonical(row: Row, columns: string[], kinds: Kind[]): unknown[] {
  return columns.map((column, i) => {
    const value = row[column];
    if (value === null || value === undefined) return null;
    if (kinds[i] === 'boolean' && (value === true || value === 1)) return true;
    if (kinds[i] === 'boolean' && (value === false || value === 0)) return false;
    // Integers as their digits: pg's bigints are strings, and past 2^53 a number would round.
    if (kinds[i] === 'float' && typeof value === 'number' && Number.isFinite(value)) return value;
    return String(value);
  });
}

function stored(values: unknown[], shape: Shape): Row {
  const row: Row = {};
  shape.columns.forEach((column, i) => {
    const value = values[i];
    if (typeof value === 'boolean' && shape.targetDialect === 'sqlite') row[column] = Number(value);
    else if (shape.target[i] === 'float' && typeof value === 'string') row[column] = Number(value);
    else row[column] = value;
  });
  return row;
}

/** Count and checksum of a set of rows: the XOR of each row's SHA-256, so any order gives the same. */
class Digest {
  rows = 0;
  private readonly sum = Buffer.alloc(32);

  add(values: unknown[]): string {
    const text = JSON.stringify(values);
    const hash = createHash('sha256').update(text).digest();
    for (let i = 0; i < 32; i++) this.sum[i]! ^= hash[i]!;
    this.rows++;
    return text;
  }

  get checksum(): string {
    return this.sum.toString('hex').slice(0, 32);
  }
}

/** Reads a table by batches in key order, each batch sized to about BATCH_BYTES. */
async function eachBatch(
  knex: Knex,
  table: Table,
  columns: readonly string[],
  fn: (rows: Row[]) => Promise<void>,
): Promise<void> {
  const most = Math.min(MAX_BATCH_ROWS, Math.floor(MAX_VALUES / columns.length));
  let limit = Math.min(100, most);
  let after: unknown[] | undefined;
  for (;;) {
    const query = knex(table.name)
      .select(columns)
      .orderBy([...table.key])
      .limit(limit);
    if (after) {
      const marks = table.key.map(() => '??').join(', ');
      query.whereRaw(`(${marks}) > (${after.map(() => '?').join(', ')})`, [...table.key, ...(after as Knex.Value[])]);
    }
    const rows = (await query) as Row[];
    if (rows.length === 0) return;
    await fn(rows);
    if (rows.length < limit) return;
    const last = rows.at(-1)!;
    after = table.key.map((column) => last[column]);
    limit = Math.max(10, Math.min(most, Math.floor(BATCH_BYTES / (textBytes(rows) / rows.length + 1))));
  }
}

function textBytes(rows: Row[]): number {
  let bytes = 0;
  for (const row of rows) for (const value of Object.values(row)) bytes += typeof value === 'string' ? value.length : 8;
  return bytes;
}

async function copyTable(
  read: Knex,
  to: AdminConnection,
  table: Table,
  shape: Shape,
  update: boolean,
  progress: (done: number) => void,
) {
  const digest = new Digest();
  let [inserted, updated] = [0, 0];
  await eachBatch(read, table, shape.columns, async (rows) => {
    const values = rows.map((row) => canonical(row, shape.columns, shape.source));
    const texts = values.map((row) => digest.add(row));
    const existing = update ? await targetRows(to.knex, table, shape, values) : new Map<string, string>();
    const writes: Row[] = [];
    values.forEach((row, i) => {
      const before = existing.get(keyOf(table, shape, row));
      if (before === texts[i]) return;
      if (before === undefined) inserted++;
      else updated++;
      writes.push(stored(row, shape));
    });
    await write(to, table, shape, writes, update);
    progress(digest.rows);
  });
  return { digest, inserted, updated };
}

/** The target's rows with the keys of `rows`, as canonical text by key. */
async function targetRows(knex: Knex, table: Table, shape: Shape, rows: unknown[][]): Promise<Map<string, string>> {
  const positions = table.key.map((column) => shape.columns.indexOf(column));
  const found = await rowsWithKeys(
    knex,
    table,
    shape.columns,
    rows.map((row) => positions.map((i) => row[i])),
  );
  const texts = new Map<string, string>();
  for (const row of found) {
    const values = canonical(row, shape.columns, shape.target);
    texts.set(keyOf(table, shape, values), JSON.stringify(values));
  }
  return texts;
}

/** At most this many `a = ? and b in (…)` groups in one statement: SQLite's expression depth is 1,000. */
const MAX_KEY_GROUPS = 200;

/**
 * The rows of `table` with `keys`, read by statements of `a = ? and b in (…)` groups (all but the key's last column
 * equal), which both databases answer from the primary key's index (a row-value IN list is a scan on SQLite).
 */
async function rowsWithKeys(knex: Knex, table: Table, columns: readonly string[], keys: unknown[][]): Promise<Row[]> {
  const rows: Row[] = [];
  for (const groups of keyGroups(keys)) {
    rows.push(...((await withKeys(knex(table.name).select(columns), table, groups)) as Row[]));
  }
  return rows;
}

interface KeyGroup {
  prefix: unknown[];
  lasts: unknown[];
}

/** `keys` grouped by all but their last column, MAX_KEY_GROUPS groups at a time. */
function keyGroups(keys: unknown[][]): KeyGroup[][] {
  const groups = new Map<string, KeyGroup>();
  for (const key of keys) {
    const prefix = key.slice(0, -1);
    const id = JSON.stringify(prefix);
    const group = groups.get(id) ?? groups.set(id, { prefix, lasts: [] }).get(id)!;
    group.lasts.push(key.at(-1));
  }
  const all = [...groups.values()];
  return Array.from({ length: Math.ceil(all.length / MAX_KEY_GROUPS) }, (_, i) =>
    all.slice(i * MAX_KEY_GROUPS, (i + 1) * MAX_KEY_GROUPS),
  );
}

function withKeys<Q extends Knex.QueryBuilder>(query: Q, table: Table, groups: KeyGroup[]): Q {
  const columns = table.key.slice(0, -1);
  const last = table.key.at(-1)!;
  return query.where((where) => {
    for (const { prefix, lasts } of groups) {
      where.orWhere((group) => {
        for (const [i, column] of columns.entries()) void group.where(column, prefix[i] as Knex.Value);
        group.whereIn(last, lasts as Knex.Value[]);
      });
    }
  }) as Q;
}

/** A key's values as one text, the same whichever database read them (keys are texts and integers). */
function keyText(key: unknown[]): string {
  return JSON.stringify(key.map(String));
}

/** The key of a row of canonical values in `shape`'s columns. */
function keyOf(table: Table, shape: Shape, values: unknown[]): string {
  return keyText(table.key.map((column) => values[shape.columns.indexOf(column)]));
}

/** One INSERT of `rows` (an upsert for an update), written out: knex's own for SQLite is a UNION of SELECTs. */
async function write(to: AdminConnection, table: Table, shape: Shape, rows: Row[], update: boolean): Promise<void> {
  if (rows.length === 0) return;
  const quoted = shape.columns.map((column) => `"${column}"`);
  const marks = `(${quoted.map(() => '?').join(', ')})`;
  let sql = `insert into "${table.name}" (${quoted.join(', ')}) values ${rows.map(() => marks).join(', ')}`;
  if (update) {
    const set = quoted.filter((_, i) => !table.key.includes(shape.columns[i]!)).map((c) => `${c} = excluded.${c}`);
    const action = set.length === 0 ? 'nothing' : `update set ${set.join(', ')}`;
    sql += ` on conflict (${table.key.map((column) => `"${column}"`).join(', ')}) do ${action}`;
  }
  const values = rows.flatMap((row) => shape.columns.map((column) => row[column])) as Knex.Value[];
  try {
    await to.knex.raw(sql, values);
  } catch (err) {
    const first = table.key.map((column) => String(rows[0]![column])).join(', ');
    throw new CopyError(
      'failed',
      `cannot write ${table.name} to ${to.location} (a batch of ${rows.length} from ${first}): ` +
        (err as Error).message,
      { cause: err },
    );
  }
}

/** Deletes the target's rows whose keys the source does not have; returns how many. */
async function deleteMissing(read: Knex, to: AdminConnection, table: Table): Promise<number> {
  let deleted = 0;
  await eachBatch(to.knex, table, table.key, async (rows) => {
    const keys = rows.map((row) => table.key.map((column) => row[column]));
    const kept = await rowsWithKeys(read, table, table.key, keys);
    const keep = new Set(kept.map((row) => keyText(table.key.map((column) => row[column]))));
    const gone = keys.filter((key) => !keep.has(keyText(key)));
    for (const groups of keyGroups(gone)) deleted += await withKeys(to.knex(table.name), table, groups).delete();
  });
  return deleted;
}

/**
 * Sets the unique columns that differ from the source's (a slug given up, or taken from another row) to the row's
 * own id, before the table is written: the row that takes the value next may come first in key order.
 */
async function releaseUnique(read: Knex, to: AdminConnection, table: Table): Promise<void> {
  const unique = table.unique ?? [];
  if (unique.length === 0) return;
  const columns = ['id', ...unique];
  await eachBatch(to.knex, table, columns, async (rows) => {
    const source = await rowsWithKeys(
      read,
      table,
      columns,
      rows.map((row) => [row.id]),
    );
    const wanted = new Map(source.map((row) => [String(row.id), row]));
    for (const row of rows) {
      const changed = unique.filter((column) => wanted.get(String(row.id))?.[column] !== row[column]);
      if (changed.length === 0) continue;
      await to
        .knex(table.name)
        .where('id', row.id as Knex.Value)
        .update(Object.fromEntries(changed.map((c) => [c, row.id])));
    }
  });
}

/** Count and checksum of a whole table, read again by batches. */
async function digestTable(knex: Knex, table: Table, shape: Shape, progress: (done: number) => void) {
  const digest = new Digest();
  await eachBatch(knex, table, shape.columns, async (rows) => {
    for (const row of rows) digest.add(canonical(row, shape.columns, shape.target));
    progress(digest.rows);
  });
  return digest;
}
