import type { Knex } from 'knex';

// The failure fingerprints' index holds the runs that have one (failed runs): every success wrote an entry of its
// own there for nothing (about a sixth of a SQLite success ping's insert). Its queries all name a fingerprint.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.raw('drop index runs_fingerprint');
  await knex.schema.raw(
    'create index runs_fingerprint on runs (monitor_id, fingerprint, started_at) where fingerprint is not null',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.raw('drop index runs_fingerprint');
  await knex.schema.raw('create index runs_fingerprint on runs (monitor_id, fingerprint, started_at)');
}
