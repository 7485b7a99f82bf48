import type { Knex } from 'knex';

// The account's public status page and badges (docs/dashboard.md#status-page): the account gains a slug, its name in
// the public addresses /status/<slug> and /badge/<slug>/…, unique among accounts (null: no page). The page's title
// and whether it shows error messages are a row of status_pages; the monitors it shows, in their order, rows of
// status_page_monitors, gone with their monitor.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('accounts', (t) => {
    t.string('slug', 64).nullable();
  });
  await knex.schema.raw('create unique index accounts_slug on accounts (slug)');
  await knex.schema.createTable('status_pages', (t) => {
    t.string('account_id', 32).primary().references('accounts.id').onDelete('CASCADE');
    t.string('title', 200).nullable();
    t.boolean('show_error_messages').notNullable().defaultTo(false);
    t.bigInteger('updated_at').notNullable();
  });
  await knex.schema.createTable('status_page_monitors', (t) => {
    t.string('account_id', 32).notNullable().references('accounts.id').onDelete('CASCADE');
    t.string('monitor_id', 32).notNullable().references('monitors.id').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.primary(['account_id', 'monitor_id']);
    // A monitor's deletion finds its row by this.
    t.index(['monitor_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('status_page_monitors');
  await knex.schema.dropTable('status_pages');
  await knex.schema.raw('drop index accounts_slug');
  await knex.schema.alterTable('accounts', (t) => t.dropColumn('slug'));
}
