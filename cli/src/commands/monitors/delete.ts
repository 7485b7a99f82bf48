import { Args } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';
import { loggedInClient, serverFlags } from '../../client.js';

export default class MonitorsDelete extends BaseCommand {
  static override summary = 'Delete a monitor with all its runs and logs';
  static override args = { monitor: Args.string({ description: 'monitor slug or id (mon_…)', required: true }) };
  static override flags = { ...serverFlags };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(MonitorsDelete);
    await loggedInClient(flags).deleteMonitor(args.monitor);
    this.log(`Deleted ${args.monitor} with its runs and logs.`);
  }
}
