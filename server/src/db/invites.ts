import type { Role } from '@pingmon/sdk/wire';
import { ms } from './index.js';
import type { Sql } from './sql.js';

/** An invite to join an account; times in epoch milliseconds. Its token is only ever held as a hash. */
export interface InviteRecord {
  inviteId: string;
  accountId: string;
  email: string;
  role: Role;
  invitedBy: string | null;
  createdAt: number;
  expiresAt: number;
  acceptedAt: number | null;
  revokedAt: number | null;
}

interface InviteRow {
  id: string;
  account_id: string;
  email: string;
  role: Role;
  invited_by: string | null;
  created_at: number | string;
  expires_at: number | string;
  accepted_at: number | string | null;
  revoked_at: number | string | null;
}

const COLUMNS = 'id, account_id, email, role, invited_by, created_at, expires_at, accepted_at, revoked_at';

function toRecord(row: InviteRow): InviteRecord {
  return {
    inviteId: row.id,
    accountId: row.account_id,
    email: row.email,
    role: row.role,
    invitedBy: row.invited_by,
    createdAt: ms(row.created_at),
    expiresAt: ms(row.expires_at),
    acceptedAt: ms(row.accepted_at),
    revokedAt: ms(row.revoked_at),
  };
}

export async function insertInvite(
  sql: Sql,
  invite: Omit<InviteRecord, 'acceptedAt' | 'revokedAt'> & { tokenHash: string },
): Promise<void> {
  await sql.changes(
    'insert into invites (id, account_id, email, role, token_hash, invited_by, created_at, expires_at) ' +
      'values (?, ?, ?, ?, ?, ?, ?, ?)',
    [
      invite.inviteId,
      invite.accountId,
      invite.email,
      invite.role,
      invite.tokenHash,
      invite.invitedBy,
      invite.createdAt,
      invite.expiresAt,
    ],
  );
}

/** The account's invites still open at `now` (neither accepted, revoked nor expired), newest first. */
export async function listPendingInvites(sql: Sql, accountId: string, now: number): Promise<InviteRecord[]> {
  const rows = await sql.rows<InviteRow>(
    `select ${COLUMNS} from invites where account_id = ? and accepted_at is null and revoked_at is null ` +
      'and expires_at > ? order by created_at desc, id desc',
    [accountId, now],
  );
  return rows.map(toRecord);
}

/** The invite of a link's token, whatever its state. */
export async function findInviteByToken(sql: Sql, tokenHash: string): Promise<InviteRecord | undefined> {
  const [row] = await sql.rows<InviteRow>(`select ${COLUMNS} from invites where token_hash = ?`, [tokenHash]);
  return row && toRecord(row);
}

/** Revokes an open invite; false when the account has no such invite still open. */
export async function revokeInvite(sql: Sql, accountId: string, inviteId: string, now: number): Promise<boolean> {
  const changed = await sql.changes(
    'update invites set revoked_at = ? where id = ? and account_id = ? and accepted_at is null and revoked_at is null',
    [now, inviteId, accountId],
  );
  return changed > 0;
}

/** Revokes the account's open invites of an address: a new invite replaces them. */
export async function revokeInvitesOf(sql: Sql, accountId: string, email: string, now: number): Promise<number> {
  return sql.changes(
    'update invites set revoked_at = ? ' +
      'where account_id = ? and email = ? and accepted_at is null and revoked_at is null',
    [now, accountId, email],
  );
}

/** Marks an invite used, if it is still open at `now`: of two acceptances at once, one wins. */
export async function markInviteAccepted(sql: Sql, inviteId: string, now: number): Promise<boolean> {
  const changed = await sql.changes(
    'update invites set accepted_at = ? where id = ? and accepted_at is null and revoked_at is null and expires_at > ?',
    [now, inviteId, now],
  );
  return changed > 0;
}

/** A removed user's invites name no inviter any more. */
export async function forgetInviter(sql: Sql, accountId: string, userId: string): Promise<void> {
  await sql.changes('update invites set invited_by = null where account_id = ? and invited_by = ?', [
    accountId,
    userId,
  ]);
}

/** The account's open invite of an address at `now`, if any (a new invite revokes older ones: one at most). */
export async function findOpenInviteOf(
  sql: Sql,
  accountId: string,
  email: string,
  now: number,
): Promise<InviteRecord | undefined> {
  const [row] = await sql.rows<InviteRow>(
    `select ${COLUMNS} from invites where account_id = ? and email = ? and accepted_at is null ` +
      'and revoked_at is null and expires_at > ? order by created_at desc limit 1',
    [accountId, email, now],
  );
  return row && toRecord(row);
}
