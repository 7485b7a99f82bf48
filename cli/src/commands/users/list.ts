import type { Invite, User } from '@pingmon/sdk';
import { BaseCommand } from '../../base-command.js';
import { loggedInClient, serverFlags } from '../../client.js';
import { printTable, when } from '../../output.js';

export default class UsersList extends BaseCommand {
  static override summary = "List the account's users and their roles, and pending invites";
  static override description =
    'Roles: owner, admin, member, viewer (docs/api.md#roles). Admins and owners list users.';
  static override enableJsonFlag = true;
  static override flags = { ...serverFlags };

  async run(): Promise<{ users: User[]; invites: Invite[] } | void> {
    const { flags } = await this.parse(UsersList);
    const client = loggedInClient(flags);
    const [{ users }, { invites }] = await Promise.all([client.listUsers(), client.listInvites()]);
    if (this.jsonEnabled()) return { users, invites };
    printTable(
      ['ID', 'EMAIL', 'ROLE', 'SINCE'],
      [
        ...users.map((u) => [u.userId, u.email, u.role, when(u.createdAt)]),
        ...invites.map((i) => [i.inviteId, i.email, `${i.role} (invited)`, `until ${when(i.expiresAt)}`]),
      ],
      (line) => this.log(line),
    );
  }
}
