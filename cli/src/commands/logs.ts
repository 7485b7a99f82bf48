import { Args, Flags } from '@oclif/core';
import type { Client, Run } from '@pingmon/sdk';
import { BaseCommand } from '../base-command.js';
import { loggedInClient, serverFlags } from '../client.js';
import { followOutput, resultLine, writeOutput } from '../follow.js';

export default class Logs extends BaseCommand {
  static override summary = "Print a run's log; or, with --follow, a running run's output as it arrives";
  static override description =
    "Without a run id: the monitor's latest run (with --follow, the one running now). --follow prints the output " +
    "that `pingmon run` sends while the job runs, about once a second, then the run's result on stderr; it exits " +
    '0 when the run succeeded, 1 when it failed or timed out, 130 on Ctrl-C. A run that has ended shows its log.';
  static override examples = [
    '<%= config.bin %> logs mon_0mwrcimaolGyOzk3ikq 01a201a4-ac38-7e5c-ac8f-8c012b117ffa | less -R',
    '<%= config.bin %> logs nightly-backup --follow',
  ];
  static override args = {
    monitor: Args.string({ description: 'monitor slug or id (mon_…)', required: true }),
    run: Args.string({ description: 'run id (default: the latest run)' }),
  };
  static override flags = {
    ...serverFlags,
    follow: Flags.boolean({ char: 'f', description: "print a running run's output as it arrives, then its result" }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Logs);
    const client = loggedInClient(flags);
    const run = await runOf(client, args.monitor, args.run, flags.follow);
    if (run === undefined) {
      process.stderr.write('No runs yet.\n');
      return;
    }
    if (!flags.follow) return printLog(client, run);
    let printed = false;
    if (run.status === 'running') {
      const stop = new AbortController();
      const interrupted = () => stop.abort();
      process.once('SIGINT', interrupted);
      try {
        printed = await followOutput(client, args.monitor, run.runId, stop.signal);
      } finally {
        process.off('SIGINT', interrupted);
      }
      if (stop.signal.aborted) {
        process.exitCode = 130;
        return;
      }
    }
    const ended = run.status === 'running' ? await client.getRun(args.monitor, run.runId) : run;
    // Followed after its output went (or never sent any): its log is what is left.
    if (!printed) await printLog(client, ended);
    process.stderr.write(`pingmon: ${resultLine(ended)}\n`);
    process.exitCode = ended.status === 'success' ? 0 : 1;
  }
}

/** The run named, else the latest (with `running`, the latest running one, else the latest, said so). */
async function runOf(client: Client, monitor: string, runId: string | undefined, running: boolean) {
  if (runId !== undefined) return client.getRun(monitor, runId);
  if (running) {
    const [current] = (await client.listRuns(monitor, { status: 'running', limit: 1 })).runs;
    if (current) return current;
    process.stderr.write(`No run of ${monitor} is running; the last run's log follows.\n`);
  }
  return (await client.listRuns(monitor, { limit: 1 })).runs[0];
}

async function printLog(client: Client, run: Run): Promise<void> {
  const log = await client.getLog(run.monitorId, run.runId);
  // A file or a pipe gets the log byte for byte; a terminal gets it as `pingmon browse` shows it, since the log is
  // the job's output and may hold sequences that clear the screen or retitle the window.
  if (log.hasLog) writeOutput(log.content!);
  else process.stderr.write('This run has no log.\n');
}
