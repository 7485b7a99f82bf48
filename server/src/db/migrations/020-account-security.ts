import type { Knex } from 'knex';

// A user's own account security (docs/api.md#sessions, #second-factor): sessions say where they were opened and
// when they were last used (written at most once a minute), and a user may add a TOTP second factor with
// single-use recovery codes, stored hashed.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sessions', (t) => {
    t.bigInteger('last_used_at').nullable();
    t.string('address', 64).nullable();
    t.string('user_agent', 256).nullable();
  });
  await knex.schema.createTable('second_factors', (t) => {
    t.string('user_id', 32).primary().references('users.id').onDelete('CASCADE');
    t.string('account_id', 32).notNullable();
    // Kept as it is (base32): the server computes the codes from it, as the authenticator app does.
    t.string('secret', 64).notNullable();
    t.bigInteger('created_at').notNullable();
    // Null while enrolment waits for its first code: until then the login asks for none.
    t.bigInteger('enabled_at').nullable();
    // The time step of the last code accepted: a code of that step or an earlier one is a replay.
    t.bigInteger('last_step').nullable();
  });
  await knex.schema.createTable('recovery_codes', (t) => {
    t.string('user_id', 32).notNullable().references('users.id').onDelete('CASCADE');
    t.string('code_hash', 64).notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('used_at').nullable();
    t.primary(['user_id', 'code_hash']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('recovery_codes');
  await knex.schema.dropTable('second_factors');
  await knex.schema.alterTable('sessions', (t) => {
    t.dropColumn('user_agent');
    t.dropColumn('address');
    t.dropColumn('last_used_at');
  });
}
