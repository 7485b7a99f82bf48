import { Args, Flags } from '@oclif/core';
import { PingmonError } from '@pingmon/sdk';
import type { Channel, UpdateChannelRequest } from '@pingmon/sdk';
import { BaseCommand } from '../../base-command.js';
import { optionFlags, optionsOf, TEMPLATE_FLAGS, timingFlags } from '../../channel-options.js';
import { channelKind, channelScope, channelSettings, mailtoUrl } from '../../channels.js';
import { loggedInClient } from '../../client.js';

export default class ChannelsUpdate extends BaseCommand {
  static override summary =
    'Change a channel: its name, URL, secret, options, repeats, escalation or the monitors it hears from';
  static override description =
    'Changes apply to alerts raised afterwards; a new URL or secret also to retries still pending. Options given ' +
    "(--option, --options-file, a template's flags) replace all the old ones: give every option the channel keeps " +
    "(a template's headers too, which are never shown back). " +
    'To switch a channel off and on, use `pingmon channels disable|enable`.';
  static override examples = [
    '<%= config.bin %> channels update ch_0mwrksuk86Pj3ilrMTe --url https://hooks.slack.com/services/T000/B000/YYYY',
    '<%= config.bin %> channels update ch_0mwrksuk86Pj3ilrMTe ' +
      '--monitor mon_0mwrksujegHscDsv5wx --monitor mon_0mwrkt0b1kQp2bGx7Aa',
    '<%= config.bin %> channels update ch_0mwrksuk86Pj3ilrMTe --all-monitors --remove-secret',
    '<%= config.bin %> channels update ch_0mwrksuk86Pj3ilrMTe --repeat 30m --no-escalate',
    '<%= config.bin %> channels update ch_0mwrksuk86Pj3ilrMTe --body-file body.json ' +
      '--header "Authorization: Bearer abc"',
  ];
  static override args = { channel: Args.string({ description: 'channel id (ch_…)', required: true }) };
  // --url is the channel's URL here, so the server is --server.
  static override enableJsonFlag = true;
  static override flags = {
    server: Flags.string({
      description: 'pingmon server, e.g. http://127.0.0.1:8080 [env: PINGMON_URL; default: from pingmon login]',
      helpValue: 'URL',
    }),
    name: Flags.string({ description: 'a new name' }),
    url: Flags.string({ description: 'a new URL for the channel', helpValue: 'URL' }),
    to: Flags.string({
      description: 'email only: the new recipients, replacing the old; repeatable',
      multiple: true,
      helpValue: 'ADDRESS',
      exclusive: ['url'],
    }),
    secret: Flags.string({
      description: "a new credential, or a webhook's new signing secret (8–256 characters)",
      helpValue: 'SECRET',
      exclusive: ['remove-secret'],
    }),
    'remove-secret': Flags.boolean({ description: 'remove the secret (a webhook stops signing its payloads)' }),
    ...optionFlags,
    ...timingFlags,
    'no-repeat': Flags.boolean({
      description: "no repeats of its own: the kind's (Alertmanager: every 1m), else none",
      exclusive: ['repeat'],
    }),
    'no-escalate': Flags.boolean({ description: 'tell it of incidents at once', exclusive: ['escalate-after'] }),
    monitor: Flags.string({
      description: 'only alerts of these monitors from now on; repeatable',
      multiple: true,
      helpValue: 'ID',
      exclusive: ['all-monitors'],
    }),
    'all-monitors': Flags.boolean({ description: 'alerts of every monitor, lifting a --monitor restriction' }),
  };

  async run(): Promise<Channel | void> {
    const { args, flags } = await this.parse(ChannelsUpdate);
    const changes: UpdateChannelRequest = {};
    if (flags.name !== undefined) changes.name = flags.name;
    if (flags.url !== undefined) changes.url = flags.url;
    if (flags.to !== undefined) changes.url = mailtoUrl(flags.to);
    if (flags.secret !== undefined) changes.secret = flags.secret;
    if (flags['remove-secret']) changes.secret = null;
    if (flags.monitor !== undefined) changes.monitorIds = flags.monitor;
    if (flags['all-monitors']) changes.monitorIds = null;
    const options = optionsOf(flags);
    if (options !== undefined) changes.options = options;
    if (flags.repeat !== undefined) changes.repeatEvery = flags.repeat;
    if (flags['no-repeat']) changes.repeatEvery = null;
    if (flags['escalate-after'] !== undefined) changes.escalateAfter = flags['escalate-after'];
    if (flags['no-escalate']) changes.escalateAfter = null;
    if (Object.keys(changes).length === 0) {
      this.error(
        'say what to change: --name, --url, --to, --secret, --remove-secret, --option, --options-file, ' +
          `${TEMPLATE_FLAGS.join(', ')}, --repeat, --no-repeat, --escalate-after, --no-escalate, --monitor ` +
          'or --all-monitors',
        { exit: 2 },
      );
    }
    const channel = await loggedInClient({ url: flags.server })
      .updateChannel(args.channel, changes)
      .catch((err: unknown) => {
        // Only the server knows the channel's type (asking first would be a second request): it refuses the
        // mailto: URL of --to for any other type as not being http(s), which says nothing of --to. Nothing was
        // changed, and the mistake is the command line's, as with `channels add --type slack --to`: exit 2.
        const notEmail =
          flags.to !== undefined &&
          err instanceof PingmonError &&
          err.code === 'invalid_request' &&
          /must be an http:\/\/ or https:\/\/ URL/.test(err.message);
        if (notEmail)
          this.error(`--to is for email channels only: ${args.channel} is not one, give it a new --url instead`, {
            exit: 2,
          });
        throw err;
      });
    if (this.jsonEnabled()) return channel;
    this.log(
      `Updated ${channel.channelId} (${channel.name}, ${channelKind(channel)}) ` +
        `for the alerts of ${channelScope(channel)}.`,
    );
    const settings = channelSettings(channel);
    if (settings) this.log(`Settings: ${settings}.`);
    if (changes.url !== undefined) this.log(`Send it a test message: pingmon channels test ${channel.channelId}`);
  }
}
