import { Args } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';
import { loggedInClient, serverFlags } from '../../client.js';

export default class RulesRemove extends BaseCommand {
  static override summary = 'Remove an alert rule from a monitor';
  static override args = {
    monitor: Args.string({ description: 'monitor slug or id (mon_…)', required: true }),
    rule: Args.string({ description: 'rule id (rule_…)', required: true }),
  };
  static override flags = { ...serverFlags };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(RulesRemove);
    await loggedInClient(flags).deleteRule(args.monitor, args.rule);
    this.log(`Removed ${args.rule} from ${args.monitor}; runs it matched keep their marks.`);
  }
}
