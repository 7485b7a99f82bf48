import { connect, createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import type { Knex } from 'knex';
import type { DatabaseKind, TestDatabase } from './databases.js';
import { POSTGRES_URL, knexOf } from './databases.js';

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** A real database outage, begun and ended by the test: nothing of pingmon's is mocked. */
export interface Outage {
  /** The URL to give pingmon for PostgreSQL: through the proxy. Undefined for SQLite. */
  readonly databaseUrl: string | undefined;
  /** Begins the outage of `database`, the one pingmon uses. */
  begin(database: TestDatabase): Promise<void>;
  end(): Promise<void>;
}

/**
 * PostgreSQL: a TCP proxy between pingmon and the server, which resets every connection while the outage
 * lasts (the machine's PostgreSQL itself is never touched). SQLite: another connection holds the write lock.
 */
export async function databaseOutage(t: Teardown, kind: DatabaseKind): Promise<Outage> {
  return kind === 'postgres' ? proxyOutage(t, POSTGRES_URL!) : writeLockOutage(t);
}

async function proxyOutage(t: Teardown, databaseUrl: string): Promise<Outage> {
  const target = new URL(databaseUrl);
  const proxy = await switchableProxy(t, target.hostname, Number(target.port || 5432));
  const through = new URL(databaseUrl);
  through.hostname = '127.0.0.1';
  through.port = String(proxy.port);
  return { databaseUrl: through.toString(), begin: proxy.down, end: proxy.up };
}

/** A TCP proxy on loopback that a test switches off (every connection reset) and on again. */
export interface SwitchableProxy {
  readonly port: number;
  down(): Promise<void>;
  up(): Promise<void>;
}

/**
 * A TCP proxy to host:port. While down it resets every connection, open ones included: a reset, not a
 * refusal, so that the listening port stays this proxy's and no other process can take it meanwhile.
 */
export async function switchableProxy(t: Teardown, host: string, port: number): Promise<SwitchableProxy> {
  const open = new Set<Socket>();
  let down = false;
  const proxy = createServer((client) => {
    if (down) return client.resetAndDestroy();
    const upstream = connect(port, host);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => undefined);
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  t.teardown(() => closeProxy(proxy, open));
  return {
    port: (proxy.address() as { port: number }).port,
    down: async () => {
      down = true;
      for (const socket of open) socket.resetAndDestroy();
    },
    up: async () => {
      down = false;
    },
  };
}

function closeProxy(proxy: Server, open: Set<Socket>): Promise<void> {
  for (const socket of open) socket.destroy();
  return new Promise((resolve) => proxy.close(() => resolve()));
}

function writeLockOutage(t: Teardown): Outage {
  let holder: { knex: Knex; trx: Knex.Transaction } | undefined;
  const end = async () => {
    if (!holder) return;
    const { knex, trx } = holder;
    holder = undefined;
    await trx.rollback();
    await knex.destroy();
  };
  t.teardown(end);
  return {
    databaseUrl: undefined,
    begin: async (database) => {
      const knex = knexOf(database);
      const trx = await knex.transaction();
      // A write takes the lock for the rest of the transaction; this one changes nothing.
      await trx.raw('delete from settings where 0');
      holder = { knex, trx };
    },
    end,
  };
}
