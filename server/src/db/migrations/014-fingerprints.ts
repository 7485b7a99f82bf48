import type { Knex } from 'knex';

// Failure fingerprints (DESIGN §16, docs/alerts.md): a failed run's normalised message and log end, hashed. The
// index answers "when was this failure first seen, and how often" per monitor; an alert says how many failed runs
// in a row before it had the same one (`repeats`).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('runs', (t) => {
    t.string('fingerprint', 16).nullable();
    t.index(['monitor_id', 'fingerprint', 'started_at'], 'runs_fingerprint');
  });
  await knex.schema.alterTable('alerts', (t) => {
    t.integer('repeats').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('alerts', (t) => {
    t.dropColumn('repeats');
  });
  await knex.schema.alterTable('runs', (t) => {
    t.dropIndex(['monitor_id', 'fingerprint', 'started_at'], 'runs_fingerprint');
    t.dropColumn('fingerprint');
  });
}
