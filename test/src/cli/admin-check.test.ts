import { MIGRATION_NAMES } from '@pingmon/server/internal';
import t from 'tap';
import { pingmon } from '../helpers/cli.js';
import { createTestDatabase, DATABASE_KINDS, withKnex } from '../helpers/databases.js';
import type { TestDatabase } from '../helpers/databases.js';
import { databaseAt } from '../helpers/schema-fixtures.js';
import { TestServer } from '../helpers/server.js';

const LATEST = MIGRATION_NAMES.at(-1)!;

async function check(db: TestDatabase) {
  const result = await pingmon(['admin', 'check', '--json'], db.env);
  return { code: result.code, report: JSON.parse(result.stdout || 'null'), stderr: result.stderr };
}

async function appliedCount(db: TestDatabase): Promise<number> {
  return withKnex(db, async (knex) => Number((await knex('knex_migrations').count({ count: '*' }))[0]!.count));
}

for (const kind of DATABASE_KINDS) {
  t.test(`${kind}: admin check of a database the server made says it is at the latest version and fine`, async (t) => {
    const api = await TestServer.start(t, kind);
    const owner = await api.account();
    await api.monitor(owner);
    const { code, report } = await check(api.database);
    t.equal(code, 0);
    t.equal(report.schemaVersion, LATEST);
    t.same(report.pending, []);
    t.same(report.problems, []);
    t.equal(report.rows.monitors, 1);
    t.equal(report.rows.accounts, 1);

    const text = await pingmon(['admin', 'check'], api.database.env);
    t.equal(text.code, 0);
    t.match(text.stdout, new RegExp(`schema    ${LATEST}\\n`));
    t.match(text.stdout, /pending   none\n/);
    t.match(text.stdout, /integrity ok\n/);
  });

  t.test(`${kind}: admin check of an older database lists the pending migrations and applies none`, async (t) => {
    const db = await databaseAt(t, kind, 20);
    const { code, report } = await check(db);
    t.equal(code, 0, 'pending migrations are not a problem: the server applies them at its start');
    t.equal(report.schemaVersion, '020-account-security');
    t.same(report.pending, MIGRATION_NAMES.slice(20));
    t.same(report.problems, []);
    t.equal(report.rows.runs, 6);
    t.equal(await appliedCount(db), 20, 'nothing applied');
    const text = await pingmon(['admin', 'check'], db.env);
    t.match(
      text.stdout,
      /pending   021-run-redactions, 022-run-outputs, 023-provider-identity, 024-failure-index \(applied at the next/,
    );
  });

  t.test(`${kind}: admin check names a missing table and a migration this version does not know`, async (t) => {
    const api = await TestServer.start(t, kind);
    await api.query(async (knex) => {
      await knex.schema.dropTable('run_outputs');
      await knex('knex_migrations').insert({ name: '024-from-the-future', batch: 9, migration_time: new Date() });
    });
    const { code, report } = await check(api.database);
    t.equal(code, 1);
    t.equal(report.schemaVersion, '024-from-the-future');
    t.match(report.problems, [/applied by a newer pingmon: 024-from-the-future/, /table run_outputs is missing/]);
    const text = await pingmon(['admin', 'check'], api.database.env);
    t.equal(text.code, 1);
    t.match(text.stdout, /problem   table run_outputs is missing \(made by migration 022-run-outputs\)\n/);
  });
}

t.test('sqlite: admin check of a data directory without a database lists every migration as pending', async (t) => {
  const db = await createTestDatabase('sqlite');
  t.teardown(() => db.drop());
  const { code, report } = await check(db);
  t.equal(code, 0);
  t.equal(report.schemaVersion, null);
  t.same(report.pending, MIGRATION_NAMES);
});

t.test('sqlite: admin check reports rows whose foreign key points at nothing, and exits 1', async (t) => {
  const api = await TestServer.start(t, 'sqlite');
  const owner = await api.account();
  const monitorId = await api.monitor(owner);
  await api.server.stop();
  // As a crash or a hand edit with foreign keys off could leave it: a log of a run that is not there.
  await api.query(async (knex) => {
    await knex.raw('pragma foreign_keys = off');
    await knex('run_logs').insert({ monitor_id: monitorId, run_id: 'run_gone', content: 'x' });
  });
  const { code, report } = await check(api.database);
  t.equal(code, 1);
  t.same(report.problems, ['foreign keys: 1 row(s) of run_logs → runs point at no row']);
  const text = await pingmon(['admin', 'check'], api.database.env);
  t.equal(text.code, 1);
  t.match(text.stdout, /problem   foreign keys: 1 row\(s\) of run_logs → runs point at no row\n/);
});

t.test('admin check of a PostgreSQL it cannot reach says so and exits 1', async (t) => {
  const result = await pingmon(['admin', 'check', '--database-url', 'postgres://nobody@127.0.0.1:1/none']);
  t.equal(result.code, 1);
  t.match(result.stderr, /^pingmon: cannot read the database at postgres:\/\/nobody@127\.0\.0\.1:1\/none: .+\n$/);
});
