import type { Knex } from 'knex';

// One alert per problem (docs/alerts.md#one-alert-per-problem): a monitor may send the fail alert only for the run
// that opens an incident (fail_alerts 'first'); the incident counts its failed and missed runs for the reminders
// and the recovery; runs keep the host that sent them, and a sweep's missed alerts of monitors whose last runs
// came from one host go out as one message (alerts.group_id: the alert whose deliveries carry the group's message).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('monitors', (t) => {
    t.string('fail_alerts', 8).notNullable().defaultTo('every');
    t.integer('incident_failed_runs').notNullable().defaultTo(0);
    t.integer('incident_missed_runs').notNullable().defaultTo(0);
  });
  // An incident open at the upgrade counts the run that opened it, as one opened after does.
  await knex('monitors')
    .whereNotNull('incident_opened_at')
    .whereIn('incident_cause', ['fail', 'timed_out'])
    .update({ incident_failed_runs: 1 });
  await knex('monitors')
    .whereNotNull('incident_opened_at')
    .where('incident_cause', 'missed')
    .update({ incident_missed_runs: 1 });
  await knex.schema.alterTable('runs', (t) => {
    t.string('host', 255).nullable();
  });
  await knex.schema.alterTable('alerts', (t) => {
    t.string('host', 255).nullable();
    t.string('group_id', 32).nullable();
  });
  await knex.schema.raw('create index alerts_group on alerts (group_id) where group_id is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.raw('drop index alerts_group');
  await knex.schema.alterTable('alerts', (t) => {
    t.dropColumn('group_id');
    t.dropColumn('host');
  });
  await knex.schema.alterTable('runs', (t) => t.dropColumn('host'));
  await knex.schema.alterTable('monitors', (t) => {
    t.dropColumn('incident_missed_runs');
    t.dropColumn('incident_failed_runs');
    t.dropColumn('fail_alerts');
  });
}
