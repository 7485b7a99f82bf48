import { Args, Flags } from '@oclif/core';
import type { RulePreview } from '@pingmon/sdk';
import { BaseCommand } from '../../base-command.js';
import { loggedInClient, serverFlags } from '../../client.js';
import { printTable, when } from '../../output.js';
import { RULE_FORM, parseRuleExpression, ruleExample } from '../../rule-expression.js';

export default class RulesTest extends BaseCommand {
  static override summary = "Try a rule on a monitor's latest successful runs before adding it: which would it match?";
  static override description =
    `The rule is ${RULE_FORM}, in one argument or several. Nothing is stored or sent: the server replays the rule ` +
    'over the stored runs, as a success ping would have matched it (a median or a window with the runs before ' +
    'them). Exits 0 whatever it matches.';
  static override examples = [
    "<%= config.bin %> rules test nightly-export 'rowsProcessed < 1'",
    "<%= config.bin %> rules test nightly-export 'durationMs > 3600000' --runs 100",
    "<%= config.bin %> rules test nightly-export 'rowsProcessed < 0.5 × median(20)'",
    "<%= config.bin %> rules test nightly-export 'durationMs > 3 × median(20) in 3 of the last 5'",
  ];
  // The rule may come as several words (`rowsProcessed lt 1`): they are joined.
  static override strict = false;
  static override usage = '<%= command.id %> MONITOR RULE [--runs <value>] [--url <value>] [--json]';
  static override args = {
    monitor: Args.string({ description: 'monitor slug or id (mon_…)', required: true }),
    rule: Args.string({ description: "the rule, e.g. 'rowsProcessed < 1'", required: true }),
  };
  static override enableJsonFlag = true;
  static override flags = {
    ...serverFlags,
    runs: Flags.integer({
      description: 'how many of the latest successful runs to replay',
      default: 20,
      min: 1,
      max: 200,
    }),
  };

  async run(): Promise<RulePreview | void> {
    const { args, argv, flags } = await this.parse(RulesTest);
    const text = (argv as string[]).slice(1).join(' ');
    const parsed = parseRuleExpression(text);
    if (!parsed.ok)
      this.error(`${parsed.error}, e.g. pingmon rules test ${args.monitor} '${ruleExample(text)}'`, { exit: 2 });
    const preview = await loggedInClient(flags).previewRule(args.monitor, parsed.rule, { runs: flags.runs });
    if (this.jsonEnabled()) return preview;
    const { checked, withoutMetric, matches } = preview;
    const successes = `${checked} latest successful run${checked === 1 ? '' : 's'}`;
    this.log(`${preview.description}: would have matched ${matches.length} of the ${successes}.`);
    if (withoutMetric > 0) {
      this.log(
        `${withoutMetric} of them do not report ${parsed.rule.metric}: the rule never matches those ` +
          '(a misspelt metric shows here).',
      );
    }
    if (matches.length === 0) return;
    const withMedian = parsed.rule.baseline !== null;
    printTable(
      ['RUN', 'STARTED', parsed.rule.metric.toUpperCase(), ...(withMedian ? ['MEDIAN BEFORE'] : [])],
      matches.map((m) => [m.runId, when(m.startedAt), String(m.actual), ...(withMedian ? [String(m.median)] : [])]),
      (line) => this.log(line),
    );
  }
}
