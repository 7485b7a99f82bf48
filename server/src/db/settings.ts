import type { Sql, TransactionSql } from './sql.js';

/** The stored value of `key`, storing `make()` first if there is none; every process agrees on the winner. */
export async function findOrInsertSetting(sql: Sql, key: string, make: () => string): Promise<string> {
  await sql.changes('insert into settings (key, value) values (?, ?) on conflict (key) do nothing', [key, make()]);
  const [row] = await sql.rows<{ value: string }>('select value from settings where key = ?', [key]);
  return row!.value;
}

/** The sweeper's heartbeat: when a sweep last ran on this database, in any process. */
const HEARTBEAT = 'sweep_heartbeat';
/** The last time no pingmon server swept: JSON {"from", "to"} in epoch ms. */
const LAST_OUTAGE = 'last_outage';

/**
 * Moves the heartbeat to `now`. Answers the previous one when this call moved it (null on the first beat,
 * or when another process moved it meanwhile): of several servers, one sees each gap.
 */
export async function beat(sql: TransactionSql, now: number): Promise<number | null> {
  const [row] = await sql.rows<{ value: string }>('select value from settings where key = ?', [HEARTBEAT]);
  if (!row) {
    await sql.changes('insert into settings (key, value) values (?, ?) on conflict (key) do nothing', [
      HEARTBEAT,
      String(now),
    ]);
    return null;
  }
  const previous = Number(row.value);
  // Another server's clock may run ahead: the heartbeat never goes back.
  const next = String(Math.max(now, previous));
  const moved = await sql.changes('update settings set value = ? where key = ? and value = ?', [
    next,
    HEARTBEAT,
    row.value,
  ]);
  return moved === 1 ? previous : null;
}

export interface Outage {
  from: number;
  to: number;
}

export async function saveOutage(sql: TransactionSql, outage: Outage): Promise<void> {
  const value = JSON.stringify(outage);
  await sql.changes('insert into settings (key, value) values (?, ?) on conflict (key) do update set value = ?', [
    LAST_OUTAGE,
    value,
    value,
  ]);
}

export async function findOutage(sql: Sql): Promise<Outage | null> {
  const [row] = await sql.rows<{ value: string }>('select value from settings where key = ?', [LAST_OUTAGE]);
  return row ? (JSON.parse(row.value) as Outage) : null;
}
