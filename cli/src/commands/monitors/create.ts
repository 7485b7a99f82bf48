import { Args } from '@oclif/core';
import type { Monitor } from '@pingmon/sdk';
import { BaseCommand } from '../../base-command.js';
import { loggedInClient, serverFlags } from '../../client.js';

export default class MonitorsCreate extends BaseCommand {
  static override summary = 'Create a monitor for a job';
  static override args = { name: Args.string({ description: 'a name for the job', required: true }) };
  static override enableJsonFlag = true;
  static override flags = { ...serverFlags };

  async run(): Promise<Monitor | void> {
    const { args, flags } = await this.parse(MonitorsCreate);
    const monitor = await loggedInClient(flags).createMonitor({ name: args.name });
    if (this.jsonEnabled()) return monitor;
    this.log(
      `Created ${monitor.monitorId} (${monitor.name}). ` +
        `Wrap the job with: pingmon run --monitor ${monitor.monitorId} -- COMMAND`,
    );
  }
}
