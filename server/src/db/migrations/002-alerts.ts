import type { Knex } from 'knex';

// Alerting (DESIGN §8): rules, channels, and a durable outbox of alerts and their deliveries.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('monitors', (t) => {
    // Read by the ping's monitor lock: a monitor without rules costs its success pings no rule query.
    t.integer('rule_count').notNullable().defaultTo(0);
  });
  await knex.schema.alterTable('runs', (t) => {
    // JSON array of the rules a success matched (a silent failure); null when none did.
    t.text('matched_rules').nullable();
  });
  await knex.schema.createTable('rules', (t) => {
    t.string('id', 32).primary();
    t.string('account_id', 32).notNullable();
    t.string('monitor_id', 32).notNullable().references('monitors.id').onDelete('CASCADE');
    t.string('metric', 64).notNullable();
    t.string('op', 8).notNullable();
    t.double('value').notNullable();
    t.bigInteger('created_at').notNullable();
    t.index(['monitor_id', 'created_at']);
  });
  await knex.schema.createTable('channels', (t) => {
    t.string('id', 32).primary();
    t.string('account_id', 32).notNullable().references('accounts.id').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.string('type', 16).notNullable();
    t.text('url').notNullable();
    t.text('secret').nullable();
    // false: every monitor of the account; true: only those in channel_monitors.
    t.boolean('restricted').notNullable();
    t.boolean('enabled').notNullable();
    t.bigInteger('created_at').notNullable();
    t.index(['account_id', 'created_at']);
  });
  await knex.schema.createTable('channel_monitors', (t) => {
    t.string('channel_id', 32).notNullable().references('channels.id').onDelete('CASCADE');
    t.string('monitor_id', 32).notNullable().references('monitors.id').onDelete('CASCADE');
    t.primary(['channel_id', 'monitor_id']);
    t.index(['monitor_id']);
  });
  await knex.schema.createTable('alerts', (t) => {
    t.string('id', 32).primary();
    t.string('account_id', 32).notNullable();
    t.string('monitor_id', 32).notNullable();
    t.string('run_id', 64).notNullable();
    t.string('event', 16).notNullable();
    t.string('status', 16).notNullable();
    t.text('error_message').nullable();
    t.text('log_snippet').nullable();
    t.text('meta').notNullable();
    t.text('matched_rules').notNullable();
    t.bigInteger('created_at').notNullable();
    // One alert per run and event: a replayed ping can never raise a second one.
    t.unique(['monitor_id', 'run_id', 'event']);
    t.foreign(['monitor_id', 'run_id']).references(['monitor_id', 'id']).inTable('runs').onDelete('CASCADE');
    t.index(['account_id', 'created_at']);
    t.index(['monitor_id', 'created_at']);
  });
  await knex.schema.createTable('alert_deliveries', (t) => {
    t.string('alert_id', 32).notNullable().references('alerts.id').onDelete('CASCADE');
    t.string('channel_id', 32).notNullable().references('channels.id').onDelete('CASCADE');
    t.string('state', 16).notNullable();
    // Attempts started: counted when claimed, so a delivery that crashes servers still runs out of attempts.
    t.integer('attempts').notNullable();
    t.bigInteger('next_attempt_at').notNullable();
    // The lease of the process sending it; another process may take it over once it has passed.
    t.bigInteger('claimed_until').nullable();
    t.string('claim_token', 32).nullable();
    t.bigInteger('delivered_at').nullable();
    t.text('last_error').nullable();
    t.primary(['alert_id', 'channel_id']);
    t.index(['channel_id']);
  });
  // The outbox the workers poll: only pending deliveries are in it.
  await knex.schema.raw(
    "create index alert_deliveries_due on alert_deliveries (next_attempt_at) where state = 'pending'",
  );
  await knex.schema.createTable('delivery_attempts', (t) => {
    t.string('alert_id', 32).notNullable();
    t.string('channel_id', 32).notNullable();
    t.integer('attempt').notNullable();
    t.bigInteger('attempted_at').notNullable();
    t.integer('duration_ms').notNullable();
    t.integer('status_code').nullable();
    t.text('error').nullable();
    t.primary(['alert_id', 'channel_id', 'attempt']);
    t.foreign(['alert_id', 'channel_id'])
      .references(['alert_id', 'channel_id'])
      .inTable('alert_deliveries')
      .onDelete('CASCADE');
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['delivery_attempts', 'alert_deliveries', 'alerts', 'channel_monitors', 'channels', 'rules']) {
    await knex.schema.dropTableIfExists(table);
  }
  await knex.schema.alterTable('runs', (t) => t.dropColumn('matched_rules'));
  await knex.schema.alterTable('monitors', (t) => t.dropColumn('rule_count'));
}
