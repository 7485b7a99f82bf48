import { randomBytes } from 'node:crypto';
import t from 'tap';
import type { Test } from 'tap';
import knexFactory from 'knex';
import { closeDatabase, DatabaseUnavailableError, loadConfig, openDatabase } from '@pingmon/server';
import { outageCause, outageClassifier } from '@pingmon/server/internal';
import { POSTGRES_URL, createTestDatabase, knexOf } from '../../helpers/databases.js';
import { waitFor } from '../../helpers/wait.js';

const coded = (code: string, message = 'm') => Object.assign(new Error(message), { code });

t.test("outageCause: by the driver's code, never by the message", async (t) => {
  const cases: Array<[string, unknown, string | undefined]> = [
    [
      'connection refused',
      coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
      'connect ECONNREFUSED 127.0.0.1:5432',
    ],
    ['connection reset', coded('ECONNRESET', 'read ECONNRESET'), 'read ECONNRESET'],
    ['connect timeout', coded('ETIMEDOUT', 'connect ETIMEDOUT 10.0.0.1:5432'), 'connect ETIMEDOUT 10.0.0.1:5432'],
    ['unknown host', coded('ENOTFOUND', 'getaddrinfo ENOTFOUND db'), 'getaddrinfo ENOTFOUND db'],
    [
      'PostgreSQL shutting down',
      coded('57P01', 'select 1 - terminating connection'),
      'PostgreSQL error 57P01 (admin_shutdown)',
    ],
    ['PostgreSQL crashed', coded('57P02'), 'PostgreSQL error 57P02 (crash_shutdown)'],
    ['PostgreSQL starting', coded('57P03'), 'PostgreSQL error 57P03 (cannot_connect_now)'],
    ['PostgreSQL full', coded('53300'), 'PostgreSQL error 53300 (too_many_connections)'],
    ['PostgreSQL connection failure', coded('08006'), 'PostgreSQL error 08006 (connection_exception)'],
    ['PostgreSQL protocol violation', coded('08P01'), 'PostgreSQL error 08P01 (connection_exception)'],
    [
      'SQLite busy',
      coded('SQLITE_BUSY', 'database is locked'),
      'SQLITE_BUSY: database is locked (another process holds the write lock)',
    ],
    [
      'SQLite busy snapshot',
      coded('SQLITE_BUSY_SNAPSHOT', 'x'),
      'SQLITE_BUSY_SNAPSHOT: x (another process holds the write lock)',
    ],
    ['SQLite locked', coded('SQLITE_LOCKED', 'x'), 'SQLITE_LOCKED: x'],
    [
      'SQLite cannot open',
      coded('SQLITE_CANTOPEN', 'unable to open database file'),
      'SQLITE_CANTOPEN: unable to open database file',
    ],
    ['SQLite I/O error', coded('SQLITE_IOERR_WRITE', 'disk I/O error'), 'SQLITE_IOERR_WRITE: disk I/O error'],
    ['SQLite disk full', coded('SQLITE_FULL', 'database or disk is full'), 'SQLITE_FULL: database or disk is full'],
    ['SQLite file moved', coded('SQLITE_READONLY_DBMOVED', 'x'), 'SQLITE_READONLY_DBMOVED: x'],
    [
      'pool acquire timeout',
      new knexFactory.KnexTimeoutError('Knex: Timeout acquiring a connection'),
      'no connection to the database came free in time',
    ],
    ['unique violation', coded('23505'), undefined],
    ['undefined table', coded('42P01', 'relation "x" does not exist'), undefined],
    ['SQLite constraint', coded('SQLITE_CONSTRAINT_UNIQUE'), undefined],
    ['SQLite corruption', coded('SQLITE_CORRUPT'), undefined],
    ['SQLite error', coded('SQLITE_ERROR', 'no such table: x'), undefined],
    ['a bug (no code)', new Error('Expected 0 bindings, saw 1'), undefined],
    ['a message that only sounds like an outage', new Error('Connection terminated unexpectedly'), undefined],
    ['not an error', 'ECONNREFUSED', undefined],
    ['nothing', undefined, undefined],
  ];
  for (const [name, err, cause] of cases) t.equal(outageCause(err), cause, name);
});

t.test('outageClassifier names the database, keeps the driver error as cause, and passes other errors', async (t) => {
  const lost = new WeakMap<object, string>();
  const asOutage = outageClassifier('postgres://pingmon@db/pingmon', lost);
  const refused = coded('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.1:5432');
  const outage = asOutage(refused) as DatabaseUnavailableError;
  t.type(outage, DatabaseUnavailableError);
  t.equal(
    outage.message,
    'cannot use the database at postgres://pingmon@db/pingmon: connect ECONNREFUSED 10.0.0.1:5432',
  );
  t.equal(outage.cause, refused);
  t.equal(asOutage(outage), outage, 'an outage stays itself');
  const bug = coded('42P01');
  t.equal(asOutage(bug), bug, 'any other error is passed unchanged');
  // pg's own errors for a lost connection have no code: they are known by where they came from.
  const terminated = new Error('select 1 - Connection terminated unexpectedly');
  lost.set(terminated, 'Connection terminated unexpectedly');
  t.match(asOutage(terminated), {
    message: 'cannot use the database at postgres://pingmon@db/pingmon: Connection terminated unexpectedly',
  });
});

