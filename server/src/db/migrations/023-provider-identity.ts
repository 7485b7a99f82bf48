import type { Knex } from 'knex';

// Sign-in through an identity provider (docs/configuration.md#single-sign-on): a user's first sign-in there links
// them to the provider's identity (issuer and subject); later sign-ins with their address must come from it, so an
// address the provider gives to someone else later does not open their user.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => t.string('identity', 1024).nullable());
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => t.dropColumn('identity'));
}
