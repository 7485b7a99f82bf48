import { Args } from '@oclif/core';
import type { ChannelTestResult } from '@pingmon/sdk';
import { BaseCommand } from '../../base-command.js';
import { testOutcome } from '../../channels.js';
import { loggedInClient, serverFlags } from '../../client.js';

export default class ChannelsTest extends BaseCommand {
  static override summary = 'Send a test message to a channel now, enabled or not, and say how it went';
  static override description =
    'One attempt, no retry; nothing is recorded. ' +
    'Exits 1 when the channel did not accept it (answered other than 2xx, or not at all).';
  static override args = { channel: Args.string({ description: 'channel id (ch_…)', required: true }) };
  static override enableJsonFlag = true;
  static override flags = { ...serverFlags };

  async run(): Promise<ChannelTestResult | void> {
    const { args, flags } = await this.parse(ChannelsTest);
    // The server waits for the channel as long as for an alert (PINGMON_ALERT_TIMEOUT, 10 s by default): wait longer.
    const result = await loggedInClient(flags, { timeoutMs: 65_000, retryBudgetMs: 65_000 }).testChannel(args.channel);
    if (!result.delivered) {
      // --json prints the answer even then; oclif prints only what a command returns, and this one fails.
      if (this.jsonEnabled()) this.logJson(result);
      this.error(`not delivered to ${args.channel}: ${testOutcome(result)}`, { exit: 1 });
    }
    this.log(`Delivered to ${args.channel}: ${testOutcome(result)}.`);
    return result;
  }
}
