import type { Knex } from 'knex';

// Retention (docs/configuration.md#retention) deletes the oldest runs and alerts of all monitors: these indexes let
// it find them without reading every row.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('runs', (t) => t.index(['started_at'], 'runs_started_at'));
  await knex.schema.alterTable('alerts', (t) => t.index(['created_at'], 'alerts_created_at'));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('alerts', (t) => t.dropIndex(['created_at'], 'alerts_created_at'));
  await knex.schema.alterTable('runs', (t) => t.dropIndex(['started_at'], 'runs_started_at'));
}
