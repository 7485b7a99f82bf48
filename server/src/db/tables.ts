import { existsSync } from 'node:fs';
import { join } from 'node:path';
import knexFactory from 'knex';
import type { Knex } from 'knex';
import type { Config } from '../config.js';
import { redactUrl } from '../config.js';
import { configureSqlite } from './sqlite.js';

export interface Table {
  name: string;
  /** The primary key's columns. */
  key: readonly string[];
  /** The migration that made it: the table is expected once that migration is applied. */
  migration: string;
  /**
   * Columns unique (alone or with others) that a row may give up to another: a copy's second pass sets them to the
   * row's own `id` before it writes, so that no row waits for one written after it.
   */
  unique?: readonly string[];
}

/** Every table pingmon keeps, each after the tables its rows point at (the order a copy writes them in). */
export const TABLES: readonly Table[] = [
  { name: 'settings', key: ['key'], migration: '001-initial' },
  { name: 'accounts', key: ['id'], migration: '001-initial', unique: ['slug'] },
  { name: 'users', key: ['id'], migration: '001-initial', unique: ['email'] },
  { name: 'api_keys', key: ['id'], migration: '001-initial' },
  { name: 'login_attempts', key: ['key'], migration: '001-initial' },
  { name: 'monitors', key: ['id'], migration: '001-initial', unique: ['slug'] },
  { name: 'runs', key: ['monitor_id', 'id'], migration: '001-initial' },
  { name: 'run_logs', key: ['monitor_id', 'run_id'], migration: '001-initial' },
  { name: 'rules', key: ['id'], migration: '002-alerts' },
  { name: 'channels', key: ['id'], migration: '002-alerts' },
  { name: 'channel_monitors', key: ['channel_id', 'monitor_id'], migration: '002-alerts' },
  { name: 'alerts', key: ['id'], migration: '002-alerts' },
  { name: 'alert_deliveries', key: ['alert_id', 'channel_id'], migration: '002-alerts' },
  { name: 'delivery_attempts', key: ['alert_id', 'channel_id', 'attempt'], migration: '002-alerts' },
  { name: 'sessions', key: ['id'], migration: '006-sessions' },
  { name: 'sweepers', key: ['id'], migration: '007-server-gaps' },
  { name: 'maintenance_windows', key: ['id'], migration: '010-quiet' },
  { name: 'events', key: ['id'], migration: '012-events' },
  { name: 'invites', key: ['id'], migration: '016-users-roles' },
  { name: 'audit_entries', key: ['id'], migration: '018-audit' },
  { name: 'status_pages', key: ['account_id'], migration: '019-status-page' },
  { name: 'status_page_monitors', key: ['account_id', 'monitor_id'], migration: '019-status-page' },
  { name: 'second_factors', key: ['user_id'], migration: '020-account-security' },
  { name: 'recovery_codes', key: ['user_id', 'code_hash'], migration: '020-account-security' },
  { name: 'run_outputs', key: ['monitor_id', 'run_id'], migration: '022-run-outputs' },
];

/** A knex connection of an admin command (check, copy), and where it leads, for messages. */
export interface AdminConnection {
  knex: Knex;
  dialect: 'sqlite' | 'postgres';
  location: string;
  /** SQLite: whether the file is there (an admin command never creates it); PostgreSQL: true. */
  exists: boolean;
}

/**
 * Connects to the configured database as `pingmon server` would find it, without migrating it: read-only for
 * the commands that only read. A SQLite file that is not there is not created (`exists` false, no connection).
 */
export function adminConnection(config: Config, options: { readonly: boolean }): AdminConnection {
  if (config.databaseUrl) {
    const schema = config.databaseSchema;
    const knex = knexFactory({
      client: 'pg',
      connection: { connectionString: config.databaseUrl, connectionTimeoutMillis: 5_000 },
      searchPath: schema ? [schema] : undefined,
      pool: { min: 0, max: 2 },
      compileSqlOnError: false,
      log: { warn() {}, error() {}, deprecate() {}, debug() {} },
    });
    const location = redactUrl(config.databaseUrl) + (schema ? ` (schema ${schema})` : '');
    return { knex: withPlainErrors(knex), dialect: 'postgres', location, exists: true };
  }
  const filename = join(config.dataDir, 'pingmon.db');
  const knex = knexFactory({
    client: 'better-sqlite3',
    connection: { filename, options: { readonly: options.readonly } },
    useNullAsDefault: true,
    compileSqlOnError: false,
    pool: {
      afterCreate(conn: { pragma(sql: string): unknown }, done: (err: Error | null, conn: unknown) => void) {
        if (!options.readonly) configureSqlite(conn);
        done(null, conn);
      },
    },
  });
  return { knex: withPlainErrors(knex), dialect: 'sqlite', location: filename, exists: existsSync(filename) };
}

/** knex puts the statement before a failed statement's message (a batch of thousands of values): taken off again. */
function withPlainErrors(knex: Knex): Knex {
  knex.on('query-error', (err: Error, query: { sql: string }) => {
    const prefix = `${query.sql} - `;
    if (err.message.startsWith(prefix)) err.message = err.message.slice(prefix.length);
  });
  return knex;
}

/** The tables in the database or schema, pingmon's and any other (`knex`: the connection's, or its transaction). */
export async function tableNames({ dialect }: AdminConnection, knex: Knex): Promise<Set<string>> {
  if (dialect === 'sqlite') {
    const rows = (await knex.raw("select name from sqlite_master where type = 'table'")) as Array<{ name: string }>;
    return new Set(rows.map((row) => row.name));
  }
  const result = await knex.raw<{ rows: Array<{ name: string }> }>(
    'select table_name as name from information_schema.tables where table_schema = current_schema()',
  );
  return new Set(result.rows.map((row) => row.name));
}

/** The migrations applied, in order (none: a database no server has created yet). */
export async function appliedMigrations(knex: Knex, tables: Set<string>): Promise<string[]> {
  if (!tables.has('knex_migrations')) return [];
  const rows = await knex('knex_migrations').select<Array<{ name: string }>>('name').orderBy('id');
  return rows.map((row) => row.name);
}

/** Rows per table, for pingmon's tables that are there. */
export async function rowCounts(knex: Knex, tables: Set<string>): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const { name } of TABLES) {
    if (!tables.has(name)) continue;
    const [row] = await knex(name).count<Array<{ count: number | string }>>({ count: '*' });
    counts[name] = Number(row?.count ?? 0);
  }
  return counts;
}
