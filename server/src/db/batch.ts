import pg from 'pg';
import type { PgResult, Sql, SqlParam } from './sql.js';
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

/**
 * Runs a batch on one pooled connection, given that connection's prepared statements (a statement's text →
 * the name it was prepared under there): `build` answers the `prepare`s still missing there, run first as a
 * query of their own and then added to the map, and the batch's `execute`s, run as one query (PostgreSQL's simple
 * query protocol takes several statements). Answers a result per statement executed.
 */
export type RunBatch = (
  build: (prepared: ReadonlyMap<string, string>) => { prepare: Map<string, string>; execute: string },
) => Promise<PgResult[]>;

/** Batches in flight at once: pings arriving meanwhile gather for the next one. */
const IN_FLIGHT_MAX = 2;
/** Statements in one batch at most. */
const BATCH_MAX = 100;

let names = 0;

/**
 * PostgreSQL's group commit, for statements outside a transaction that each stand alone (db/runs.ts, the plain
 * pings): those arriving while earlier batches are on their way go to the database together, as one query of
 * `EXECUTE`s of statements prepared on its connection — one round trip and one commit for all, where each
 * would take its own. The statements of a batch run in order, each seeing those before it, and commit
 * together. A statement that fails fails the batch: its statements are then run again one by one, in order, so
 * that only the bad one fails (a lost connection fails them all, as nothing can say whether they committed).
 * A statement alone in its batch goes as it would without batching.
 */
export function batchedSql(single: Sql, runBatch: RunBatch): Sql {
  let queued: Queued[] = [];
  let inFlight = 0;

  const send = (batch: Queued[]) => {
    inFlight += 1;
    void run(batch).finally(() => {
      inFlight -= 1;
      flush();
    });
  };
  const flush = () => {
    while (queued.length > 0 && inFlight < IN_FLIGHT_MAX) {
      const batch = queued.slice(0, BATCH_MAX);
      queued = queued.slice(batch.length);
      send(batch);
    }
  };
  const run = async (batch: Queued[]) => {
    if (batch.length === 1) return alone(batch[0]!);
    let results: PgResult[];
    try {
      results = await runBatch((prepared) => batchText(batch, prepared));
    } catch (err) {
      if (err instanceof DatabaseUnavailableError) for (const item of batch) item.reject(err);
      else for (const item of batch) await alone(item); // in order: a later statement may depend on an earlier
      return;
    }
    batch.forEach((item, i) => {
      const result = results[i]!;
      item.resolve(item.want === 'rows' ? result.rows : (result.rowCount ?? 0));
    });
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
    dialect: 'postgres',
    inTransaction: false,
    rows: async <T>(sql: string, params: readonly SqlParam[]) => (await enqueue('rows', sql, params)) as T[],
    changes: async (sql: string, params: readonly SqlParam[]) => (await enqueue('changes', sql, params)) as number,
  };
}

/** The batch as `execute`s, and the `prepare`s of the statements new to the connection. */
function batchText(batch: Queued[], prepared: ReadonlyMap<string, string>) {
  const prepare = new Map<string, string>();
  const execute: string[] = [];
  for (const { sql, params } of batch) {
    let name = prepared.get(sql) ?? prepare.get(sql);
    if (name === undefined) {
      name = `pingmon_batch_${names++}`;
      prepare.set(sql, name);
    }
    execute.push(params.length === 0 ? `execute ${name}` : `execute ${name}(${params.map(literal).join(', ')})`);
  }
  return { prepare, execute: execute.join(';\n') };
}

/** `prepare name as …` for each statement, its `?` placeholders as `$1…`. */
export function prepareText(prepare: ReadonlyMap<string, string>): string {
  return [...prepare]
    .map(([sql, name]) => {
      let n = 0;
      return `prepare ${name} as ${sql.replace(/\?/g, () => `$${++n}`)}`;
    })
    .join(';\n');
}

function literal(value: SqlParam): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`not a finite number: ${value}`);
    return String(value);
  }
  // A NUL cannot travel in a query's text (PostgreSQL refuses the whole message): its statement goes alone.
  if (value.includes('\0')) throw new TypeError('a NUL in a value');
  return pg.escapeLiteral(value);
}
