import type { Knex } from 'knex';

// Schedules, incidents and the sweeper (docs/schedules.md). The sweeper reads only indexed deadline columns:
// monitors.missed_at (an expected opening's deadline), monitors.remind_at (a reminder while down) and
// runs.timeout_at (a running run's maxRuntime).
// Not in knex's own transaction: on SQLite, foreign keys must be switched off (outside any transaction) while
// the alerts table is rebuilt, or dropping the old table would delete every delivery with it.
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  const sqlite = knex.client.config.client === 'better-sqlite3';
  if (sqlite) await knex.raw('pragma foreign_keys = off');
  try {
    await knex.transaction(async (trx) => {
      await addColumns(trx);
      await (sqlite ? rebuildSqliteAlerts(trx) : trx.schema.alterTable('alerts', alertColumns));
    });
  } finally {
    if (sqlite) await knex.raw('pragma foreign_keys = on');
  }
}

/** A missed or still_down alert has no run; a missed alert names the expected opening it is about. */
function alertColumns(t: Knex.AlterTableBuilder): void {
  t.string('run_id', 64).nullable().alter();
  t.bigInteger('expected_at').nullable();
}

/** SQLite cannot drop a NOT NULL: the table is built again (SQLite's documented 12-step way), rows and indexes kept. */
async function rebuildSqliteAlerts(trx: Knex.Transaction): Promise<void> {
  await trx.raw(
    'create table alerts_new (id varchar(32) primary key, account_id varchar(32) not null, ' +
      'monitor_id varchar(32) not null, run_id varchar(64), event varchar(16) not null, status varchar(16) not null, ' +
      'error_message text null, log_snippet text null, meta text not null, matched_rules text not null, ' +
      'created_at bigint not null, expected_at bigint null, ' +
      'foreign key (monitor_id, run_id) references runs (monitor_id, id) on delete cascade)',
  );
  await trx.raw(
    'insert into alerts_new (id, account_id, monitor_id, run_id, event, status, error_message, log_snippet, meta, ' +
      'matched_rules, created_at) select id, account_id, monitor_id, run_id, event, status, error_message, ' +
      'log_snippet, meta, matched_rules, created_at from alerts',
  );
  await trx.raw('drop table alerts');
  await trx.raw('alter table alerts_new rename to alerts');
  await trx.raw('create unique index alerts_monitor_id_run_id_event_unique on alerts (monitor_id, run_id, event)');
  await trx.raw('create index alerts_account_id_created_at_index on alerts (account_id, created_at)');
  await trx.raw('create index alerts_monitor_id_created_at_index on alerts (monitor_id, created_at)');
  const broken = (await trx.raw('pragma foreign_key_check')) as unknown[];
  if (broken.length > 0) throw new Error(`rebuilding the alerts table broke ${broken.length} foreign key(s)`);
}

async function addColumns(knex: Knex.Transaction): Promise<void> {
  await knex.schema.alterTable('monitors', (t) => {
    // JSON: {"cron", "timezone"} or {"every"}; null: not scheduled.
    t.text('schedule').nullable();
    t.integer('start_grace').notNullable().defaultTo(300);
    t.integer('max_runtime').nullable();
    t.integer('failure_threshold').notNullable().defaultTo(1);
    t.integer('recovery_threshold').notNullable().defaultTo(1);
    t.integer('renotify_after').nullable();
    t.boolean('paused').notNullable().defaultTo(false);
    // The next expected run opening, and when it counts as missed (expected + grace, or later after an outage).
    t.bigInteger('next_expected_at').nullable();
    t.bigInteger('missed_at').nullable();
    t.integer('fail_streak').notNullable().defaultTo(0);
    t.integer('ok_streak').notNullable().defaultTo(0);
    t.bigInteger('incident_opened_at').nullable();
    t.string('incident_cause', 16).nullable();
    t.bigInteger('remind_at').nullable();
  });
  await knex.schema.raw('create index monitors_missed on monitors (missed_at) where missed_at is not null');
  await knex.schema.raw('create index monitors_remind on monitors (remind_at) where remind_at is not null');
  await knex.schema.alterTable('runs', (t) => {
    t.bigInteger('timeout_at').nullable();
  });
  await knex.schema.raw(
    "create index runs_timeout on runs (timeout_at) where status = 'running' and timeout_at is not null",
  );
}

/** Back to 003, except that alerts.run_id stays nullable (its missed alerts would not fit otherwise). */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('alerts', (t) => t.dropColumn('expected_at'));
  await knex.schema.raw('drop index runs_timeout');
  await knex.schema.alterTable('runs', (t) => t.dropColumn('timeout_at'));
  await knex.schema.raw('drop index monitors_remind');
  await knex.schema.raw('drop index monitors_missed');
  await knex.schema.alterTable('monitors', (t) => {
    for (const column of [
      'remind_at',
      'incident_cause',
      'incident_opened_at',
      'ok_streak',
      'fail_streak',
      'missed_at',
      'next_expected_at',
      'paused',
      'renotify_after',
      'recovery_threshold',
      'failure_threshold',
      'max_runtime',
      'start_grace',
      'schedule',
    ])
      t.dropColumn(column);
  });
}
