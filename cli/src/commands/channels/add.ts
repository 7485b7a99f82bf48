import { Flags } from '@oclif/core';
import { CHANNEL_TYPES } from '@pingmon/sdk/wire';
import type { Channel, ChannelType } from '@pingmon/sdk';
import { BaseCommand } from '../../base-command.js';
import { optionFlags, optionsOf, templateFlagsGiven, TEMPLATE_FLAGS, timingFlags } from '../../channel-options.js';
import { channelKind, channelScope, channelSettings, mailtoUrl } from '../../channels.js';
import { loggedInClient } from '../../client.js';

export default class ChannelsAdd extends BaseCommand {
  static override summary = 'Add a channel: where alerts are sent (chat, on-call tools, phones, e-mail, your endpoint)';
  static override description =
    'The channel is not contacted now: try it with `pingmon channels test`. Its URL is never shown in full again, ' +
    'its secret never. What each kind takes (URL, secret, options): docs/alerts.md#channels. An email channel ' +
    'takes its recipients with --to (the server must have PINGMON_SMTP_URL set).';
  static override examples = [
    '<%= config.bin %> channels add --type slack --url https://hooks.slack.com/services/T000/B000/XXXX --name ops',
    '<%= config.bin %> channels add --type pagerduty --secret e93facc04764012d7bfb002500d5d1a6 --escalate-after 15m',
    '<%= config.bin %> channels add --type telegram --secret 123456789:AAF… --option chatId=-1001234567890',
    '<%= config.bin %> channels add --type template --url https://example.com/hook --body-file body.json ' +
      "--header 'Authorization: Bearer abc'",
    '<%= config.bin %> channels add --type email --to ops@example.com --to oncall@example.com --name "ops mail"',
  ];
  // --url is the channel's URL here, so the server is --server.
  static override enableJsonFlag = true;
  static override flags = {
    server: Flags.string({
      description: 'pingmon server, e.g. http://127.0.0.1:8080 [env: PINGMON_URL; default: from pingmon login]',
      helpValue: 'URL',
    }),
    type: Flags.option({ description: 'kind of channel', options: CHANNEL_TYPES, required: true, helpValue: 'TYPE' })(),
    url: Flags.string({
      description:
        'the webhook URL, your endpoint, your Alertmanager or homeserver; left out for a vendor API of its own ' +
        '(pagerduty, opsgenie, telegram, pushover)',
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
      description: "the kind's credential (a routing key, a bot token) or a webhook's signing secret, 8–256 characters",
      helpValue: 'SECRET',
    }),
    ...optionFlags,
    ...timingFlags,
    monitor: Flags.string({
      description: 'only alerts of this monitor; repeatable [default: every monitor]',
      multiple: true,
      helpValue: 'ID',
    }),
  };

  async run(): Promise<Channel | void> {
    const { flags } = await this.parse(ChannelsAdd);
    const { type } = flags;
    if (type !== 'template' && templateFlagsGiven(flags))
      this.error(`${TEMPLATE_FLAGS.join(', ')} are for template channels: give a ${type} channel's with --option`, {
        exit: 2,
      });
    const options = optionsOf(flags);
    if (type === 'template' && typeof options?.body !== 'string')
      this.error('a template channel needs its body: --body-file FILE (or "body" in --options-file)', { exit: 2 });
    const channel = await loggedInClient({ url: flags.server }).createChannel({
      type,
      url: this.target(type, flags.url, flags.to),
      name: flags.name,
      secret: flags.secret,
      options,
      repeatEvery: flags.repeat,
      escalateAfter: flags['escalate-after'],
      monitorIds: flags.monitor ?? null,
    });
    if (this.jsonEnabled()) return channel;
    this.log(
      `Added ${channel.channelId} (${channel.name}, ${channelKind(channel)}) ` +
        `for the alerts of ${channelScope(channel)}.`,
    );
    const settings = channelSettings(channel);
    if (settings) this.log(`Settings: ${settings}.`);
    this.log(`Send it a test message: pingmon channels test ${channel.channelId}`);
  }

  /** The channel's URL: --url, for e-mail the mailto: URL of the --to addresses, or none (the server's default). */
  private target(type: ChannelType, url: string | undefined, to: string[] | undefined): string | undefined {
    if (to !== undefined && type !== 'email')
      this.error(`--to is for email channels only: a ${type} channel is given its --url`, { exit: 2 });
    if (to !== undefined) return mailtoUrl(to);
    if (url === undefined && type === 'email')
      this.error('an email channel needs its recipients: --to ADDRESS, repeatable (e.g. --to ops@example.com)', {
        exit: 2,
      });
    return url;
  }
}
