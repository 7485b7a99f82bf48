import type { Knex } from 'knex';

// The audit trail (docs/api.md#audit-trail): who changed what in an account, when and from where. Who and what are
// copied in (e-mail, key prefix, the target's name), so that an entry still reads after they are gone. Deleted with
// the account; pruned by age (PINGMON_RETENTION_AUDIT_DAYS).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('audit_entries', (t) => {
    t.string('id', 32).primary();
    t.string('account_id', 32).notNullable().references('accounts.id').onDelete('CASCADE');
    t.bigInteger('at').notNullable();
    t.string('actor_type', 16).notNullable();
    t.string('actor_id', 32).notNullable();
    t.string('actor_name', 254).notNullable();
    t.string('address', 64).notNullable();
    t.string('action', 64).notNullable();
    t.string('target_type', 32).nullable();
    t.string('target_id', 32).nullable();
    t.string('target_name', 254).nullable();
    // The monitor an entry is about (its own, or a rule's), for GET /audit?monitor=.
    t.string('monitor_id', 32).nullable();
    // JSON: the fields an edit changed, [{field, from, to}], secrets masked.
    t.text('changes').nullable();
    t.index(['account_id', 'at', 'id'], 'audit_entries_account_at');
    // Retention by age looks across every account.
    t.index(['at'], 'audit_entries_at');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('audit_entries');
}
