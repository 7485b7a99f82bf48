import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import knexFactory from 'knex';
import type { Knex } from 'knex';

export type DatabaseKind = 'sqlite' | 'postgres';

/** Where one test's data lives: a fresh SQLite directory, or a fresh schema on the test PostgreSQL. */
export interface TestDatabase {
  kind: DatabaseKind;
  dataDir: string;
  databaseUrl: string | undefined;
  databaseSchema: string | undefined;
  /** The same settings as PINGMON_* variables, for child processes. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

export const POSTGRES_URL = process.env.PINGMON_TEST_DATABASE_URL || undefined;

/** SQLite always; PostgreSQL too when PINGMON_TEST_DATABASE_URL is set. */
export const DATABASE_KINDS: DatabaseKind[] = POSTGRES_URL ? ['sqlite', 'postgres'] : ['sqlite'];

/** A knex on the test's database, beside the server's own connections: tests read and break what it stored. */
export function knexOf(db: TestDatabase): Knex {
  if (db.kind === 'sqlite') {
    const filename = join(db.dataDir, 'pingmon.db');
    return knexFactory({ client: 'better-sqlite3', connection: { filename }, useNullAsDefault: true });
  }
  return knexFactory({ client: 'pg', connection: db.databaseUrl, searchPath: [db.databaseSchema!] });
}

/** Runs `fn` with a knex of its own on the test's database (knexOf), closed after. */
export async function withKnex<T>(db: TestDatabase, fn: (knex: Knex) => Promise<T>): Promise<T> {
  const knex = knexOf(db);
  try {
    return await fn(knex);
  } finally {
    await knex.destroy();
  }
}

export function tempDir(prefix = 'pingmon-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  const dataDir = tempDir();
  if (kind === 'sqlite') {
    return {
      kind,
      dataDir,
      databaseUrl: undefined,
      databaseSchema: undefined,
      env: { PINGMON_DATA_DIR: dataDir },
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const url = POSTGRES_URL!;
  return {
    kind,
    dataDir,
    databaseUrl: url,
    databaseSchema: schema,
    env: { PINGMON_DATA_DIR: dataDir, PINGMON_DATABASE_URL: url, PINGMON_DATABASE_SCHEMA: schema },
    drop: async () => {
      rmSync(dataDir, { recursive: true, force: true });
      const admin = knexFactory({ client: 'pg', connection: url });
      try {
        await admin.raw('drop schema if exists ?? cascade', [schema]);
      } finally {
        await admin.destroy();
      }
    },
  };
}
