import { Args } from '@oclif/core';
import type { Rule } from '@pingmon/sdk';
import { BaseCommand } from '../../base-command.js';
import { loggedInClient, serverFlags } from '../../client.js';
import { RULE_FORM, formatRule, parseRuleExpression, ruleExample } from '../../rule-expression.js';

export default class RulesAdd extends BaseCommand {
  static override summary =
    'Add an alert rule to a monitor: a success whose meta matches it raises a silent_failure alert';
  static override description =
    `The rule is ${RULE_FORM}, in one argument or several. A metric the run does not report never matches. ` +
    'A median is over the successes before the run judged, and judges nothing until that many report the metric ' +
    '(or min); a window counts the last successes, the run judged among them. Try one first: pingmon rules test.';
  static override examples = [
    "<%= config.bin %> rules add mon_0mwrksujegHscDsv5wx 'rowsProcessed < 1'",
    '<%= config.bin %> rules add mon_0mwrksujegHscDsv5wx durationSeconds gt 3600',
    "<%= config.bin %> rules add nightly-export 'rowsProcessed < 0.5 × median(20)'",
    "<%= config.bin %> rules add nightly-backup 'durationMs < 0.1 × median(20, min 5) for 2 runs'",
  ];
  // The rule may come as several words (`rowsProcessed lt 1`): they are joined.
  static override strict = false;
  static override usage = '<%= command.id %> MONITOR RULE [--url <value>] [--json]';
  static override args = {
    monitor: Args.string({ description: 'monitor slug or id (mon_…)', required: true }),
    rule: Args.string({ description: "the rule, e.g. 'rowsProcessed < 1'", required: true }),
  };
  static override enableJsonFlag = true;
  static override flags = { ...serverFlags };

  async run(): Promise<Rule | void> {
    const { args, argv, flags } = await this.parse(RulesAdd);
    const text = (argv as string[]).slice(1).join(' ');
    const parsed = parseRuleExpression(text);
    if (!parsed.ok)
      this.error(`${parsed.error}, e.g. pingmon rules add ${args.monitor} '${ruleExample(text)}'`, { exit: 2 });
    const rule = await loggedInClient(flags).createRule(args.monitor, parsed.rule);
    if (this.jsonEnabled()) return rule;
    this.log(`Added ${rule.ruleId} to ${rule.monitorId}: ${formatRule(rule)}.`);
    this.log(`${rule.description}: a silent_failure alert.`);
  }
}
