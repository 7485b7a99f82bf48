import type { Knex } from 'knex';

/** A pg client in knex's pool, as far as pingmon listens to it. */
export interface PooledClient {
  /** knex's id of the connection: the one its query-error event names. */
  __knexUid?: string;
  on(event: 'error', listener: (err: Error) => void): unknown;
}

/** knex's pool (tarn), as far as pingmon listens to it. */
interface Pool {
  on(event: 'createFail', listener: (eventId: number, err: unknown) => void): unknown;
  on(event: 'destroySuccess', listener: (eventId: number, conn: PooledClient) => void): unknown;
}

export interface LostConnections {
  /** For each error that a lost connection caused, what pg said of the loss (knex rewrites the error's message). */
  readonly lost: WeakMap<object, string>;
  /** The pool's afterCreate hook. */
  afterCreate(conn: PooledClient, done: (err: Error | null, conn: unknown) => void): void;
  /** Listens to the pool and the queries of `knex`, made with `afterCreate`. */
  watch(knex: Knex): void;
  /** For a statement run on `conn` directly (not through knex): its error, if `conn` was lost, as a lost one's. */
  blame(err: unknown, conn: Pick<PooledClient, '__knexUid'>): void;
}

/**
 * pg's errors for a connection it lost or could not make have no code: they are known by where they come from,
 * never by their text. Those are the error a client emits as its connection fails, the error of a connection
 * attempt that failed, and the error of any statement run afterwards on a client known lost (the rest of a
 * transaction, its ROLLBACK), which pg answers "not queryable". knex, for its part, replaces a lost client
 * at its next use instead of handing it out again.
 */
export function lostConnections(): LostConnections {
  const lost = new WeakMap<object, string>();
  // By knex's id: a statement's error event names the connection only by it.
  const lostClients = new Map<string, string>();
  const blame: LostConnections['blame'] = (err, conn) => {
    const reason = conn.__knexUid ? lostClients.get(conn.__knexUid) : undefined;
    if (reason && typeof err === 'object' && err !== null && !lost.has(err)) lost.set(err, reason);
  };
  return {
    lost,
    afterCreate(conn, done) {
      conn.on('error', (err) => {
        lost.set(err, err.message);
        if (conn.__knexUid) lostClients.set(conn.__knexUid, err.message);
      });
      done(null, conn);
    },
    watch(knex) {
      const pool = (knex.client as { pool: Pool }).pool;
      pool.on('createFail', (_eventId, err) => {
        if (err instanceof Error) lost.set(err, err.message);
      });
      pool.on('destroySuccess', (_eventId, conn) => {
        if (conn.__knexUid) lostClients.delete(conn.__knexUid);
      });
      knex.on('query-error', (err: unknown, query: { __knexUid?: string }) => blame(err, query));
    },
    blame,
  };
}
