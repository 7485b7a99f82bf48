import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import knexFactory from 'knex';
import { MIGRATION_NAMES } from '@pingmon/server/internal';
import { createTestDatabase, knexOf, POSTGRES_URL } from './helpers/databases.js';
import { buildFixture, COMMITTED_VERSIONS, FIXTURE_SCHEMA } from './helpers/schema-fixtures.js';

// Regenerates test/schema-fixtures/ (npm run schema-fixtures in test/, after npx tsc -b .): for each committed
// version a database made at it (helpers/schema-fixtures.ts), dumped as SQL text: sqlite3's .dump and pg_dump's
// --inserts. Needs sqlite3, pg_dump and PINGMON_TEST_DATABASE_URL. Files already there are kept as they are (they
// stand for what those versions made), unless `--again` is given.

const OUT = fileURLToPath(new URL('../schema-fixtures/', import.meta.url));

async function sqliteDump(version: number): Promise<string> {
  const db = await createTestDatabase('sqlite');
  try {
    const knex = knexOf(db);
    try {
      await buildFixture(knex, 'sqlite', version);
    } finally {
      await knex.destroy();
    }
    return execFileSync('sqlite3', [`${db.dataDir}/pingmon.db`, '.dump'], { encoding: 'utf8' });
  } finally {
    await db.drop();
  }
}

async function postgresDump(url: string, version: number): Promise<string> {
  const knex = knexFactory({ client: 'pg', connection: url, searchPath: [FIXTURE_SCHEMA] });
  try {
    await knex.raw('drop schema if exists ?? cascade', [FIXTURE_SCHEMA]);
    await knex.raw('create schema ??', [FIXTURE_SCHEMA]);
    await buildFixture(knex, 'postgres', version);
    const args = ['--inserts', '--no-owner', '--no-privileges', '--schema', FIXTURE_SCHEMA, url];
    // pg_dump's \restrict lines carry a random key, for psql only: the tests run the dump through pg.
    return execFileSync('pg_dump', args, { encoding: 'utf8' }).replace(/^\\(un)?restrict .*\n/gm, '');
  } finally {
    await knex.raw('drop schema if exists ?? cascade', [FIXTURE_SCHEMA]);
    await knex.destroy();
  }
}

if (!POSTGRES_URL) throw new Error('set PINGMON_TEST_DATABASE_URL: the PostgreSQL fixtures are dumped from it');
for (const kind of ['sqlite', 'postgres']) mkdirSync(`${OUT}${kind}`, { recursive: true });
const again = process.argv.includes('--again');
for (const version of COMMITTED_VERSIONS) {
  const name = MIGRATION_NAMES[version - 1]!;
  if (!again && existsSync(`${OUT}sqlite/${name}.sql`) && existsSync(`${OUT}postgres/${name}.sql`)) continue;
  writeFileSync(`${OUT}sqlite/${name}.sql`, await sqliteDump(version));
  writeFileSync(`${OUT}postgres/${name}.sql`, await postgresDump(POSTGRES_URL, version));
  console.log(`schema-fixtures: ${name}`);
}
