import type { Role } from '@pingmon/sdk/wire';
import { ms } from './index.js';
import type { Sql, TransactionSql } from './sql.js';

interface UserRow {
  id: string;
  account_id: string;
  email: string;
  password_hash: string;
  role: Role;
  created_at: number | string;
}

/** A user as the server holds it, password hash included; `createdAt` in epoch milliseconds. */
export interface UserRecord {
  userId: string;
  accountId: string;
  email: string;
  passwordHash: string;
  role: Role;
  createdAt: number;
}

const COLUMNS = 'u.id, u.account_id, u.email, u.password_hash, u.role, u.created_at';

function toRecord(row: UserRow): UserRecord {
  return {
    userId: row.id,
    accountId: row.account_id,
    email: row.email,
    passwordHash: row.password_hash,
    role: row.role,
    createdAt: ms(row.created_at),
  };
}

export async function insertUser(sql: Sql, user: UserRecord): Promise<void> {
  await sql.changes(
    'insert into users (id, account_id, email, password_hash, role, created_at) values (?, ?, ?, ?, ?, ?)',
    [user.userId, user.accountId, user.email, user.passwordHash, user.role, user.createdAt],
  );
}

/** Emails are stored and looked up in lower case. */
export async function findUserByEmail(sql: Sql, email: string): Promise<UserRecord | undefined> {
  const [row] = await sql.rows<UserRow>(`select ${COLUMNS} from users u where u.email = ?`, [email.toLowerCase()]);
  return row && toRecord(row);
}

/**
 * The user, while both it and its account exist. The join does not lean on ON DELETE CASCADE, which a
 * SQLite connection without `foreign_keys = ON` (a hand-run sqlite3 shell) does not apply.
 */
export async function findUser(sql: Sql, accountId: string, userId: string): Promise<UserRecord | undefined> {
  const [row] = await sql.rows<UserRow>(
    `select ${COLUMNS} from users u join accounts a on a.id = u.account_id where u.id = ? and u.account_id = ?`,
    [userId, accountId],
  );
  return row && toRecord(row);
}

/** Every user of the account, oldest first: an account has a team, not thousands. */
export async function listUsers(sql: Sql, accountId: string): Promise<UserRecord[]> {
  const rows = await sql.rows<UserRow>(
    `select ${COLUMNS} from users u where u.account_id = ? order by u.created_at, u.id`,
    [accountId],
  );
  return rows.map(toRecord);
}

/**
 * The ids of the account's owners, their rows held until the transaction ends (PostgreSQL): changes of roles and
 * removals in one account take turns, so that two owners demoting each other at once cannot leave it without one.
 */
export async function lockOwners(sql: TransactionSql, accountId: string): Promise<string[]> {
  const rows = await sql.rows<{ id: string }>(
    sql.locking("select id from users where account_id = ? and role = 'owner'", 'update'),
    [accountId],
  );
  return rows.map((row) => row.id);
}

/** Sets a user's role; false when the account has no such user. */
export async function updateUserRole(sql: Sql, accountId: string, userId: string, role: Role): Promise<boolean> {
  return (
    (await sql.changes('update users set role = ? where id = ? and account_id = ?', [role, userId, accountId])) > 0
  );
}

/** Deletes a user and their sessions (not left to ON DELETE CASCADE, see findUser); false when there was none. */
export async function deleteUser(sql: TransactionSql, accountId: string, userId: string): Promise<boolean> {
  await sql.changes('delete from sessions where user_id = ? and account_id = ?', [userId, accountId]);
  return (await sql.changes('delete from users where id = ? and account_id = ?', [userId, accountId])) > 0;
}

/** Sets a user's password hash; false when the user does not exist. */
export async function updatePasswordHash(sql: Sql, userId: string, passwordHash: string): Promise<boolean> {
  return (await sql.changes('update users set password_hash = ? where id = ?', [passwordHash, userId])) > 0;
}

/** The provider identity a user is linked to (`issuer subject`); null until their first sign-in through it. */
export async function findUserIdentity(sql: Sql, userId: string): Promise<string | null> {
  const [row] = await sql.rows<{ identity: string | null }>('select identity from users where id = ?', [userId]);
  return row?.identity ?? null;
}

export async function setUserIdentity(sql: Sql, userId: string, identity: string): Promise<void> {
  await sql.changes('update users set identity = ? where id = ?', [identity, userId]);
}
