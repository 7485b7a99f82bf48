import { Args, Flags } from '@oclif/core';
import type { Run, RunStatus } from '@pingmon/sdk';
import { BaseCommand } from '../base-command.js';
import { loggedInClient, serverFlags } from '../client.js';
import { duration, printTable, statusText, when } from '../output.js';
import { formatMatch } from '../rule-expression.js';

/** The first line of the error message; for a silent failure, the rules it matched. */
function problem(run: Run): string {
  if (run.silentFailure && run.matchedRules.length > 0) {
    return `silent failure: ${run.matchedRules.map(formatMatch).join(', ')}`;
  }
  return (run.errorMessage ?? '').split('\n')[0]!;
}

export default class Runs extends BaseCommand {
  static override summary = 'List the runs of a monitor, newest first';
  static override examples = ['<%= config.bin %> runs mon_0mwrcimaolGyOzk3ikq --status failed --limit 5'];
  static override args = { monitor: Args.string({ description: 'monitor slug or id (mon_…)', required: true }) };
  static override enableJsonFlag = true;
  static override flags = {
    ...serverFlags,
    status: Flags.string({ description: 'only runs with this status', options: ['running', 'success', 'failed'] }),
    limit: Flags.integer({ description: 'how many runs', default: 20, min: 1, max: 200 }),
  };

  async run(): Promise<Run[] | void> {
    const { args, flags } = await this.parse(Runs);
    const { runs } = await loggedInClient(flags).listRuns(args.monitor, {
      status: flags.status as RunStatus | undefined,
      limit: flags.limit,
    });
    if (this.jsonEnabled()) return runs;
    if (runs.length === 0) return this.log(flags.status ? `No ${flags.status} runs.` : 'No runs yet.');
    printTable(
      ['RUN', 'STATUS', 'STARTED', 'DURATION', 'HOST', 'ERROR'],
      runs.map((r) => [
        r.runId,
        statusText(r.status, r.silentFailure),
        when(r.startedAt),
        duration(r.durationMs),
        r.host ?? '-',
        problem(r),
      ]),
      (line) => this.log(line),
    );
  }
}
