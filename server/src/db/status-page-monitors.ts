import type { Sql, TransactionSql } from './sql.js';
import { marks } from './sql.js';

// The monitors an account's status page shows (public monitors), in the order its owner chose.

/** The ids of the account's public monitors, in their order on the page. */
export async function listPublicMonitorIds(sql: Sql, accountId: string): Promise<string[]> {
  const rows = await sql.rows<{ monitor_id: string }>(
    'select monitor_id from status_page_monitors where account_id = ? order by position',
    [accountId],
  );
  return rows.map((row) => row.monitor_id);
}

/** The id of the account's public monitor of slug `slug`; undefined for a private or unknown one alike. */
export async function findPublicMonitorId(sql: Sql, accountId: string, slug: string): Promise<string | undefined> {
  const [row] = await sql.rows<{ id: string }>(
    'select m.id from monitors m join status_page_monitors p on p.monitor_id = m.id and p.account_id = m.account_id ' +
      'where m.account_id = ? and m.slug = ?',
    [accountId, slug],
  );
  return row?.id;
}

/** Makes `monitorIds` (the account's, checked before) its public monitors, in that order, and no other. */
export async function replacePublicMonitors(
  sql: TransactionSql,
  accountId: string,
  monitorIds: readonly string[],
): Promise<void> {
  await sql.changes('delete from status_page_monitors where account_id = ?', [accountId]);
  if (monitorIds.length === 0) return;
  await sql.changes(
    `insert into status_page_monitors (account_id, monitor_id, position) values ${monitorIds
      .map(() => `(${marks([1, 2, 3])})`)
      .join(', ')}`,
    monitorIds.flatMap((monitorId, position) => [accountId, monitorId, position]),
  );
}
