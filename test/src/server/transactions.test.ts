import t from 'tap';
import { closeDatabase, loadConfig, openDatabase } from '@pingmon/server';
import type { Database } from '@pingmon/server';
import { DATABASE_KINDS, createTestDatabase } from '../helpers/databases.js';

/** `work`, or a rejection if it has not settled within `ms`: a test of something that used to hang must end. */
function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

const INSERT = 'insert into settings (key, value) values (?, ?)';
const KEYS = "select key from settings where key like 'tx-%' order by key";
const RULE = /use only the executor that fn is given/;

for (const kind of DATABASE_KINDS) {
  t.test(`transactions on ${kind}`, async (t) => {
    const testDb = await createTestDatabase(kind);
    const { dataDir, databaseUrl, databaseSchema } = testDb;
    const config = loadConfig({}, { dataDir, databaseUrl, databaseSchema, logLevel: 'silent' });
    const db: Database = await openDatabase(config);
    t.teardown(async () => {
      await closeDatabase(db);
      await testDb.drop();
    });
    const keys = async () => {
      const rows = await db.sql.rows<{ key: string }>(KEYS, []);
      return rows.map((r) => r.key);
    };
    const key = (i: number) => `tx-${String(i).padStart(2, '0')}`;

    t.test('concurrent work all commits, and a piece that throws rolls back only itself', async (t) => {
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) =>
          db.transaction(async (sql) => {
            await sql.changes(INSERT, [key(i), 'v']);
            if (i % 5 === 0) throw new Error(`piece ${i} fails after writing`);
            return i;
          }),
        ),
      );
      t.same(
        results.map((r) => r.status),
        Array.from({ length: 20 }, (_, i) => (i % 5 === 0 ? 'rejected' : 'fulfilled')),
      );
      const rejected = results[5] as PromiseRejectedResult;
      t.match(rejected.reason.message, /piece 5 fails/);
      t.same(
        await keys(),
        Array.from({ length: 20 }, (_, i) => i)
          .filter((i) => i % 5 !== 0)
          .map(key),
      );
    });

    t.test('a failing statement does not poison the next transaction', async (t) => {
      await t.rejects(db.transaction((sql) => sql.changes(INSERT, ['tx-01', 'again'])));
      const after = await db.transaction(async (sql) => {
        await sql.changes(INSERT, ['tx-99', 'v']);
        return sql.rows<{ value: string }>('select value from settings where key = ?', ['tx-99']);
      });
      t.same(
        after.map((r) => r.value),
        ['v'],
      );
      t.same((await keys()).at(-1), 'tx-99');
    });

    // A flow that is not inside a transaction can still run between two of a transaction's awaits (a
    // sweep between its own transactions, while pings commit). On SQLite its statements used to fail there
    // (the connection was in the transaction); they must wait for it, and never join it.
    t.test("another flow between a transaction's awaits runs outside it", async (t) => {
      let read: Promise<Array<{ key: string }>> | undefined;
      let write: Promise<number> | undefined;
      const failing = db.transaction(async (sql) => {
        await sql.changes(INSERT, ['tx-half-1', 'v']);
        queueMicrotask(() => {
          read = db.sql.rows<{ key: string }>("select key from settings where key like 'tx-half-%'", []);
          write = db.sql.changes(INSERT, ['tx-outer', 'v']);
        });
        await sql.changes(INSERT, ['tx-half-2', 'v']);
        throw new Error('rolls back');
      });
      await t.rejects(failing, /rolls back/);
      t.same(await read, [], 'the read saw none of the rolled-back transaction');
      t.equal(await write, 1);
      t.same(
        await keys().then((k) => k.filter((key) => /^tx-(half|outer)/.test(key))),
        ['tx-outer'],
        'the write outlives the rollback',
      );
    });

    t.test(
      'flows alternating transactions and outer statements never fail, however the work interleaves',
      async (t) => {
        const flow = async (n: number) => {
          for (let i = 0; i < 50; i++) {
            await db.transaction((sql) => sql.changes(INSERT, [`tx-flow-${n}-${i}`, 'v']));
            const [row] = await db.sql.rows<{ value: string }>('select value from settings where key = ?', [
              `tx-flow-${n}-${i}`,
            ]);
            if (row?.value !== 'v') throw new Error(`flow ${n} lost its row ${i}`);
            await db.sql.changes('update settings set value = ? where key = ?', ['w', `tx-flow-${n}-${i}`]);
          }
        };
        const results = await Promise.allSettled(Array.from({ length: 8 }, (_, n) => flow(n)));
        t.same(
          results.filter((r) => r.status === 'rejected'),
          [],
          'no flow failed',
        );
        const [{ count }] = await db.sql.rows<{ count: number }>(
          "select count(*) as count from settings where key like 'tx-flow-%' and value = 'w'",
          [],
        );
        t.equal(Number(count), 400);
      },
    );

    // On SQLite a statement outside the transaction, run from inside one, used to wait for SQLite's one
    // connection, which the transaction held until that statement ended: it never returned.
    t.test('a statement outside the transaction, run from inside one, never waits for it', async (t) => {
      const outside = within(
        5_000,
        db.transaction(async (sql) => {
          await sql.changes(INSERT, ['tx-inside', 'v']);
          return db.sql.rows<{ value: string }>('select value from settings where key = ?', ['tx-00']);
        }),
      );
      if (kind === 'sqlite') {
        await t.rejects(outside, { message: RULE }, 'fails at once, naming the rule');
        const left = await db.sql.rows('select key from settings where key = ?', ['tx-inside']);
        t.same(left, [], 'and the transaction rolls back');
      } else {
        t.same(await outside, [], 'PostgreSQL runs it on another connection, outside the transaction');
      }
      const selectOne = (sql: Database['sql']) => sql.rows<{ one: number }>('select 1 as one', []);
      const nested = within(
        5_000,
        db.transaction(() => db.transaction(selectOne)),
      );
      if (kind === 'sqlite') await t.rejects(nested, { message: RULE }, 'so does a nested transaction');
      else t.same(await nested, [{ one: 1 }]);
      t.same(await selectOne(db.sql), [{ one: 1 }], 'the database is usable after it');
    });
  });
}
