import type { Channel } from '@pingmon/sdk';
import { BaseCommand } from '../../base-command.js';
import { channelKind, channelScope, channelSettings } from '../../channels.js';
import { loggedInClient, serverFlags } from '../../client.js';
import { printTable } from '../../output.js';

export default class ChannelsList extends BaseCommand {
  static override summary =
    'List the channels alerts are sent to, newest first (URLs masked), with their options, repeats and escalation';
  static override enableJsonFlag = true;
  static override flags = { ...serverFlags };

  async run(): Promise<Channel[] | void> {
    const { flags } = await this.parse(ChannelsList);
    const { channels } = await loggedInClient(flags).listChannels();
    if (this.jsonEnabled()) return channels;
    if (channels.length === 0)
      return this.log(
        'No channels yet: add one with `pingmon channels add --type TYPE` (slack, discord, webhook, email, ' +
          'pagerduty, telegram and more: `pingmon channels add --help` lists them).',
      );
    // The settings column only when a channel has settings: the table fits a terminal of 120 columns without it.
    const settings = channels.map((c) => channelSettings(c));
    const withSettings = settings.some((text) => text !== '');
    printTable(
      ['ID', 'NAME', 'TYPE', 'URL', 'ALERTS OF', 'STATE', ...(withSettings ? ['SETTINGS'] : [])],
      channels.map((c, i) => [
        c.channelId,
        c.name,
        channelKind(c),
        c.url,
        channelScope(c),
        c.enabled ? 'enabled' : 'disabled',
        ...(withSettings ? [settings[i] || '—'] : []),
      ]),
      (line) => this.log(line),
    );
  }
}
