import type { Role } from '@pingmon/sdk/wire';
import type { Database } from '../db/index.js';
import { forgetInviter } from '../db/invites.js';
import type { UserRecord } from '../db/users.js';
import { deleteUser, findUser, lockOwners, updateUserRole } from '../db/users.js';
import type { Refusal } from '../domain/access.js';
import { roleChangeRefusal } from '../domain/roles.js';

export type UserChange =
  | { kind: 'done'; user: UserRecord }
  | { kind: 'not_found' }
  | { kind: 'refused'; refusal: Refusal };

/**
 * Gives a user of the account the role `to`, or removes them (`to` = 'removed': their sessions end with them), as
 * `actor` (an admin or owner) may. The account's owners are held meanwhile (db/users.ts lockOwners), so that the
 * last owner stays one however many changes come at once.
 */
export async function changeUser(
  db: Database,
  actor: { accountId: string; role: Role },
  userId: string,
  to: Role | 'removed',
): Promise<UserChange> {
  const { accountId } = actor;
  return db.transaction(async (sql) => {
    const owners = await lockOwners(sql, accountId);
    const user = await findUser(sql, accountId, userId);
    if (!user) return { kind: 'not_found' };
    const refusal = roleChangeRefusal(actor.role, user, to, owners);
    if (refusal) return { kind: 'refused', refusal };
    if (to === 'removed') {
      await deleteUser(sql, accountId, userId);
      await forgetInviter(sql, accountId, userId);
      return { kind: 'done', user };
    }
    await updateUserRole(sql, accountId, userId, to);
    return { kind: 'done', user: { ...user, role: to } };
  });
}
