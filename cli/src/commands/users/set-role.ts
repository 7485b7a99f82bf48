import { Args } from '@oclif/core';
import type { Role, User } from '@pingmon/sdk';
import { ROLES } from '@pingmon/sdk';
import { BaseCommand } from '../../base-command.js';
import { loggedInClient, serverFlags } from '../../client.js';
import { findUser } from '../../users.js';

export default class UsersSetRole extends BaseCommand {
  static override summary = "Change a user's role (from their next request on)";
  static override description =
    'Only an owner may change an owner or make someone an owner; the last owner of the account stays one.';
  static override examples = ['<%= config.bin %> users set-role ada@example.com admin'];
  static override enableJsonFlag = true;
  static override args = {
    user: Args.string({ description: 'user id (usr_…) or e-mail address', required: true }),
    role: Args.string({ description: 'owner, admin, member or viewer', options: [...ROLES], required: true }),
  };
  static override flags = { ...serverFlags };

  async run(): Promise<User | void> {
    const { args, flags } = await this.parse(UsersSetRole);
    const client = loggedInClient(flags);
    const user = await findUser(client, args.user);
    const changed = await client.setUserRole(user.userId, args.role as Role);
    if (this.jsonEnabled()) return changed;
    this.log(`${changed.email} is now ${changed.role} (was ${user.role}).`);
  }
}
