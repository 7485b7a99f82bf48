import t from 'tap';
import { closeDatabase, loadConfig, openDatabase } from '@pingmon/server';
import { DATABASE_KINDS, createTestDatabase } from '../../helpers/databases.js';

const INSERT = 'insert into settings (key, value) values (?, ?)';
const KEYS = "select key, value from settings where key like 'batch-%' order by key";

// db.batched: statements arriving together share one round trip and one commit on PostgreSQL (db/batch.ts).
for (const kind of DATABASE_KINDS) {
  t.test(`the batched executor on ${kind}`, async (t) => {
    const testDb = await createTestDatabase(kind);
    const { dataDir, databaseUrl, databaseSchema } = testDb;
    const db = await openDatabase(loadConfig({}, { dataDir, databaseUrl, databaseSchema, logLevel: 'silent' }));
    t.teardown(async () => {
      await closeDatabase(db);
      await testDb.drop();
    });
    const stored = () => db.sql.rows<{ key: string; value: string }>(KEYS, []);

    t.test('statements sent together run in order, each seeing those before it', async (t) => {
      const [inserted, updated, read] = await Promise.all([
        db.batched.changes(INSERT, ['batch-order', 'first']),
        db.batched.changes("update settings set value = ? where key = ? and value = 'first'", [
          'second',
          'batch-order',
        ]),
        db.batched.rows<{ value: string }>('select value from settings where key = ?', ['batch-order']),
      ]);
      t.equal(inserted, 1);
      t.equal(updated, 1, 'the update saw the insert before it');
      t.same(read, [{ value: 'second' }], 'and the read saw both');
    });

    t.test('one bad statement fails alone; the others are all stored, once', async (t) => {
      const results = await Promise.allSettled(
        Array.from({ length: 30 }, (_, i) =>
          // The 8th repeats the 7th's key: a unique violation, only for that one.
          db.batched.changes(INSERT, [`batch-${String(i === 8 ? 7 : i).padStart(2, '0')}`, `v${i}`]),
        ),
      );
      const failed = results.flatMap((r, i) => (r.status === 'rejected' ? [i] : []));
      t.same(failed, [8]);
      t.ok(
        results.every((r, i) => i === 8 || (r.status === 'fulfilled' && r.value === 1)),
        'each other statement changed its row',
      );
      const rows = await stored();
      t.equal(rows.filter((r) => r.key !== 'batch-order').length, 29);
      t.equal(rows.find((r) => r.key === 'batch-07')?.value, 'v7', 'the first of the two keeps its value');
    });

    t.test('values reach the database as given: quotes, backslashes, unicode, numbers, null', async (t) => {
      const values = ["it's", 'C:\\path\\n', 'é 🙂 ∑', '', "'; drop table settings; --"];
      const changed = await Promise.all(values.map((v, i) => db.batched.changes(INSERT, [`batch-value-${i}`, v])));
      t.same(changed, [1, 1, 1, 1, 1]);
      const rows = await db.sql.rows<{ value: string }>(
        "select value from settings where key like 'batch-value-%' order by key",
        [],
      );
      t.same(
        rows.map((r) => r.value),
        values,
      );
      const [numbers] = await Promise.all([
        db.batched.rows<{ n: string | number; x: string | null }>(
          'select cast(? as bigint) as n, cast(? as text) as x',
          [-1_700_000_000_123, null],
        ),
        db.batched.rows('select 1 as one', []),
      ]);
      t.same(
        numbers.map((r) => ({ n: Number(r.n), x: r.x })),
        [{ n: -1_700_000_000_123, x: null }],
      );
    });
  });
}
