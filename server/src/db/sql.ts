export type Dialect = 'sqlite' | 'postgres';

/** A lock a select takes on the rows it reads; `skip locked` leaves out rows that others hold. */
export type RowLock =
  'update' | 'no key update' | 'share' | 'key share' | 'update skip locked' | 'key share skip locked';

export type SqlParam = string | number | boolean | null;

/**
 * A write made only while a condition holds, said two ways: `inline`, the write with the condition in its where
 * clause (one statement, taking `values` then `condition`); or `check`, a select answering a row while it holds
 * (taking `condition`), then `write`, the write without it (taking `values`). Each executor builds only its own.
 */
export interface ConditionalWrite {
  inline: string;
  check: string;
  write: string;
  values: readonly SqlParam[];
  condition: readonly SqlParam[];
}

/**
 * Plain SQL with `?` placeholders, run the same way on both dialects: the one way every `db/` function
 * reaches the database. On SQLite it runs as cached prepared statements, which is most of the ping path's speed.
 */
export interface Sql {
  rows<T>(sql: string, params: readonly SqlParam[]): Promise<T[]>;
  /** Runs a statement; the number of rows it changed. */
  changes(sql: string, params: readonly SqlParam[]): Promise<number>;
  /**
   * Makes `write` as one step with its condition; the rows it changed (0: the condition did not hold). PostgreSQL
   * runs it inline (rows are locked one by one); SQLite checks, then writes, in one transaction: an insert that
   * selects from its own table copies the row through a temporary table first (a third of a ping's statement).
   */
  changesIf(write: ConditionalWrite): Promise<number>;
  /**
   * `select` with `lock` on the rows it reads, held until its transaction ends, where the database locks rows
   * (PostgreSQL); unchanged where one writer holds them all anyway (SQLite).
   */
  locking(select: string, lock: RowLock): string;
  /** True inside a transaction: TransactionSql narrows it to `true`, which is what the compiler checks. */
  readonly inTransaction: boolean;
}

/**
 * The executor a transaction hands its work. Functions whose statements must commit together (or that
 * lock rows) take this type, so that the compiler refuses to call them with a database's outer executor.
 */
export interface TransactionSql extends Sql {
  readonly inTransaction: true;
}

/** "?, ?, ?": one placeholder per value, for `in (…)` lists. */
export function marks(values: readonly unknown[]): string {
  return values.map(() => '?').join(', ');
}

/** A row referred to a row that is not there (one deleted meanwhile). */
export function isForeignKeyViolation(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
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
