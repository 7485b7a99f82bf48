import type { Knex } from 'knex';
import * as initial from './migrations/001-initial.js';

const MIGRATIONS: Record<string, Knex.Migration> = {
  '001-initial': initial,
};

const source: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(MIGRATIONS),
  getMigrationName: (name) => name,
  getMigration: async (name) => MIGRATIONS[name]!,
};

/** Applies pending migrations; several processes starting at once take turns on knex's migration lock. */
export async function migrate(knex: Knex): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await knex.migrate.latest({ migrationSource: source });
      return;
    } catch (err) {
      if (!(err instanceof Error && err.name === 'MigrationLocked') || attempt >= 50) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 100));
    }
  }
}
