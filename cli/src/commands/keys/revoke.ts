import { Args } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';
import { loggedInClient, serverFlags } from '../../client.js';

export default class KeysRevoke extends BaseCommand {
  static override summary = 'Revoke an API key';
  static override args = { key: Args.string({ description: 'key id (key_…)', required: true }) };
  static override flags = { ...serverFlags };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(KeysRevoke);
    await loggedInClient(flags).revokeApiKey(args.key);
    this.log(`Revoked ${args.key}; servers stop accepting it within 5 seconds.`);
  }
}
