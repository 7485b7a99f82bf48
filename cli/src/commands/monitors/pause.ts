import { Args } from '@oclif/core';
import type { Monitor } from '@pingmon/sdk';
import { BaseCommand } from '../../base-command.js';
import { loggedInClient, serverFlags } from '../../client.js';

export default class MonitorsPause extends BaseCommand {
  static override summary = 'Pause a monitor: it raises no alert until resumed (its pings are still recorded)';
  static override args = { monitor: Args.string({ description: 'monitor slug or id (mon_…)', required: true }) };
  static override enableJsonFlag = true;
  static override flags = { ...serverFlags };

  async run(): Promise<Monitor | void> {
    const { args, flags } = await this.parse(MonitorsPause);
    const monitor = await loggedInClient(flags).pauseMonitor(args.monitor);
    if (this.jsonEnabled()) return monitor;
    this.log(
      `Paused ${monitor.monitorId} (${monitor.name}): no alerts until pingmon monitors resume ${monitor.monitorId}`,
    );
  }
}
