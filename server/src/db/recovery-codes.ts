import type { Sql } from './sql.js';

/** Replaces the user's recovery codes with these (their hashes: the codes themselves are shown once). */
export async function replaceRecoveryCodes(
  sql: Sql,
  userId: string,
  codeHashes: readonly string[],
  now: number,
): Promise<void> {
  await sql.changes('delete from recovery_codes where user_id = ?', [userId]);
  for (const hash of codeHashes)
    await sql.changes('insert into recovery_codes (user_id, code_hash, created_at, used_at) values (?, ?, ?, null)', [
      userId,
      hash,
      now,
    ]);
}

/** Uses one recovery code: true the first time, false when it is not the user's or was used already. */
export async function useRecoveryCode(sql: Sql, userId: string, codeHash: string, now: number): Promise<boolean> {
  const changed = await sql.changes(
    'update recovery_codes set used_at = ? where user_id = ? and code_hash = ? and used_at is null',
    [now, userId, codeHash],
  );
  return changed > 0;
}

export async function countUnusedRecoveryCodes(sql: Sql, userId: string): Promise<number> {
  const [row] = await sql.rows<{ n: number | string }>(
    'select count(*) as n from recovery_codes where user_id = ? and used_at is null',
    [userId],
  );
  return Number(row?.n ?? 0);
}

export async function deleteRecoveryCodes(sql: Sql, userId: string): Promise<void> {
  await sql.changes('delete from recovery_codes where user_id = ?', [userId]);
}
