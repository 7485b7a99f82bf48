import { Args } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';
import { loggedInClient, serverFlags } from '../../client.js';

export default class ChannelsDisable extends BaseCommand {
  static override summary = 'Disable a channel: it gets no new alerts, and pending ones end as failed';
  static override args = { channel: Args.string({ description: 'channel id (ch_…)', required: true }) };
  static override flags = { ...serverFlags };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ChannelsDisable);
    const channel = await loggedInClient(flags).updateChannel(args.channel, { enabled: false });
    this.log(
      `Disabled ${channel.channelId} (${channel.name}): ` +
        'it gets no new alerts, and deliveries still pending for it end as failed.',
    );
  }
}
