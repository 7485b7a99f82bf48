import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';
import { loggedInClient, serverFlags } from '../../client.js';

export default class MonitorsCreate extends BaseCommand {
  static override summary = 'Create a monitor for a job';
  static override args = { name: Args.string({ description: 'a name for the job', required: true }) };
  static override flags = { ...serverFlags, json: Flags.boolean({ description: 'print JSON' }) };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(MonitorsCreate);
    const monitor = await loggedInClient(flags).createMonitor({ name: args.name });
    if (flags.json) return this.log(JSON.stringify(monitor));
    this.log(`Created ${monitor.monitorId} (${monitor.name}). Wrap the job with: pingmon run --monitor ${monitor.monitorId} -- COMMAND`);
  }
}
