import type { Knex } from 'knex';

// A monitor's timeline (docs/api.md#events): what is stored nowhere else as history (missed slots, timeouts,
// incidents opened and closed, snoozes, pauses and resumptions), appended in the transaction of the change that
// causes it. Runs and alerts are read from their own tables. Deleted with the monitor; pruned as runs are.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('events', (t) => {
    t.string('id', 32).primary();
    t.string('account_id', 32).notNullable();
    t.string('monitor_id', 32).notNullable().references('monitors.id').onDelete('CASCADE');
    t.string('kind', 16).notNullable();
    t.bigInteger('at').notNullable();
    // JSON: the kind's own fields (domain/events.ts).
    t.text('data').notNullable();
    t.index(['monitor_id', 'at', 'id'], 'events_monitor_at');
    // Retention by age looks across every monitor.
    t.index(['at'], 'events_at');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('events');
}
