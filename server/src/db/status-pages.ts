import { ms } from './index.js';
import type { Sql, TransactionSql } from './sql.js';

/** How an account's status page reads (its address is the account's slug, db/accounts.ts). */
export interface StatusPageRecord {
  accountId: string;
  /** Its heading; null: the account's slug. */
  title: string | null;
  /** Whether a public monitor's failed last run shows its error message. */
  showErrorMessages: boolean;
  updatedAt: number;
}

interface StatusPageRow {
  account_id: string;
  title: string | null;
  show_error_messages: boolean | number;
  updated_at: number | string;
}

export async function findStatusPage(sql: Sql, accountId: string): Promise<StatusPageRecord | undefined> {
  const [row] = await sql.rows<StatusPageRow>(
    'select account_id, title, show_error_messages, updated_at from status_pages where account_id = ?',
    [accountId],
  );
  return (
    row && {
      accountId: row.account_id,
      title: row.title,
      showErrorMessages: Boolean(row.show_error_messages),
      updatedAt: ms(row.updated_at),
    }
  );
}

export async function saveStatusPage(sql: TransactionSql, page: StatusPageRecord): Promise<void> {
  await sql.changes(
    'insert into status_pages (account_id, title, show_error_messages, updated_at) values (?, ?, ?, ?) ' +
      'on conflict (account_id) do update set title = excluded.title, ' +
      'show_error_messages = excluded.show_error_messages, updated_at = excluded.updated_at',
    [page.accountId, page.title, page.showErrorMessages, page.updatedAt],
  );
}
