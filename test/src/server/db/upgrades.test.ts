import { checkDatabase, loadConfig } from '@pingmon/server';
import { MIGRATION_NAMES, MIGRATIONS, migrate } from '@pingmon/server/internal';
import type { Knex } from 'knex';
import t from 'tap';
import type { Test } from 'tap';
import { createTestDatabase, DATABASE_KINDS, knexOf } from '../../helpers/databases.js';
import type { TestDatabase } from '../../helpers/databases.js';
import { buildFixture, expectedAt, FIXTURE } from '../../helpers/schema-fixtures.js';
import { TestServer } from '../../helpers/server.js';

/** Retention off: the fixtures' rows are dated 2026-01-01 and must all be there to be read back. */
const NO_RETENTION = { retentionMs: null, auditRetentionMs: null };
const LATEST = MIGRATION_NAMES.length;

/** A fresh test database migrated to `version`, holding the rows every version up to it wrote. */
async function databaseAt(t: Test, kind: TestDatabase['kind'], version: number): Promise<TestDatabase> {
  const db = await createTestDatabase(kind);
  t.teardown(() => db.drop());
  await withKnex(db, async (knex) => {
    if (kind === 'postgres') await knex.raw('create schema ??', [db.databaseSchema!]);
    await buildFixture(knex, kind, version);
  });
  return db;
}

async function withKnex<T>(db: TestDatabase, fn: (knex: Knex) => Promise<T>): Promise<T> {
  const knex = knexOf(db);
  try {
    return await fn(knex);
  } finally {
    await knex.destroy();
  }
}

/** What a failed upgrade must leave unchanged: the migrations applied, the tables and their rows. */
async function snapshot(db: TestDatabase) {
  const { dataDir, databaseUrl, databaseSchema } = db;
  return checkDatabase(loadConfig({}, { dataDir, databaseUrl, databaseSchema }));
}

async function login(api: TestServer, email: string = FIXTURE.email): Promise<string> {
  const reply = await api.request('/auth/login', { body: { email, password: FIXTURE.password } });
  if (reply.status !== 200) throw new Error(`login failed: ${reply.status} ${reply.text}`);
  return reply.body.token;
}

async function read(api: TestServer, token: string, path: string) {
  const reply = await api.request(path, { token });
  if (reply.status !== 200) throw new Error(`GET ${path} answered ${reply.status}: ${reply.text}`);
  return reply.body;
}

const names = (items: Array<{ name: string }>) => items.map((item) => item.name).sort();

for (const kind of DATABASE_KINDS) {
  for (let version = 1; version < LATEST; version++) {
    const made = MIGRATION_NAMES[version - 1]!;
    t.test(
      `${kind}: a database made at ${made} is migrated by the current server, its data all readable`,
      async (t) => {
        const db = await databaseAt(t, kind, version);
        const api = await TestServer.on(t, db, NO_RETENTION);
        const expected = expectedAt(version);
        const token = await login(api);

        const { monitors } = await read(api, token, '/monitors?limit=100');
        t.same(names(monitors), [...expected.monitors].sort(), 'every monitor');
        const { runs } = await read(api, token, `/monitors/${FIXTURE.nightly}/runs?limit=100`);
        t.same(runs.map((run: { runId: string }) => run.runId).sort(), [...expected.nightlyRuns].sort(), 'every run');
        const log = await read(api, token, `/monitors/${FIXTURE.nightly}/runs/run_fixture_failed_v1/log`);
        t.same(log, { hasLog: true, content: 'disk full\n' }, 'a log');
        const { channels } = await read(api, token, '/channels');
        t.same(names(channels), [...expected.channels].sort(), 'every channel');
        const { alerts } = await read(api, token, '/alerts?limit=100');
        const alertIds = alerts.map((alert: { alertId: string }) => alert.alertId);
        t.same(
          expected.alerts.filter((id) => !alertIds.includes(id)),
          [],
          'every alert',
        );
        if (version >= 2) {
          const { rules } = await read(api, token, `/monitors/${FIXTURE.disk}/rules`);
          t.equal(rules.length, expected.rules, 'every rule');
        }
        const { users } = await read(api, token, '/users');
        t.equal(users.length, expected.users, 'every user');
        if (version >= 22) {
          const running = runs.find((run: { runId: string }) => run.runId === 'run_fixture_running_v22');
          t.equal(running?.status, 'running', 'a running run stays open');
        }

        const check = await checkDatabase(api.config);
        t.same(
          { schemaVersion: check.schemaVersion, pending: check.pending, problems: check.problems },
          { schemaVersion: MIGRATION_NAMES.at(-1), pending: [], problems: [] },
          'the database is at the latest schema and holds together',
        );
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
        const upgrade = migrate(knex, kind, { ...MIGRATIONS, '024-fails-on-purpose': failing });
        await t.rejects(upgrade, /failing on purpose/);
      });
      // 021 to 023 ran before it in the same transaction: they are undone with it.
      t.same(await snapshot(db), before, 'the schema version, the tables and their rows as before');
      const tables = await withKnex(db, (knex) => knex.schema.hasTable('half_done'));
      t.equal(tables, false, 'the failed migration left no table');

      const api = await TestServer.on(t, db, NO_RETENTION);
      const token = await login(api);
      const { runs } = await read(api, token, `/monitors/${FIXTURE.nightly}/runs?limit=100`);
      t.equal(runs.length, expectedAt(20).nightlyRuns.length, 'the runs are all there');
      const after = await checkDatabase(api.config);
      t.same([after.schemaVersion, after.pending, after.problems], [MIGRATION_NAMES.at(-1), [], []], 'migrated');
    },
  );
}
