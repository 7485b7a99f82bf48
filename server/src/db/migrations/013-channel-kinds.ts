import type { Knex } from 'knex';

// Channel kinds (DESIGN §16, docs/alerts.md): a channel's own settings (`options`, JSON), how often it repeats an
// open incident's alert and how long it waits before it is told (escalation). Alerts name the incident they belong
// to, so that on-call tools open one incident per pingmon incident and close it on recovery. A delivery may be sent
// again (a repeat): `repeats` numbers the message, `repeat_attempts` the attempts made before it.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('channels', (t) => {
    t.text('options').notNullable().defaultTo('{}');
    t.integer('repeat_every').nullable();
    t.integer('escalate_after').nullable();
  });
  await knex.schema.alterTable('alerts', (t) => {
    t.string('incident_key', 64).nullable();
    t.string('cause', 16).nullable();
    t.index(['incident_key'], 'alerts_incident_key');
  });
  await knex.schema.alterTable('alert_deliveries', (t) => {
    t.integer('repeats').notNullable().defaultTo(0);
    t.integer('repeat_attempts').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('alert_deliveries', (t) => {
    t.dropColumn('repeats');
    t.dropColumn('repeat_attempts');
  });
  await knex.schema.alterTable('alerts', (t) => {
    t.dropIndex(['incident_key'], 'alerts_incident_key');
    t.dropColumn('incident_key');
    t.dropColumn('cause');
  });
  await knex.schema.alterTable('channels', (t) => {
    t.dropColumn('options');
    t.dropColumn('repeat_every');
    t.dropColumn('escalate_after');
  });
}
