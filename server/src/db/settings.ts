import type { Knex } from 'knex';

/** The stored value of `key`, storing `make()` first if there is none; every process agrees on the winner. */
export async function findOrInsertSetting(knex: Knex, key: string, make: () => string): Promise<string> {
  await knex('settings').insert({ key, value: make() }).onConflict('key').ignore();
  const row = await knex('settings').where({ key }).first('value');
  return (row as { value: string }).value;
}
