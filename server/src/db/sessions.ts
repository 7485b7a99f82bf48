import type { Role } from '@pingmon/sdk/wire';
import { ms } from './index.js';
import type { Sql } from './sql.js';

/** A signed-in user's session: the user token names it, and it is live until it ends or expires. */
export interface SessionRecord {
  sessionId: string;
  userId: string;
  accountId: string;
  createdAt: number;
  expiresAt: number;
  /** Who signed in: the client's address and User-Agent at sign-in (null when it sent none). */
  address: string | null;
  userAgent: string | null;
}

/** A live session as its user sees it listed; `lastUsedAt` is kept to the minute. */
export interface LiveSession extends SessionRecord {
  lastUsedAt: number | null;
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
  const insert = `insert into sessions (id, user_id, account_id, created_at, expires_at, ended_at, address, user_agent)
     select ?, u.id, u.account_id, ?, ?, null, ?, ? from users u
     where u.id = ? and u.account_id = ? and u.password_hash = ?`;
  const inserted = await sql.changes(sql.locking(insert, 'share'), [
    session.sessionId,
    session.createdAt,
    session.expiresAt,
    session.address?.slice(0, 64) ?? null,
    session.userAgent?.slice(0, 256) ?? null,
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

/** The user a live session is of: who signs out (the audit trail, audit.ts). */
export async function findLiveSession(
  sql: Sql,
  sessionId: string,
): Promise<{ userId: string; accountId: string } | undefined> {
  const [row] = await sql.rows<{ user_id: string; account_id: string }>(
    'select user_id, account_id from sessions where id = ? and ended_at is null',
    [sessionId],
  );
  return row && { userId: row.user_id, accountId: row.account_id };
}

interface SessionRow {
  id: string;
  user_id: string;
  account_id: string;
  created_at: number | string;
  expires_at: number | string;
  last_used_at: number | string | null;
  address: string | null;
  user_agent: string | null;
}

/** The user's live sessions, newest first. */
export async function listLiveSessions(
  sql: Sql,
  user: { accountId: string; userId: string },
  now: number,
): Promise<LiveSession[]> {
  const rows = await sql.rows<SessionRow>(
    `select id, user_id, account_id, created_at, expires_at, last_used_at, address, user_agent from sessions
     where account_id = ? and user_id = ? and ended_at is null and expires_at > ? order by created_at desc, id desc`,
    [user.accountId, user.userId, now],
  );
  return rows.map((row) => ({
    sessionId: row.id,
    userId: row.user_id,
    accountId: row.account_id,
    createdAt: ms(row.created_at),
    expiresAt: ms(row.expires_at),
    lastUsedAt: ms(row.last_used_at),
    address: row.address,
    userAgent: row.user_agent,
  }));
}

/** Ends one live session of the user's own; false when they have no such session (another's, ended, expired). */
export async function endOwnSession(
  sql: Sql,
  user: { accountId: string; userId: string; sessionId: string },
  now: number,
): Promise<boolean> {
  const changed = await sql.changes(
    `update sessions set ended_at = ?
     where id = ? and user_id = ? and account_id = ? and ended_at is null and expires_at > ?`,
    [now, user.sessionId, user.userId, user.accountId, now],
  );
  return changed > 0;
}

/** Ends every live session of the user but `keep`: "sign out everywhere else". The number ended. */
export async function endOtherSessions(
  sql: Sql,
  user: { accountId: string; userId: string },
  keep: string,
  now: number,
): Promise<number> {
  return sql.changes(
    `update sessions set ended_at = ?
     where user_id = ? and account_id = ? and id <> ? and ended_at is null and expires_at > ?`,
    [now, user.userId, user.accountId, keep, now],
  );
}

/** Records that the session was used at `now`, unless it was after `since` already (several servers race here). */
export async function touchSession(sql: Sql, sessionId: string, now: number, since: number): Promise<void> {
  await sql.changes(
    'update sessions set last_used_at = ? where id = ? and (last_used_at is null or last_used_at < ?)',
    [now, sessionId, since],
  );
}
