import type { Knex } from 'knex';

// Quiet on purpose (docs/schedules.md#snooze-and-maintenance-windows): a monitor's snooze, the alert it held back
// while quiet (checked again by the sweeper when the quiet ends, through an indexed column), and the account's
// maintenance windows.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('monitors', (t) => {
    t.bigInteger('snoozed_until').nullable();
    /** When the first alert was held back, and when the sweeper looks again (the quiet's end as then known). */
    t.bigInteger('held_since').nullable();
    t.bigInteger('held_until').nullable();
  });
  await knex.schema.raw('create index monitors_held on monitors (held_until) where held_until is not null');
  await knex.schema.createTable('maintenance_windows', (t) => {
    t.string('id', 32).primary();
    t.string('account_id', 32).notNullable().references('id').inTable('accounts').onDelete('CASCADE');
    t.string('cron', 200).notNullable();
    t.string('timezone', 64).notNullable();
    t.bigInteger('duration_ms').notNullable();
    // JSON array of monitor ids; null: every monitor of the account.
    t.text('monitor_ids').nullable();
    t.bigInteger('created_at').notNullable();
    t.index(['account_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('maintenance_windows');
  await knex.schema.raw('drop index monitors_held');
  await knex.schema.alterTable('monitors', (t) => {
    t.dropColumn('held_until');
    t.dropColumn('held_since');
    t.dropColumn('snoozed_until');
  });
}