t.test(
  'on postgres, a statement cut by an administrator shutdown (57P01) is an outage, and the pool connects anew',
  { skip: !POSTGRES_URL },
  async (t) => {
    const database = await createTestDatabase('postgres');
    t.teardown(() => database.drop());
    const { databaseUrl, databaseSchema, dataDir } = database;
    const db = await openDatabase(loadConfig({}, { databaseUrl, databaseSchema, dataDir }));
    t.teardown(() => closeDatabase(db));
    const admin = knexOf(database);
    t.teardown(() => admin.destroy());
    const marker = `outage_${randomBytes(6).toString('hex')}`;
    const cut = db.sql.rows(`select pg_sleep(30) as ${marker}`, []).then(
      () => undefined,
      (err: unknown) => err,
    );
    // Only the backend running this test's statement: found by the marker in its text, never this query itself.
    const mine = 'from pg_stat_activity where query like ? and pid <> pg_backend_pid()';
    await waitFor(async () => (await admin.raw(`select pid ${mine}`, [`%${marker}%`])).rows.length === 1, {
      what: 'the statement to run',
    });
    await admin.raw(`select pg_terminate_backend(pid) ${mine}`, [`%${marker}%`]);
    const err = await cut;
    t.type(err, DatabaseUnavailableError);
    t.match(
      (err as Error).message,
      /^cannot use the database at postgres:\/\/.*: PostgreSQL error 57P01 \(admin_shutdown\)$/,
    );
    await waitFor(
      () =>
        db.check().then(
          () => true,
          () => false,
        ),
      { timeoutMs: 5_000, what: 'a new connection' },
    );
  },
);

/** A test PostgreSQL database, migrated, its admin connection, and its config with an idle-in-transaction limit. */
async function migratedPostgres(t: Test) {
  const database = await createTestDatabase('postgres');
  t.teardown(() => database.drop());
  const { databaseUrl, databaseSchema, dataDir } = database;
  const configWith = (databaseIdleInTransactionMs?: number) =>
    loadConfig({}, { databaseUrl, databaseSchema, dataDir, databaseIdleInTransactionMs });
  // Migrated first with the default limit: a migration's transaction may idle a moment between its steps.
  await closeDatabase(await openDatabase(configWith()));
  const admin = knexOf(database);
  t.teardown(() => admin.destroy());
  return { database, admin, configWith };
}

t.test(
  'on postgres, a transaction left idle (a frozen process) is ended by the database, and the pool goes on',
  { skip: !POSTGRES_URL },
  async (t) => {
    const { admin, configWith } = await migratedPostgres(t);
    const db = await openDatabase(configWith(1_000));
    t.teardown(() => closeDatabase(db));
    t.equal(loadConfig({}).databaseIdleInTransactionMs, 60_000, 'a minute unless told');
    const marker = `idle_${randomBytes(6).toString('hex')}`;
    const sessions = async () =>
      (
        await admin.raw('select state from pg_stat_activity where query like ? and pid <> pg_backend_pid()', [
          `%${marker}%`,
        ])
      ).rows as Array<{ state: string }>;

    let release!: () => void;
    const frozen = new Promise<void>((resolve) => (release = resolve));
    const held = db.transaction(async (sql) => {
      await sql.rows(`select 1 as ${marker}`, []);
      await frozen;
      return sql.rows('select 2 as after', []);
    });
    held.catch(() => undefined);
    try {
      await waitFor(async () => (await sessions()).some((s) => s.state === 'idle in transaction'), {
        what: 'the transaction idle',
      });
      await waitFor(async () => (await sessions()).length === 0, { what: 'the database to end the idle session' });
    } finally {
      // Also when the wait fails: the transaction ends, and the pool can close.
      release();
    }
    await t.rejects(held, 'the transaction does not go on: it was rolled back');
    t.same(await db.sql.rows('select 3 as n', []), [{ n: 3 }], 'the next statement gets a connection of its own');
  },
);

t.test(
  'on postgres, migrations that take longer than the idle limit: their lock is held to the end, and the server opens',
  { skip: !POSTGRES_URL },
  async (t) => {
    const { database, admin, configWith } = await migratedPostgres(t);
    // One migration to apply again (005 adds two indexes), and it waits: another session holds `runs`.
    await admin('knex_migrations').where({ name: '005-retention' }).delete();
    await admin.raw('drop index runs_started_at; drop index alerts_created_at');
    const locker = await admin.client.acquireConnection();
    t.teardown(() => admin.client.releaseConnection(locker));
    const query = (sql: string) => admin.raw(sql).connection(locker);
    await query('begin');
    await query(`lock table ${database.databaseSchema}.runs in share row exclusive mode`);

    const opening = openDatabase(configWith(500));
    opening.catch(() => undefined);
    try {
      // The migration lock's transaction idles while the migration waits: past the limit, and more.
      await waitFor(
        async () =>
          (
            await admin.raw(
              "select 1 from pg_stat_activity where state = 'idle in transaction' and query like ? " +
                "and state_change < now() - interval '1.5 seconds'",
              ['%pg_advisory_xact_lock%'],
            )
          ).rows.length === 1,
        { what: 'the migration lock held, idle, past the limit' },
      );
    } finally {
      await query('commit');
    }
    const db = await opening;
    t.teardown(() => closeDatabase(db));
    t.equal((await admin('knex_migrations').where({ name: '005-retention' })).length, 1, 'the migration applied');
  },
);
