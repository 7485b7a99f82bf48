import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';
import { loggedInClient, serverFlags } from '../../client.js';
import { plural } from '../../output.js';

export default class SessionsRevoke extends BaseCommand {
  static override summary = 'End one of your sessions, or every one but this (--others)';
  static override description = 'An ended session is refused at once: whoever holds its token must log in again.';
  static override examples = [
    '<%= config.bin %> sessions revoke ses_01J…',
    '<%= config.bin %> sessions revoke --others',
  ];
  static override args = { session: Args.string({ description: 'session id (ses_…), from pingmon sessions list' }) };
  static override flags = {
    others: Flags.boolean({ description: 'end every session of yours but the one of this login' }),
    ...serverFlags,
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(SessionsRevoke);
    if ((args.session === undefined) === !flags.others)
      this.error('name one session id, or pass --others (not both)', { exit: 2 });
    const client = loggedInClient(flags);
    if (args.session !== undefined) {
      await client.revokeSession(args.session);
      return this.log(`Ended ${args.session}.`);
    }
    const { ended } = await client.revokeOtherSessions();
    this.log(`Ended ${plural(ended, 'other session')}; this login goes on.`);
  }
}
