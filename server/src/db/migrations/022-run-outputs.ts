import type { Knex } from 'knex';

// Live output (docs/api.md#live-output): the last characters a running run's wrapper sent, one row per run, kept a
// minute past the run's end (a follower reads its last lines) and deleted with the run.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('run_outputs', (t) => {
    t.string('monitor_id', 32).notNullable();
    t.string('run_id', 64).notNullable();
    t.text('content').notNullable();
    // Offsets in characters (UTF-16 units) of the job's output since it started: content is [from_offset, to_offset).
    t.bigInteger('from_offset').notNullable();
    t.bigInteger('to_offset').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.primary(['monitor_id', 'run_id']);
    t.foreign(['monitor_id', 'run_id']).references(['monitor_id', 'id']).inTable('runs').onDelete('CASCADE');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('run_outputs');
}
