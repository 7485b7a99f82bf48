import type { Knex } from 'knex';

// A user token names its session, and each user request checks it is still live: signing out, a new password or a
// removed user end tokens at once, not when they expire (docs/api.md#sessions).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sessions', (t) => {
    t.string('id', 32).primary();
    t.string('user_id', 32).notNullable().references('users.id').onDelete('CASCADE');
    t.string('account_id', 32).notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('ended_at').nullable();
    t.index(['user_id']);
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('sessions');
}
