import { Args } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';
import { loggedInClient, serverFlags } from '../../client.js';

export default class ChannelsRemove extends BaseCommand {
  static override summary = 'Remove a channel, with its deliveries (pending ones are never sent)';
  static override args = { channel: Args.string({ description: 'channel id (ch_…)', required: true }) };
  static override flags = { ...serverFlags };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ChannelsRemove);
    await loggedInClient(flags).deleteChannel(args.channel);
    this.log(`Removed ${args.channel}; alerts still waiting for it will not be sent.`);
  }
}
