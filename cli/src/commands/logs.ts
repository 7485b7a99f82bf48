import { Args } from '@oclif/core';
import { clean } from '@pingmon/sdk/wire';
import { BaseCommand } from '../base-command.js';
import { loggedInClient, serverFlags } from '../client.js';

export default class Logs extends BaseCommand {
  static override summary = 'Print the log of one run, as it was stored';
  static override examples = [
    '<%= config.bin %> logs mon_0mwrcimaolGyOzk3ikq 01a201a4-ac38-7e5c-ac8f-8c012b117ffa | less -R',
  ];
  static override args = {
    monitor: Args.string({ description: 'monitor slug or id (mon_…)', required: true }),
    run: Args.string({ description: 'run id', required: true }),
  };
  static override flags = { ...serverFlags };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Logs);
    const log = await loggedInClient(flags).getLog(args.monitor, args.run);
    if (!log.hasLog) {
      process.stderr.write('This run has no log.\n');
      return;
    }
    // A file or a pipe gets the log byte for byte; a terminal gets it as `pingmon browse` shows it, since the log is
    // the job's output and may hold sequences that clear the screen or retitle the window.
    process.stdout.write(process.stdout.isTTY ? clean(log.content!) : log.content!);
  }
}
