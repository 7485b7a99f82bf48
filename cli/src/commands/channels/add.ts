import { Flags } from '@oclif/core';
import type { Channel, ChannelType } from '@pingmon/sdk';
import { BaseCommand } from '../../base-command.js';
import { channelKind, channelScope, mailtoUrl } from '../../channels.js';
import { loggedInClient } from '../../client.js';

export default class ChannelsAdd extends BaseCommand {
  static override summary = 'Add a channel: where alerts are sent (Slack, Discord, a webhook of yours, or e-mail)';
  static override description =
    'The URL is not contacted now: try it with `pingmon channels test`. It is never shown in full again. ' +
    'An email channel takes its recipients with --to (the server must have PINGMON_SMTP_URL set).';
  static override examples = [
    '<%= config.bin %> channels add --type slack --url https://hooks.slack.com/services/T000/B000/XXXX --name ops',
    '<%= config.bin %> channels add --type webhook --url https://hooks.example.com/pingmon ' +
      '--secret whsec_0123456789abcdef --monitor mon_0mwrksujegHscDsv5wx',
    '<%= config.bin %> channels add --type email --to ops@example.com --to oncall@example.com --name "ops mail"',
  ];
  // --url is the channel's URL here, so the server is --server.
  static override enableJsonFlag = true;
  static override flags = {
    server: Flags.string({
      description: 'pingmon server, e.g. http://127.0.0.1:8080 [env: PINGMON_URL; default: from pingmon login]',
      helpValue: 'URL',
    }),
    type: Flags.string({
      description: 'kind of channel',
      options: ['slack', 'discord', 'webhook', 'email'],
      required: true,
    }),
    url: Flags.string({
      description: 'the Slack incoming-webhook URL, the Discord webhook URL, or your endpoint',
      helpValue: 'URL',
    }),
    to: Flags.string({
      description: "email only: a recipient's address; repeatable (or --url mailto:a@example.com,b@example.com)",
      multiple: true,
      helpValue: 'ADDRESS',
      exclusive: ['url'],
    }),
    name: Flags.string({ description: 'a name for the channel [default: "<type> channel"]' }),
    secret: Flags.string({
      description: 'webhook only: sign every payload with this secret (8–256 characters)',
      helpValue: 'SECRET',
    }),
    monitor: Flags.string({
      description: 'only alerts of this monitor; repeatable [default: every monitor]',
      multiple: true,
      helpValue: 'ID',
    }),
  };

  async run(): Promise<Channel | void> {
    const { flags } = await this.parse(ChannelsAdd);
    const type = flags.type as ChannelType;
    if (flags.secret !== undefined && type !== 'webhook')
      this.error(`--secret is for webhook channels only: ${type} payloads are not signed`, { exit: 2 });
    const url = this.target(type, flags.url, flags.to);
    const channel = await loggedInClient({ url: flags.server }).createChannel({
      type,
      url,
      name: flags.name,
      secret: flags.secret,
      monitorIds: flags.monitor ?? null,
    });
    if (this.jsonEnabled()) return channel;
    this.log(
      `Added ${channel.channelId} (${channel.name}, ${channelKind(channel)}) ` +
        `for the alerts of ${channelScope(channel)}.`,
    );
    this.log(`Send it a test message: pingmon channels test ${channel.channelId}`);
  }

  /** The channel's URL: --url, or for e-mail the mailto: URL of the --to addresses. */
  private target(type: ChannelType, url: string | undefined, to: string[] | undefined): string {
    if (to !== undefined && type !== 'email')
      this.error(`--to is for email channels only: a ${type} channel is given its --url`, { exit: 2 });
    if (to !== undefined) return mailtoUrl(to);
    if (url !== undefined) return url;
    if (type === 'email')
      this.error('an email channel needs its recipients: --to ADDRESS, repeatable (e.g. --to ops@example.com)', {
        exit: 2,
      });
    return this.error('Missing required flag url', { exit: 2 });
  }
}
