import type pg from 'pg';

/**
 * pg's errors for a connection it lost or could not make have no code: they are known by where they come from,
 * never by their text. That is the error a client emits as its connection fails (checked out or idle in the pool),
 * and the error of any statement run afterwards on that client (the rest of a transaction, its ROLLBACK), which pg
 * answers "not queryable". The pool drops a client that is not queryable when it is released.
 */
export class LostConnections {
  /** For each error that a lost connection caused, what pg said of the loss. */
  readonly lost = new WeakMap<object, string>();
  private readonly clients = new WeakMap<pg.PoolClient | pg.Client, string>();

  /** Listens to the pool: every client it makes, and the errors of idle ones. */
  watch(pool: pg.Pool): void {
    pool.on('connect', (client) => client.on('error', (err) => this.lose(client, err)));
    pool.on('error', (err, client) => this.lose(client, err));
  }

  /** Marks `err` lost when it came from a statement on `client`, a connection known lost. */
  blame(err: unknown, client: pg.PoolClient): void {
    const reason = this.clients.get(client);
    if (reason !== undefined && typeof err === 'object' && err !== null && !this.lost.has(err)) {
      this.lost.set(err, reason);
    }
  }

  /** Whether `client` lost its connection: it goes back to the pool to be destroyed. */
  isLost(client: pg.PoolClient): boolean {
    return this.clients.has(client);
  }

  /** A connection attempt that failed: always the connection's fault. */
  failedToConnect(err: unknown): void {
    if (typeof err === 'object' && err !== null && !this.lost.has(err)) {
      this.lost.set(err, err instanceof Error ? err.message : String(err));
    }
  }

  private lose(client: pg.PoolClient | pg.Client, err: Error): void {
    this.lost.set(err, err.message);
    this.clients.set(client, err.message);
  }
}
