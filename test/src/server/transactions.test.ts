import t from 'tap';
import { closeDatabase, loadConfig, openDatabase } from '@pingmon/server';
import { inTransaction } from '@pingmon/server/db/sql.js';
import { DATABASE_KINDS, createTestDatabase } from '../helpers/databases.js';

for (const kind of DATABASE_KINDS) {
  t.test(`transactions on ${kind}`, async (t) => {
    const testDb = await createTestDatabase(kind);
    const db = await openDatabase(loadConfig({}, {
      dataDir: testDb.dataDir, databaseUrl: testDb.databaseUrl, databaseSchema: testDb.databaseSchema, logLevel: 'silent',
    }));
    t.teardown(async () => {
      await closeDatabase(db);
      await testDb.drop();
    });
    const keys = async () => (await db.knex('settings').where('key', 'like', 'tx-%').orderBy('key')).map((r: { key: string }) => r.key);

    t.test('concurrent work all commits, and a piece that throws rolls back only itself', async (t) => {
      const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => inTransaction(db, async (sql) => {
        await sql.changes('insert into settings (key, value) values (?, ?)', [`tx-${String(i).padStart(2, '0')}`, 'v']);
        if (i % 5 === 0) throw new Error(`piece ${i} fails after writing`);
        return i;
      })));
      t.same(results.map((r) => r.status), Array.from({ length: 20 }, (_, i) => (i % 5 === 0 ? 'rejected' : 'fulfilled')));
      const rejected = results[5] as PromiseRejectedResult;
      t.match(rejected.reason.message, /piece 5 fails/);
      const expected = Array.from({ length: 20 }, (_, i) => i).filter((i) => i % 5 !== 0).map((i) => `tx-${String(i).padStart(2, '0')}`);
      t.same(await keys(), expected);
    });

    t.test('a failing statement does not poison the next transaction', async (t) => {
      const duplicate = inTransaction(db, (sql) => sql.changes('insert into settings (key, value) values (?, ?)', ['tx-01', 'again']));
      await t.rejects(duplicate);
      const after = await inTransaction(db, async (sql) => {
        await sql.changes('insert into settings (key, value) values (?, ?)', ['tx-99', 'v']);
        return sql.rows<{ value: string }>('select value from settings where key = ?', ['tx-99']);
      });
      t.same(after.map((r) => r.value), ['v']);
      t.same((await keys()).at(-1), 'tx-99');
    });
  });
}
