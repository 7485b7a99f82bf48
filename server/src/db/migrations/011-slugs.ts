import type { Knex } from 'knex';
import { numberedSlug, slugify } from '@pingmon/sdk/wire';

// Slugs (DESIGN §16): every monitor has one, unique in its account. Existing monitors get theirs from their names,
// oldest first, so the oldest of two alike keeps the plain one.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('monitors', (t) => {
    t.string('slug', 64).notNullable().defaultTo('');
  });
  const monitors = await knex('monitors')
    .select<Array<{ id: string; account_id: string; name: string }>>('id', 'account_id', 'name')
    .orderBy([{ column: 'created_at' }, { column: 'id' }]);
  const taken = new Set<string>();
  for (const monitor of monitors) {
    const base = slugify(monitor.name);
    let slug = base;
    for (let n = 2; taken.has(`${monitor.account_id} ${slug}`); n++) slug = numberedSlug(base, n);
    taken.add(`${monitor.account_id} ${slug}`);
    await knex('monitors').where('id', monitor.id).update({ slug });
  }
  await knex.schema.raw('create unique index monitors_account_slug on monitors (account_id, slug)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.raw('drop index monitors_account_slug');
  await knex.schema.alterTable('monitors', (t) => t.dropColumn('slug'));
}
