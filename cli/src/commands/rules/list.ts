import { Args } from '@oclif/core';
import type { Rule } from '@pingmon/sdk';
import { BaseCommand } from '../../base-command.js';
import { loggedInClient, serverFlags } from '../../client.js';
import { printTable, when } from '../../output.js';
import { formatRule } from '../../rule-expression.js';

export default class RulesList extends BaseCommand {
  static override summary = 'List the alert rules of a monitor, in the order they were added';
  static override args = { monitor: Args.string({ description: 'monitor slug or id (mon_…)', required: true }) };
  static override enableJsonFlag = true;
  static override flags = { ...serverFlags };

  async run(): Promise<Rule[] | void> {
    const { args, flags } = await this.parse(RulesList);
    const { rules } = await loggedInClient(flags).listRules(args.monitor);
    if (this.jsonEnabled()) return rules;
    if (rules.length === 0)
      return this.log(
        `No rules on ${args.monitor}: add one with \`pingmon rules add ${args.monitor} 'rowsProcessed < 1'\`.`,
      );
    printTable(
      ['ID', 'RULE', 'CREATED'],
      rules.map((r) => [r.ruleId, formatRule(r), when(r.createdAt)]),
      (line) => this.log(line),
    );
  }
}
