import type { Knex } from 'knex';

// Rules that look back (docs/alerts.md): a baseline (value × the median of the metric over the successes before)
// and a window (held in `at least` of the last `runs` successes). A success ping on a monitor with such a rule reads
// its latest successes, newest first: the partial index keeps that read as long as the rule asks, however many
// failed runs lie between.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('rules', (t) => {
    t.integer('baseline_runs').nullable();
    t.integer('baseline_min_runs').nullable();
    t.integer('window_runs').nullable();
    t.integer('window_at_least').nullable();
  });
  await knex.schema.raw("create index runs_successes on runs (monitor_id, started_at) where status = 'success'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.raw('drop index runs_successes');
  await knex.schema.alterTable('rules', (t) => {
    t.dropColumn('window_at_least');
    t.dropColumn('window_runs');
    t.dropColumn('baseline_min_runs');
    t.dropColumn('baseline_runs');
  });
}
