import type { Knex } from 'knex';
import type { Config } from '../config.js';
import { MIGRATION_NAMES } from './migrate.js';
import type { AdminConnection } from './tables.js';
import { adminConnection, appliedMigrations, rowCounts, TABLES, tableNames } from './tables.js';

/** What `pingmon admin check` reports; `problems` empty means fine. */
export interface DatabaseCheck {
  dialect: 'sqlite' | 'postgres';
  location: string;
  /** The last migration applied (null: none, a database the server has not created yet). */
  schemaVersion: string | null;
  /** Migrations this pingmon would apply at its next start, in order: listed, never applied here. */
  pending: string[];
  /** Rows per table, for the tables the applied migrations made. */
  rows: Record<string, number>;
  problems: string[];
}

/**
 * Reads the configured database without changing it: its schema version, the migrations pending, and whether its
 * data holds together (SQLite: integrity_check and foreign_key_check; both: every table there, rows counted).
 */
export async function checkDatabase(config: Config): Promise<DatabaseCheck> {
  const connection = adminConnection(config, { readonly: true });
  const check = emptyCheck(connection.dialect, connection.location);
  try {
    if (!connection.exists) return { ...check, pending: [...MIGRATION_NAMES] };
    await commonChecks(connection, check);
    if (connection.dialect === 'sqlite') await sqliteIntegrity(connection.knex, check);
    else await postgresIntegrity(connection.knex, check);
    return check;
  } finally {
    await connection.knex.destroy();
  }
}

async function sqliteIntegrity(knex: Knex, check: DatabaseCheck): Promise<void> {
  const integrity = (await knex.raw('pragma integrity_check')) as Array<{ integrity_check: string }>;
  const damage = integrity.map((row) => row.integrity_check).filter((line) => line !== 'ok');
  for (const line of damage) check.problems.push(`integrity_check: ${line}`);
  const broken = (await knex.raw('pragma foreign_key_check')) as Array<{ table: string; parent: string }>;
  for (const [pair, count] of countBy(broken.map((row) => `${row.table} → ${row.parent}`))) {
    check.problems.push(`foreign keys: ${count} row(s) of ${pair} point at no row`);
  }
}

async function postgresIntegrity(knex: Knex, check: DatabaseCheck): Promise<void> {
  // PostgreSQL enforces foreign keys itself; one added NOT VALID (by hand) would not have checked old rows.
  const unchecked = await knex.raw<{ rows: Array<{ conname: string }> }>(
    "select conname from pg_constraint where contype = 'f' and not convalidated " +
      'and connamespace = (select oid from pg_namespace where nspname = current_schema())',
  );
  for (const { conname } of unchecked.rows) check.problems.push(`foreign key ${conname} is not validated`);
}

async function commonChecks(connection: AdminConnection, check: DatabaseCheck): Promise<void> {
  const tables = await tableNames(connection, connection.knex);
  const applied = await appliedMigrations(connection.knex, tables);
  check.schemaVersion = applied.at(-1) ?? null;
  check.pending = MIGRATION_NAMES.filter((name) => !applied.includes(name));
  const unknown = applied.filter((name) => !MIGRATION_NAMES.includes(name));
  if (unknown.length > 0) {
    check.problems.push(
      `applied by a newer pingmon: ${unknown.join(', ')}; this version cannot use the database ` +
        '(install the newer one again, or restore the backup taken before the upgrade)',
    );
  }
  if (tables.has('knex_migrations_lock')) {
    const locks = await connection.knex('knex_migrations_lock').select<Array<{ is_locked: number }>>('is_locked');
    if (locks.some((lock) => Number(lock.is_locked) === 1)) {
      check.problems.push('the migration lock is held: a server is migrating, or one stopped while it did');
    }
  }
  const expected = TABLES.filter(({ migration }) => applied.includes(migration));
  for (const { name, migration } of expected) {
    if (!tables.has(name)) check.problems.push(`table ${name} is missing (made by migration ${migration})`);
  }
  check.rows = await rowCounts(connection.knex, tables);
}

function emptyCheck(dialect: DatabaseCheck['dialect'], location: string): DatabaseCheck {
  return { dialect, location, schemaVersion: null, pending: [], rows: {}, problems: [] };
}

function countBy(values: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}
