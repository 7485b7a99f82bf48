import { Args } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';
import { loggedInClient, serverFlags } from '../../client.js';
import { findUser } from '../../users.js';

export default class UsersRemove extends BaseCommand {
  static override summary = 'Remove a user from the account: their sessions end at once';
  static override description = 'Only an owner may remove an owner; the last owner of the account cannot be removed.';
  static override examples = ['<%= config.bin %> users remove ada@example.com'];
  static override args = { user: Args.string({ description: 'user id (usr_…) or e-mail address', required: true }) };
  static override flags = { ...serverFlags };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(UsersRemove);
    const client = loggedInClient(flags);
    const user = await findUser(client, args.user);
    await client.removeUser(user.userId);
    this.log(`Removed ${user.email} (${user.userId}); their sessions have ended.`);
  }
}
