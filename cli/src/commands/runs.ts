import { Args, Flags } from '@oclif/core';
import type { RunStatus } from '@pingmon/sdk';
import { BaseCommand } from '../base-command.js';
import { loggedInClient, serverFlags } from '../client.js';
import { STATUS_MARK, duration, printTable, when } from '../output.js';

export default class Runs extends BaseCommand {
  static override summary = 'List the runs of a monitor, newest first';
  static override examples = ['<%= config.bin %> runs mon_0mwrcimaolGyOzk3ikq --status failed --limit 5'];
  static override args = { monitor: Args.string({ description: 'monitor id (mon_…)', required: true }) };
  static override flags = {
    ...serverFlags,
    status: Flags.string({ description: 'only runs with this status', options: ['running', 'success', 'failed'] }),
    limit: Flags.integer({ description: 'how many runs', default: 20, min: 1, max: 200 }),
    json: Flags.boolean({ description: 'print JSON' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Runs);
    const { runs } = await loggedInClient(flags).listRuns(args.monitor, { status: flags.status as RunStatus | undefined, limit: flags.limit });
    if (flags.json) return this.log(JSON.stringify(runs));
    if (runs.length === 0) return this.log(flags.status ? `No ${flags.status} runs.` : 'No runs yet.');
    printTable(
      ['RUN', 'STATUS', 'STARTED', 'DURATION', 'ERROR'],
      runs.map((r) => [r.runId, STATUS_MARK[r.status]!, when(r.startedAt), duration(r.durationMs), (r.errorMessage ?? '').split('\n')[0]!]),
      (line) => this.log(line),
    );
  }
}
