import type { Knex } from 'knex';

// What an alert says about its cause (docs/alerts.md): a fail alert keeps the end of its run's log besides the
// snippet, and a missed alert the monitor's last run before the expected one, both as they were when it was raised.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('alerts', (t) => {
    t.text('log_tail').nullable();
    t.bigInteger('last_run_at').nullable();
    t.string('last_run_status', 16).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('alerts', (t) => {
    t.dropColumn('last_run_status');
    t.dropColumn('last_run_at');
    t.dropColumn('log_tail');
  });
}
