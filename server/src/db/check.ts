import { existsSync } from 'node:fs';
import { join } from 'node:path';
import knexFactory from 'knex';
import type { Knex } from 'knex';
import type { Config } from '../config.js';
import { redactUrl } from '../config.js';
import { MIGRATION_NAMES } from './migrate.js';

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

/** Each table and the migration that made it: a table is expected once its migration is applied. */
const TABLES: Record<string, string> = {
  settings: '001-initial',
  accounts: '001-initial',
  users: '001-initial',
  api_keys: '001-initial',
  login_attempts: '001-initial',
  monitors: '001-initial',
  runs: '001-initial',
  run_logs: '001-initial',
  rules: '002-alerts',
  channels: '002-alerts',
  channel_monitors: '002-alerts',
  alerts: '002-alerts',
  alert_deliveries: '002-alerts',
  delivery_attempts: '002-alerts',
  sessions: '006-sessions',
  sweepers: '007-server-gaps',
  maintenance_windows: '010-quiet',
  events: '012-events',
  invites: '016-users-roles',
  audit_entries: '018-audit',
  status_pages: '019-status-page',
  status_page_monitors: '019-status-page',
  second_factors: '020-account-security',
  recovery_codes: '020-account-security',
  run_outputs: '022-run-outputs',
};

/**
 * Reads the configured database without changing it: its schema version, the migrations pending, and whether its
 * data holds together (SQLite: integrity_check and foreign_key_check; both: every table there, rows counted).
 */
export async function checkDatabase(config: Config): Promise<DatabaseCheck> {
  if (config.databaseUrl) return checkPostgres(config.databaseUrl, config.databaseSchema);
  const filename = join(config.dataDir, 'pingmon.db');
  if (!existsSync(filename)) {
    return { ...emptyCheck('sqlite', filename), pending: [...MIGRATION_NAMES] };
  }
  const knex = knexFactory({
    client: 'better-sqlite3',
    connection: { filename, options: { readonly: true } },
    useNullAsDefault: true,
  });
  try {
    const check = await commonChecks(knex, emptyCheck('sqlite', filename), 'sqlite');
    const integrity = (await knex.raw('pragma integrity_check')) as Array<{ integrity_check: string }>;
    const damage = integrity.map((row) => row.integrity_check).filter((line) => line !== 'ok');
    for (const line of damage) check.problems.push(`integrity_check: ${line}`);
    const broken = (await knex.raw('pragma foreign_key_check')) as Array<{ table: string; parent: string }>;
    for (const [pair, count] of countBy(broken.map((row) => `${row.table} → ${row.parent}`))) {
      check.problems.push(`foreign keys: ${count} row(s) of ${pair} point at no row`);
    }
    return check;
  } finally {
    await knex.destroy();
  }
}

async function checkPostgres(url: string, schema: string | undefined): Promise<DatabaseCheck> {
  const location = redactUrl(url) + (schema ? ` (schema ${schema})` : '');
  const knex = knexFactory({
    client: 'pg',
    connection: { connectionString: url, connectionTimeoutMillis: 5_000 },
    searchPath: schema ? [schema] : undefined,
    pool: { min: 0, max: 1 },
    log: { warn() {}, error() {}, deprecate() {}, debug() {} },
  });
  try {
    const check = await commonChecks(knex, emptyCheck('postgres', location), 'postgres');
    // PostgreSQL enforces foreign keys itself; one added NOT VALID (by hand) would not have checked old rows.
    const unchecked = await knex.raw<{ rows: Array<{ conname: string }> }>(
      "select conname from pg_constraint where contype = 'f' and not convalidated " +
        'and connamespace = (select oid from pg_namespace where nspname = current_schema())',
    );
    for (const { conname } of unchecked.rows) check.problems.push(`foreign key ${conname} is not validated`);
    return check;
  } finally {
    await knex.destroy();
  }
}

async function commonChecks(knex: Knex, check: DatabaseCheck, dialect: DatabaseCheck['dialect']) {
  const tables = new Set(await tableNames(knex, dialect));
  const applied = tables.has('knex_migrations')
    ? (await knex('knex_migrations').select<Array<{ name: string }>>('name').orderBy('id')).map((row) => row.name)
    : [];
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
    const locks = await knex('knex_migrations_lock').select<Array<{ is_locked: number }>>('is_locked');
    if (locks.some((lock) => Number(lock.is_locked) === 1)) {
      check.problems.push('the migration lock is held: a server is migrating, or one stopped while it did');
    }
  }
  for (const [table, migration] of Object.entries(TABLES)) {
    if (!applied.includes(migration)) continue;
    if (!tables.has(table)) {
      check.problems.push(`table ${table} is missing (made by migration ${migration})`);
      continue;
    }
    const [row] = await knex(table).count<Array<{ count: number | string }>>({ count: '*' });
    check.rows[table] = Number(row?.count ?? 0);
  }
  return check;
}

async function tableNames(knex: Knex, dialect: DatabaseCheck['dialect']): Promise<string[]> {
  if (dialect === 'sqlite') {
    const rows = (await knex.raw("select name from sqlite_master where type = 'table'")) as Array<{ name: string }>;
    return rows.map((row) => row.name);
  }
  const result = await knex.raw<{ rows: Array<{ name: string }> }>(
    'select table_name as name from information_schema.tables where table_schema = current_schema()',
  );
  return result.rows.map((row) => row.name);
}

function emptyCheck(dialect: DatabaseCheck['dialect'], location: string): DatabaseCheck {
  return { dialect, location, schemaVersion: null, pending: [], rows: {}, problems: [] };
}

function countBy(values: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}
