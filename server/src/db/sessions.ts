import type { Role } from '@pingmon/sdk/wire';
import type { Sql } from './sql.js';

/** A signed-in user's session: the user token names it, and it is live until it ends or expires. */
export interface SessionRecord {
  sessionId: string;
  userId: string;
  accountId: string;
  createdAt: number;
  expiresAt: number;
}

/** What a user request finds behind its token's session: while live, the user's role as it is now. */
export type SessionState = { kind: 'live'; role: Role } | { kind: 'ended' } | { kind: 'user_gone' };

/**
 * Opens a session for the user whose password hash is still `passwordHash`, the one the login checked: false (and
 * no session) when a new password was set meanwhile. Sessions expired by its start go at the same time, so the table
 * holds little more than live ones.
 */
export async function insertSession(sql: Sql, session: SessionRecord, passwordHash: string): Promise<boolean> {
  await sql.changes('delete from sessions where expires_at <= ?', [session.createdAt]);
  // FOR SHARE waits for a password change in progress and then reads its new hash (SQLite has one writer anyway).
  const insert = `insert into sessions (id, user_id, account_id, created_at, expires_at, ended_at)
     select ?, u.id, u.account_id, ?, ?, null from users u
     where u.id = ? and u.account_id = ? and u.password_hash = ?`;
  const inserted = await sql.changes(sql.locking(insert, 'share'), [
    session.sessionId,
    session.createdAt,
    session.expiresAt,
    session.userId,
    session.accountId,
    passwordHash,
  ]);
  return inserted > 0;
}

/**
 * One query per user request: the user and its account must still exist (joined, not left to ON DELETE CASCADE,
 * which a SQLite connection without `foreign_keys = ON` does not apply) and the session must not have ended. The
 * role is read here too, so that a new role applies from the user's next request.
 */
export async function findSessionState(
  sql: Sql,
  user: { userId: string; accountId: string; sessionId: string },
): Promise<SessionState> {
  const [row] = await sql.rows<{ session_id: string | null; ended_at: number | string | null; role: Role }>(
    `select s.id as session_id, s.ended_at, u.role
     from users u join accounts a on a.id = u.account_id
     left join sessions s on s.id = ? and s.user_id = u.id
     where u.id = ? and u.account_id = ?`,
    [user.sessionId, user.userId, user.accountId],
  );
  if (!row) return { kind: 'user_gone' };
  return row.session_id !== null && row.ended_at === null ? { kind: 'live', role: row.role } : { kind: 'ended' };
}

/** Ends one session; true when it was live. */
export async function endSession(sql: Sql, sessionId: string, now: number): Promise<boolean> {
  return (
    (await sql.changes('update sessions set ended_at = ? where id = ? and ended_at is null', [now, sessionId])) > 0
  );
}

/** Ends every live session of a user: a new password signs them out everywhere. */
export async function endUserSessions(sql: Sql, userId: string, now: number): Promise<number> {
  return sql.changes('update sessions set ended_at = ? where user_id = ? and ended_at is null', [now, userId]);
}
