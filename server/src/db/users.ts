import { ms } from './index.js';
import type { Sql } from './sql.js';

interface UserRow {
  id: string;
  account_id: string;
  email: string;
  password_hash: string;
  created_at: number | string;
}

/** A user as the server holds it, password hash included; `createdAt` in epoch milliseconds. */
export interface UserRecord {
  userId: string;
  accountId: string;
  email: string;
  passwordHash: string;
  createdAt: number;
}

const COLUMNS = 'id, account_id, email, password_hash, created_at';

function toRecord(row: UserRow): UserRecord {
  return {
    userId: row.id,
    accountId: row.account_id,
    email: row.email,
    passwordHash: row.password_hash,
    createdAt: ms(row.created_at),
  };
}

export async function insertUser(sql: Sql, user: UserRecord): Promise<void> {
  await sql.changes('insert into users (id, account_id, email, password_hash, created_at) values (?, ?, ?, ?, ?)', [
    user.userId,
    user.accountId,
    user.email,
    user.passwordHash,
    user.createdAt,
  ]);
}

/** Emails are stored and looked up in lower case. */
export async function findUserByEmail(sql: Sql, email: string): Promise<UserRecord | undefined> {
  const [row] = await sql.rows<UserRow>(`select ${COLUMNS} from users where email = ?`, [email.toLowerCase()]);
  return row && toRecord(row);
}

/**
 * The user, while both it and its account exist. The join does not lean on ON DELETE CASCADE, which a
 * SQLite connection without `foreign_keys = ON` (a hand-run sqlite3 shell) does not apply.
 */
export async function findUser(sql: Sql, accountId: string, userId: string): Promise<UserRecord | undefined> {
  const [row] = await sql.rows<UserRow>(
    `select u.id, u.account_id, u.email, u.password_hash, u.created_at
     from users u join accounts a on a.id = u.account_id where u.id = ? and u.account_id = ?`,
    [userId, accountId],
  );
  return row && toRecord(row);
}

/** Sets a user's password hash; false when the user does not exist. */
export async function updatePasswordHash(sql: Sql, userId: string, passwordHash: string): Promise<boolean> {
  return (await sql.changes('update users set password_hash = ? where id = ?', [passwordHash, userId])) > 0;
}
