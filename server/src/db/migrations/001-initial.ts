import type { Knex } from 'knex';

// Times are epoch milliseconds (UTC) in bigint columns; durations in milliseconds.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('settings', (t) => {
    t.string('key', 64).primary();
    t.text('value').notNullable();
  });
  await knex.schema.createTable('accounts', (t) => {
    t.string('id', 32).primary();
    t.string('plan', 16).notNullable();
    t.bigInteger('created_at').notNullable();
  });
  await knex.schema.createTable('users', (t) => {
    t.string('id', 32).primary();
    t.string('account_id', 32).notNullable().references('accounts.id').onDelete('CASCADE');
    t.string('email', 254).notNullable().unique();
    t.text('password_hash').notNullable();
    t.bigInteger('created_at').notNullable();
    t.index(['account_id']);
  });
  await knex.schema.createTable('api_keys', (t) => {
    t.string('id', 32).primary();
    t.string('account_id', 32).notNullable().references('accounts.id').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.string('prefix', 16).notNullable();
    t.string('key_hash', 64).notNullable().unique();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('revoked_at').nullable();
    t.index(['account_id']);
  });
  await knex.schema.createTable('login_attempts', (t) => {
    // SHA-256 of email and client address: a stranger's failures never lock the owner out from elsewhere.
    t.string('key', 64).primary();
    t.integer('attempts').notNullable();
    t.bigInteger('window_started_at').notNullable();
    t.index(['window_started_at']);
  });
  await knex.schema.createTable('monitors', (t) => {
    t.string('id', 32).primary();
    t.string('account_id', 32).notNullable().references('accounts.id').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.bigInteger('created_at').notNullable();
    // When the monitor last opened a run: the per-plan rate limit is a conditional update of this column.
    t.bigInteger('last_opened_at').nullable();
    t.index(['account_id', 'created_at']);
  });
  await knex.schema.createTable('runs', (t) => {
    t.string('monitor_id', 32).notNullable().references('monitors.id').onDelete('CASCADE');
    t.string('id', 64).notNullable();
    t.string('account_id', 32).notNullable();
    t.string('status', 16).notNullable();
    t.bigInteger('started_at').notNullable();
    t.bigInteger('finished_at').nullable();
    t.bigInteger('duration_ms').nullable();
    t.text('meta').notNullable();
    t.text('error_message').nullable();
    t.boolean('has_log').notNullable();
    t.primary(['monitor_id', 'id']);
    t.index(['monitor_id', 'started_at']);
  });
  // Results without a runId look for the monitor's latest running run: a partial index stays small
  // (only open runs) and costs nothing to maintain on pings that open and finish a run at once.
  await knex.schema.raw("create index runs_open on runs (monitor_id, started_at) where status = 'running'");
  await knex.schema.createTable('run_logs', (t) => {
    t.string('monitor_id', 32).notNullable();
    t.string('run_id', 64).notNullable();
    t.text('content').notNullable();
    t.primary(['monitor_id', 'run_id']);
    t.foreign(['monitor_id', 'run_id']).references(['monitor_id', 'id']).inTable('runs').onDelete('CASCADE');
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['run_logs', 'runs', 'monitors', 'login_attempts', 'api_keys', 'users', 'accounts', 'settings']) {
    await knex.schema.dropTableIfExists(table);
  }
}
