import type { Knex } from 'knex';

// How many secrets the wrapper or the SDK replaced with [redacted] before a run's output, error message or meta left
// the job's host (docs/cli.md#secrets-stay-on-the-host): a count only, the secrets never reach the server.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('runs', (t) => {
    t.integer('redactions').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('runs', (t) => {
    t.dropColumn('redactions');
  });
}
