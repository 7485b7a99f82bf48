import type { Knex } from 'knex';

// Each server process's sweeper leaves a row: its last beat, and when it stopped cleanly. The next one to start
// then knows exactly when no server was sweeping (docs/schedules.md#when-pingmon-itself-was-down); an alert
// raised after such a gap names it.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sweepers', (t) => {
    t.string('id', 32).primary();
    t.string('host', 255).notNullable();
    t.integer('pid').notNullable();
    /** When the process began (epoch ms): tells a process that reused a pid from the one that had it. */
    t.bigInteger('process_started_at').notNullable();
    t.integer('interval_ms').notNullable();
    t.bigInteger('started_at').notNullable();
    t.bigInteger('beat_at').notNullable();
    t.bigInteger('stopped_at').nullable();
  });
  await knex.schema.alterTable('alerts', (t) => {
    t.bigInteger('server_gap_from').nullable();
    t.bigInteger('server_gap_to').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('alerts', (t) => {
    t.dropColumn('server_gap_from');
    t.dropColumn('server_gap_to');
  });
  await knex.schema.dropTable('sweepers');
}
