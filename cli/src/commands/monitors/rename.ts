import { Args } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';
import { loggedInClient, serverFlags } from '../../client.js';

export default class MonitorsRename extends BaseCommand {
  static override summary = 'Rename a monitor';
  static override args = {
    monitor: Args.string({ description: 'monitor slug or id (mon_…)', required: true }),
    name: Args.string({ description: 'the new name', required: true }),
  };
  static override flags = { ...serverFlags };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(MonitorsRename);
    const monitor = await loggedInClient(flags).updateMonitor(args.monitor, { name: args.name });
    this.log(`Renamed ${monitor.monitorId} to ${monitor.name}.`);
  }
}
