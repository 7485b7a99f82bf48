import type { Sql, SqlParam, TransactionSql } from './sql.js';
import { DatabaseUnavailableError } from './unavailable.js';

/** A statement waiting for its batch. */
interface Queued {
  sql: string;
  params: readonly SqlParam[];
  /** What the caller asked for: the rows, or the number of rows changed. */
  want: 'rows' | 'changes';
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

type Transaction = <T>(fn: (sql: TransactionSql) => Promise<T>) => Promise<T>;

/** Batches in flight at once: pings arriving meanwhile gather for the next one. */
const IN_FLIGHT_MAX = 2;
/** Statements in one batch at most. */
const BATCH_MAX = 100;

/**
 * Group commit for statements outside a transaction that each stand alone (the pings that write their run only):
 * those arriving while earlier batches are on their way run together in one transaction, each as the statement it
 * is (prepared by the driver, its values as parameters): one commit for all, where each would take its own. They run
 * in order, each seeing those before it. A statement that fails fails the batch: its statements are then run again
 * one by one, in order, so that only the bad one fails (a lost connection fails them all, as nothing can say
 * whether they committed). A statement alone in its batch goes as it would without batching.
 */
export function batchedSql(single: Sql, transaction: Transaction): Sql {
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
    let results: unknown[];
    try {
      results = await transaction(async (sql) => {
        const out: unknown[] = [];
        for (const item of batch) out.push(await sql[item.want](item.sql, item.params));
        return out;
      });
    } catch (err) {
      if (err instanceof DatabaseUnavailableError) for (const item of batch) item.reject(err);
      else for (const item of batch) await alone(item); // in order: a later statement may depend on an earlier
      return;
    }
    batch.forEach((item, i) => item.resolve(results[i]));
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
      queued.push({ sql, params, want, resolve, reject });
      // Statements from the same turn of the event loop go together.
      if (queued.length === 1) setImmediate(flush);
    });

  return {
    locking: single.locking,
    inTransaction: false,
    rows: async <T>(sql: string, params: readonly SqlParam[]) => (await enqueue('rows', sql, params)) as T[],
    changes: async (sql: string, params: readonly SqlParam[]) => (await enqueue('changes', sql, params)) as number,
  };
}
