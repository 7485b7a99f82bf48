import { Args, Flags } from '@oclif/core';
import type { Run, RunDetail, RunStatus } from '@pingmon/sdk';
import { failureSeen, redactedText } from '@pingmon/sdk/wire';
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
  static override summary = 'List the runs of a monitor, newest first; or show one run';
  static override examples = [
    '<%= config.bin %> runs mon_0mwrcimaolGyOzk3ikq --status failed --limit 5',
    '<%= config.bin %> runs nightly-backup --fingerprint 3f9c2a71d04be816',
    '<%= config.bin %> runs nightly-backup 01a201a4-ac38-7e5c-ac8f-8c012b117ffa',
  ];
  static override args = {
    monitor: Args.string({ description: 'monitor slug or id (mon_…)', required: true }),
    run: Args.string({ description: 'a run id: show that run' }),
  };
  static override enableJsonFlag = true;
  static override flags = {
    ...serverFlags,
    status: Flags.string({ description: 'only runs with this status', options: ['running', 'success', 'failed'] }),
    fingerprint: Flags.string({ description: 'only the failed runs with this failure fingerprint' }),
    limit: Flags.integer({ description: 'how many runs', default: 20, min: 1, max: 200 }),
  };

  async run(): Promise<Run[] | RunDetail | void> {
    const { args, flags } = await this.parse(Runs);
    const client = loggedInClient(flags);
    if (args.run !== undefined) {
      const run = await client.getRun(args.monitor, args.run);
      if (this.jsonEnabled()) return run;
      return this.show(run);
    }
    const { runs } = await client.listRuns(args.monitor, {
      status: flags.status as RunStatus | undefined,
      fingerprint: flags.fingerprint,
      limit: flags.limit,
    });
    if (this.jsonEnabled()) return runs;
    if (runs.length === 0) {
      if (!flags.status && !flags.fingerprint) return this.log('No runs yet.');
      const print = flags.fingerprint ? ` with fingerprint ${flags.fingerprint}` : '';
      return this.log(`No ${flags.status ? `${flags.status} ` : ''}runs${print}.`);
    }
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

  private show(run: RunDetail): void {
    const line = (label: string, value: string) => this.log(`${label.padEnd(12)}${value}`);
    line('run', run.runId);
    line('status', statusText(run.status, run.silentFailure));
    line('started', when(run.startedAt));
    line('finished', when(run.finishedAt));
    line('duration', duration(run.durationMs));
    line('host', run.host ?? '-');
    if (run.redactions > 0) line('redacted', redactedText(run.redactions));
    if (problem(run)) line(run.silentFailure ? 'rules' : 'error', problem(run));
    if (run.fingerprint !== null) {
      line('failure', `${failureSeen(run.failure, Date.now()) ?? 'new failure'} (fingerprint ${run.fingerprint})`);
    }
    line('log', run.hasLog ? `pingmon logs ${run.monitorId} ${run.runId}` : 'none');
  }
}
