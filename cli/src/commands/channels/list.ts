import type { Channel } from '@pingmon/sdk';
import { BaseCommand } from '../../base-command.js';
import { channelKind, channelScope } from '../../channels.js';
import { loggedInClient, serverFlags } from '../../client.js';
import { printTable } from '../../output.js';

export default class ChannelsList extends BaseCommand {
  static override summary = 'List the channels alerts are sent to, newest first (URLs masked)';
  static override enableJsonFlag = true;
  static override flags = { ...serverFlags };

  async run(): Promise<Channel[] | void> {
    const { flags } = await this.parse(ChannelsList);
    const { channels } = await loggedInClient(flags).listChannels();
    if (this.jsonEnabled()) return channels;
    if (channels.length === 0)
      return this.log(
        'No channels yet: add one with `pingmon channels add --type slack|discord|webhook --url URL` ' +
          'or `pingmon channels add --type email --to ADDRESS`.',
      );
    printTable(
      ['ID', 'NAME', 'TYPE', 'URL', 'ALERTS OF', 'STATE'],
      channels.map((c) => [
        c.channelId,
        c.name,
        channelKind(c),
        c.url,
        channelScope(c),
        c.enabled ? 'enabled' : 'disabled',
      ]),
      (line) => this.log(line),
    );
  }
}
