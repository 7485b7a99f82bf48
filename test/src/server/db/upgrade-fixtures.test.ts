import { existsSync, readFileSync } from 'node:fs';
import { MIGRATION_NAMES } from '@pingmon/server/internal';
import t from 'tap';
import { createTestDatabase, DATABASE_KINDS, knexOf } from '../../helpers/databases.js';
import type { TestDatabase } from '../../helpers/databases.js';
import { COMMITTED_VERSIONS, FIXTURE_SCHEMA, NO_RETENTION, readsBack } from '../../helpers/schema-fixtures.js';
import { TestServer } from '../../helpers/server.js';

// The committed databases of earlier versions (test/schema-fixtures/, made by src/schema-fixtures.ts) are opened by
// the current server: files that stay as they are while the migrations and their helpers change around them.

const FIXTURES = new URL('../../../schema-fixtures/', import.meta.url);

/** Loads an SQL dump into the test's database: SQLite's as it is, PostgreSQL's into the test's own schema. */
async function load(db: TestDatabase, name: string): Promise<void> {
  const file = new URL(`${db.kind}/${name}.sql`, FIXTURES);
  if (!existsSync(file)) {
    throw new Error(
      `no committed database of ${name}: make it with npm run schema-fixtures in test/ (docs/testing.md)`,
    );
  }
  const dump = readFileSync(file, 'utf8');
  const knex = knexOf(db);
  try {
    if (db.kind === 'postgres') {
      await knex.raw(dump.replaceAll(FIXTURE_SCHEMA, db.databaseSchema!));
      return;
    }
    // Several statements: better-sqlite3's exec runs them, knex's raw takes one.
    const conn = (await knex.client.acquireConnection()) as { exec(sql: string): unknown };
    try {
      conn.exec(dump);
    } finally {
      await knex.client.releaseConnection(conn);
    }
  } finally {
    await knex.destroy();
  }
}

for (const kind of DATABASE_KINDS) {
  for (const version of COMMITTED_VERSIONS) {
    const name = MIGRATION_NAMES[version - 1]!;
    t.test(`${kind}: the committed database of ${name} is migrated by the current server, all readable`, async (t) => {
      const db = await createTestDatabase(kind);
      t.teardown(() => db.drop());
      await load(db, name);
      const api = await TestServer.on(t, db, NO_RETENTION);
      await readsBack(t, api, version);
    });
  }
}
