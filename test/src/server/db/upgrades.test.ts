import { checkDatabase, loadConfig } from '@pingmon/server';
import { MIGRATION_NAMES, MIGRATIONS, migrate } from '@pingmon/server/internal';
import type { Knex } from 'knex';
import t from 'tap';
import { DATABASE_KINDS, withKnex } from '../../helpers/databases.js';
import type { TestDatabase } from '../../helpers/databases.js';
import { databaseAt, expectedAt, FIXTURE, login, NO_RETENTION, readsBack } from '../../helpers/schema-fixtures.js';
import { TestServer } from '../../helpers/server.js';

const LATEST = MIGRATION_NAMES.length;

/** What a failed upgrade must leave unchanged: the migrations applied, the tables and their rows. */
async function snapshot(db: TestDatabase) {
  const { dataDir, databaseUrl, databaseSchema } = db;
  return checkDatabase(loadConfig({}, { dataDir, databaseUrl, databaseSchema }));
}

for (const kind of DATABASE_KINDS) {
  for (let version = 1; version < LATEST; version++) {
    const made = MIGRATION_NAMES[version - 1]!;
    t.test(
      `${kind}: a database made at ${made} is migrated by the current server, its data all readable`,
      async (t) => {
        const db = await databaseAt(t, kind, version);
        const api = await TestServer.on(t, db, NO_RETENTION);
        await readsBack(t, api, version);
      },
    );
  }

  t.test(
    `${kind}: a migration that fails halfway leaves the database as it was, and the next start migrates it`,
    async (t) => {
      const db = await databaseAt(t, kind, 20);
      const before = await snapshot(db);
      t.equal(before.schemaVersion, '020-account-security');
      const failing: Knex.Migration = {
        up: async (knex) => {
          await knex.schema.createTable('half_done', (table) => table.string('id'));
          await knex('runs').delete();
          throw new Error('failing on purpose');
        },
        down: async () => undefined,
      };
      await withKnex(db, async (knex) => {
        const upgrade = migrate(knex, kind, { ...MIGRATIONS, '099-fails-on-purpose': failing });
        await t.rejects(upgrade, /failing on purpose/);
      });
      // 021 to 024 ran before it in the same transaction: they are undone with it.
      t.same(await snapshot(db), before, 'the schema version, the tables and their rows as before');
      const tables = await withKnex(db, (knex) => knex.schema.hasTable('half_done'));
      t.equal(tables, false, 'the failed migration left no table');

      const api = await TestServer.on(t, db, NO_RETENTION);
      const token = await login(api);
      const runs = await api.request(`/monitors/${FIXTURE.nightly}/runs?limit=100`, { token });
      t.equal(runs.body.runs.length, expectedAt(20).nightlyRuns.length, 'the runs are all there');
      const after = await checkDatabase(api.config);
      t.same([after.schemaVersion, after.pending, after.problems], [MIGRATION_NAMES.at(-1), [], []], 'migrated');
    },
  );

  const undone = kind === 'postgres' ? 'the whole upgrade' : 'itself only';
  t.test(`${kind}: a migration failing in an upgrade across 004-schedules undoes ${undone}`, async (t) => {
    const db = await databaseAt(t, kind, 3);
    const failing: Knex.Migration = {
      up: async (knex) => {
        await knex.schema.createTable('half_done', (table) => table.string('id'));
        throw new Error('failing on purpose');
      },
      down: async () => undefined,
    };
    await withKnex(db, async (knex) => {
      const upgrade = migrate(knex, kind, { ...MIGRATIONS, '099-fails-on-purpose': failing });
      await t.rejects(upgrade, /failing on purpose/);
    });
    const after = await snapshot(db);
    // SQLite: 004 cannot run inside a transaction, so each migration had its own; those before the failure stay.
    t.equal(after.schemaVersion, kind === 'postgres' ? '003-channel-tests' : MIGRATION_NAMES.at(-1));
    t.same(after.problems, []);
    t.equal(
      await withKnex(db, (knex) => knex.schema.hasTable('half_done')),
      false,
      'the failed migration left no table',
    );
    const api = await TestServer.on(t, db, NO_RETENTION);
    await readsBack(t, api, 3);
  });
}
