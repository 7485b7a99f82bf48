import type { Sql, SqlParam } from './sql.js';
import { DatabaseUnavailableError } from './unavailable.js';

/**
 * How statements of one text go together as one statement over arrays (`unnest`): each item a row of the arrays,
 * the statement answering `ord` (from 1) of the rows it wrote.
 */
export interface ArrayForm {
  /** The statement over arrays (`$n::type[]`, a column each): items whose forms share it go in it together. */
  text: string;
  /** One item's row of the arrays, from its parameters. */
  row(params: readonly SqlParam[]): SqlParam[];
  /** What the item reads and writes that others of the batch could change, as keys: see `rounds`. */
  touches(params: readonly SqlParam[]): { reads: string[]; writes: string[] };
}

/** A statement and its values, in pg's terms: arrays allowed. */
export type BatchRun = (text: string, values: unknown[]) => Promise<{ rows: unknown[]; rowCount: number | null }>;

type Begin = <T>(fn: (run: BatchRun) => Promise<T>) => Promise<T>;

/** A statement waiting for its batch. */
interface Queued {
  sql: string;
  params: readonly SqlParam[];
  /** What the caller asked for: the rows, or the number of rows changed. */
  want: 'rows' | 'changes';
  form: ArrayForm | undefined;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

/** Batches in flight at once: pings arriving meanwhile gather for the next one. */
const IN_FLIGHT_MAX = 2;
/** Statements in one batch at most. */
const BATCH_MAX = 100;

/**
 * Group commit for statements outside a transaction that each stand alone (the pings that write their run only):
 * those arriving while earlier batches are on their way run together in one transaction, those with an array form
 * as one statement per form. A statement that fails fails the batch: its statements are then run again one by one,
 * in order, so that only the bad one fails (a lost connection fails them all, as nothing can say whether they
 * committed). A statement alone in its batch goes as it would without batching.
 */
export function batchedSql(single: Sql, begin: Begin, arrayForm: (sql: string) => ArrayForm | undefined): Sql {
  let queued: Queued[] = [];
  let inFlight = 0;

  const flush = () => {
    while (queued.length > 0 && inFlight < IN_FLIGHT_MAX) {
      const batch = queued.slice(0, BATCH_MAX);
      queued = queued.slice(batch.length);
      inFlight += 1;
      void run(batch).finally(() => {
        inFlight -= 1;
        flush();
      });
    }
  };
  const run = async (batch: Queued[]) => {
    if (batch.length === 1) return alone(batch[0]!);
    let results: Map<Queued, unknown>;
    try {
      results = await begin(async (run) => {
        const out = new Map<Queued, unknown>();
        for (const round of rounds(batch)) await runRound(run, round, out);
        return out;
      });
    } catch (err) {
      if (err instanceof DatabaseUnavailableError) for (const item of batch) item.reject(err);
      else for (const item of batch) await alone(item); // in order: a later statement may depend on an earlier
      return;
    }
    for (const item of batch) item.resolve(results.get(item));
  };
  const alone = async (item: Queued) => {
    try {
      item.resolve(await single[item.want](item.sql, item.params));
    } catch (err) {
      item.reject(err);
    }
  };
  const enqueue = (want: Queued['want'], sql: string, params: readonly SqlParam[]) =>
    new Promise<unknown>((resolve, reject) => {
      const form = want === 'changes' ? arrayForm(sql) : undefined;
      queued.push({ sql, params, want, form, resolve, reject });
      // Statements from the same turn of the event loop go together.
      if (queued.length === 1) setImmediate(flush);
    });

  return {
    locking: single.locking,
    inTransaction: false,
    rows: async <T>(sql: string, params: readonly SqlParam[]) => (await enqueue('rows', sql, params)) as T[],
    changes: async (sql: string, params: readonly SqlParam[]) => (await enqueue('changes', sql, params)) as number,
    changesIf: async (w) => (await enqueue('changes', w.inline, [...w.values, ...w.condition])) as number,
  };
}

/**
 * The batch cut, in order, into rounds whose items need not see each other's writes (a statement sees none of its
 * own rows): an item that reads what an earlier one of its round writes, or the reverse, starts the next round; a
 * statement without an array form goes alone.
 */
function rounds(batch: readonly Queued[]): Queued[][] {
  const out: Queued[][] = [];
  let round: Queued[] = [];
  let reads = new Set<string>();
  let writes = new Set<string>();
  const next = () => {
    if (round.length > 0) out.push(round);
    round = [];
    reads = new Set();
    writes = new Set();
  };
  for (const item of batch) {
    if (item.form === undefined) {
      next();
      out.push([item]);
      continue;
    }
    const touches = item.form.touches(item.params);
    const clash = touches.reads.some((k) => writes.has(k)) || touches.writes.some((k) => reads.has(k));
    if (clash) next();
    round.push(item);
    for (const k of touches.reads) reads.add(k);
    for (const k of touches.writes) writes.add(k);
  }
  next();
  return out;
}

/** A round's statements: one per array form (a form's lone item as its own statement), the rest as they are. */
async function runRound(run: BatchRun, round: readonly Queued[], out: Map<Queued, unknown>): Promise<void> {
  const byForm = new Map<string, Queued[]>();
  for (const item of round) {
    const key = item.form && round.length > 1 ? item.form.text : item.sql;
    const group = byForm.get(key);
    if (group) group.push(item);
    else byForm.set(key, [item]);
  }
  for (const group of byForm.values()) {
    const [first] = group;
    if (group.length === 1 || first!.form === undefined) {
      for (const item of group) {
        const result = await run(item.sql, item.params as unknown[]);
        out.set(item, item.want === 'rows' ? result.rows : (result.rowCount ?? 0));
      }
      continue;
    }
    const rows = group.map((item) => item.form!.row(item.params));
    const columns = rows[0]!.map((_, c) => rows.map((row) => row[c]));
    const result = await run(first!.form.text, columns);
    const written = new Set(result.rows.map((r) => Number((r as { ord: unknown }).ord)));
    group.forEach((item, i) => out.set(item, written.has(i + 1) ? 1 : 0));
  }
}
