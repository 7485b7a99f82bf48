import type { Knex } from 'knex';
import * as initial from './migrations/001-initial.js';
import * as alerts from './migrations/002-alerts.js';
import * as channelTests from './migrations/003-channel-tests.js';
import * as schedules from './migrations/004-schedules.js';
import * as retention from './migrations/005-retention.js';
import * as sessions from './migrations/006-sessions.js';
import * as serverGaps from './migrations/007-server-gaps.js';
import * as alertContext from './migrations/008-alert-context.js';
import * as incidentCounts from './migrations/009-incident-counts.js';
import * as quiet from './migrations/010-quiet.js';
import * as slugs from './migrations/011-slugs.js';
import * as events from './migrations/012-events.js';
import * as channelKinds from './migrations/013-channel-kinds.js';
import * as fingerprints from './migrations/014-fingerprints.js';
import * as relativeRules from './migrations/015-relative-rules.js';
import * as usersRoles from './migrations/016-users-roles.js';
import * as keyScopes from './migrations/017-key-scopes.js';
import * as audit from './migrations/018-audit.js';
import * as statusPage from './migrations/019-status-page.js';
import * as accountSecurity from './migrations/020-account-security.js';
import * as runRedactions from './migrations/021-run-redactions.js';
import * as runOutputs from './migrations/022-run-outputs.js';
import * as providerIdentity from './migrations/023-provider-identity.js';
import * as failureIndex from './migrations/024-failure-index.js';

/** Every migration, in order: a name's number is its schema version. */
export const MIGRATIONS: Readonly<Record<string, Knex.Migration>> = {
  '001-initial': initial,
  '002-alerts': alerts,
  '003-channel-tests': channelTests,
  '004-schedules': schedules,
  '005-retention': retention,
  '006-sessions': sessions,
  '007-server-gaps': serverGaps,
  '008-alert-context': alertContext,
  '009-incident-counts': incidentCounts,
  '010-quiet': quiet,
  '011-slugs': slugs,
  '012-events': events,
  '013-channel-kinds': channelKinds,
  '014-fingerprints': fingerprints,
  '015-relative-rules': relativeRules,
  '016-users-roles': usersRoles,
  '017-key-scopes': keyScopes,
  '018-audit': audit,
  '019-status-page': statusPage,
  '020-account-security': accountSecurity,
  '021-run-redactions': runRedactions,
  '022-run-outputs': runOutputs,
  '023-provider-identity': providerIdentity,
  '024-failure-index': failureIndex,
};

export const MIGRATION_NAMES: readonly string[] = Object.keys(MIGRATIONS);

/** The first `count` migrations: the schema as that version of pingmon made it (test fixtures, docs/deploy.md). */
export function migrationsUpTo(count: number): Record<string, Knex.Migration> {
  return Object.fromEntries(Object.entries(MIGRATIONS).slice(0, count));
}

/**
 * On PostgreSQL every migration runs inside the one transaction of the upgrade: 004 stays out of knex's only for
 * SQLite's sake (its pragma), and its own transaction nests as a savepoint.
 */
function sourceOf(
  migrations: Readonly<Record<string, Knex.Migration>>,
  dialect: 'sqlite' | 'postgres',
): Knex.MigrationSource<string> {
  return {
    getMigrations: async () => Object.keys(migrations),
    getMigrationName: (name) => name,
    getMigration: async (name) =>
      dialect === 'postgres' ? { ...migrations[name]!, config: { transaction: true } } : migrations[name]!,
  };
}

/** Any constant: it names pingmon's migration lock among PostgreSQL's advisory locks. */
const MIGRATION_LOCK = 7_406_611;

/**
 * Applies pending migrations. Processes starting together take turns: on PostgreSQL behind an advisory
 * lock held for the whole run; on SQLite by retrying when knex's own tables are being created by another.
 * knex runs them in one transaction: a migration that fails leaves the database as it was. On SQLite an upgrade
 * across 004 (which opts out) runs each in its own: the ones before the failure stay (test/src/server/db/upgrades).
 * `migrations` is the whole list but in tests, which stop at an older version or add one that fails.
 */
export async function migrate(
  knex: Knex,
  dialect: 'sqlite' | 'postgres',
  migrations: Readonly<Record<string, Knex.Migration>> = MIGRATIONS,
): Promise<void> {
  const source = sourceOf(migrations, dialect);
  if (dialect === 'postgres') {
    await knex.transaction(async (trx) => {
      // This transaction only holds the lock while the migrations run on other connections: it idles, for as long
      // as they take, and must not be ended for it (the pool's idle_in_transaction_session_timeout, db/index.ts).
      await trx.raw('set local idle_in_transaction_session_timeout = 0');
      await trx.raw('select pg_advisory_xact_lock(?)', [MIGRATION_LOCK]);
      await knex.migrate.latest({ migrationSource: source, disableTransactions: false });
    });
    return;
  }
  for (let attempt = 0; ; attempt++) {
    try {
      await knex.migrate.latest({ migrationSource: source, disableTransactions: false });
      return;
    } catch (err) {
      const racing =
        err instanceof Error &&
        (err.name === 'MigrationLocked' || /already exists|database is locked/i.test(err.message));
      if (!racing || attempt >= 50) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 100));
    }
  }
}
