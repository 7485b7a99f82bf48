import type { Knex } from 'knex';

// Users of an account have roles (docs/api.md#roles): every user made before roles is an owner, as the one user of
// an account always was. New users come by invitation: a one-time link whose token is stored hashed, used once.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.string('role', 16).notNullable().defaultTo('owner');
  });
  await knex.schema.createTable('invites', (t) => {
    t.string('id', 32).primary();
    t.string('account_id', 32).notNullable().references('accounts.id').onDelete('CASCADE');
    t.string('email', 254).notNullable();
    t.string('role', 16).notNullable();
    // SHA-256 of the link's token: the link itself is shown to the inviter once, and mailed.
    t.string('token_hash', 64).notNullable().unique();
    t.string('invited_by', 32).nullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('accepted_at').nullable();
    t.bigInteger('revoked_at').nullable();
    t.index(['account_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('invites');
  await knex.schema.alterTable('users', (t) => t.dropColumn('role'));
}
