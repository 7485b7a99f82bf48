import type { Knex } from 'knex';

// POST /channels/:channelId/test sends a request for the caller: each channel counts its tests in a window,
// in the database, so that the limit holds across server processes.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('channels', (t) => {
    t.integer('tests_in_window').notNullable().defaultTo(0);
    t.bigInteger('test_window_started_at').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('channels', (t) => {
    t.dropColumn('test_window_started_at');
    t.dropColumn('tests_in_window');
  });
}
