import type { Knex } from 'knex';

// API keys gain a scope (docs/api.md#api-keys): every key made before scopes pings, as it always did. A key may be
// limited to some monitors (JSON list of their ids; null: every monitor of the account), and shows when it was
// last used (written at most once a minute per key, never by a ping's own statement).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (t) => {
    t.string('scope', 8).notNullable().defaultTo('ping');
    t.text('monitor_ids').nullable();
    t.bigInteger('last_used_at').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (t) => {
    t.dropColumn('last_used_at');
    t.dropColumn('monitor_ids');
    t.dropColumn('scope');
  });
}
