import { Args } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';
import { loggedInClient, serverFlags } from '../../client.js';

export default class ChannelsEnable extends BaseCommand {
  static override summary = 'Enable a channel: alerts raised from now on are sent to it';
  static override args = { channel: Args.string({ description: 'channel id (ch_…)', required: true }) };
  static override flags = { ...serverFlags };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ChannelsEnable);
    const channel = await loggedInClient(flags).updateChannel(args.channel, { enabled: true });
    this.log(`Enabled ${channel.channelId} (${channel.name}): alerts raised from now on are sent to it.`);
  }
}
