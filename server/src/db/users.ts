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

export async function findUser(sql: Sql, accountId: string, userId: string): Promise<UserRecord | undefined> {
  const [row] = await sql.rows<UserRow>(`select ${COLUMNS} from users where id = ? and account_id = ?`, [
    userId,
    accountId,
  ]);
  return row && toRecord(row);
}
