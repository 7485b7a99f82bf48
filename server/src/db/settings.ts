import type { Sql } from './sql.js';

/** The stored value of `key`, storing `make()` first if there is none; every process agrees on the winner. */
export async function findOrInsertSetting(sql: Sql, key: string, make: () => string): Promise<string> {
  await sql.changes('insert into settings (key, value) values (?, ?) on conflict (key) do nothing', [key, make()]);
  const [row] = await sql.rows<{ value: string }>('select value from settings where key = ?', [key]);
  return row!.value;
}
