import type { Role } from '@pingmon/sdk/wire';
import type { Database } from '../db/index.js';
import { forgetInviter } from '../db/invites.js';
import type { UserRecord } from '../db/users.js';
import { deleteUser, findUser, lockOwners, updateUserRole } from '../db/users.js';
import type { Refusal } from '../domain/access.js';
import { accessRefusal } from '../domain/access.js';
import { roleChangeRefusal } from '../domain/roles.js';

export type UserChange =
  { kind: 'done'; user: UserRecord } | { kind: 'not_found' } | { kind: 'refused'; refusal: Refusal };

/**
 * Gives a user of the account the role `to`, or removes them (`to` = 'removed': their sessions end with them), as
 * `actor` (an admin or owner) may. The account's owners are held meanwhile (db/users.ts lockOwners), so that the
 * last owner stays one however many changes come at once; the actor's own role is read again under that hold, as
 * another change may just have taken it.
 */
export async function changeUser(
  db: Database,
  actor: { accountId: string; userId: string },
  userId: string,
  to: Role | 'removed',
): Promise<UserChange> {
  const { accountId } = actor;
  return db.transaction(async (sql) => {
    const owners = await lockOwners(sql, accountId);
    const role = (await findUser(sql, accountId, actor.userId))?.role ?? 'viewer';
    const demoted = accessRefusal('admin', { kind: 'user', role }, 'changing users');
    if (demoted) return { kind: 'refused', refusal: demoted };
    const user = await findUser(sql, accountId, userId);
    if (!user) return { kind: 'not_found' };
    const refusal = roleChangeRefusal(role, user, to, owners);
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
