import { Args, Flags } from '@oclif/core';
import type { CreatedInvite, Role } from '@pingmon/sdk';
import { ROLES } from '@pingmon/sdk';
import { BaseCommand } from '../../base-command.js';
import { loggedInClient, serverFlags } from '../../client.js';
import { when } from '../../output.js';

export default class UsersInvite extends BaseCommand {
  static override summary = 'Invite someone to the account: prints the one-time link (mailed too when SMTP is set)';
  static override description =
    'The link works once, for 7 days: whoever opens it sets a password and becomes a user with ROLE. Inviting the ' +
    'same address again replaces the earlier link. Only an owner may invite an owner.';
  static override examples = ['<%= config.bin %> users invite ada@example.com --role member'];
  static override enableJsonFlag = true;
  static override args = { email: Args.string({ description: 'the address to invite', required: true }) };
  static override flags = {
    ...serverFlags,
    role: Flags.string({
      description: 'owner, admin, member (monitors, rules, channels) or viewer (read only)',
      options: [...ROLES],
      required: true,
    }),
  };

  async run(): Promise<CreatedInvite | void> {
    const { args, flags } = await this.parse(UsersInvite);
    const invite = await loggedInClient(flags).inviteUser(args.email, flags.role as Role);
    if (this.jsonEnabled()) return invite;
    this.log(`Invited ${invite.email} as ${invite.role} (${invite.inviteId}), until ${when(invite.expiresAt)} UTC.`);
    this.log(invite.emailed ? 'The link was mailed to them; here it is too:' : 'Send them this link (shown only now):');
    this.log(invite.url);
  }
}
