import { Args } from '@oclif/core';
import type { Monitor } from '@pingmon/sdk';
import { BaseCommand } from '../../base-command.js';
import { loggedInClient, serverFlags } from '../../client.js';
import { monitorStatusText } from '../../monitor-settings.js';
import { when } from '../../output.js';

export default class MonitorsResume extends BaseCommand {
  static override summary = 'Resume a paused monitor: it expects its schedule again and alerts again';
  static override args = { monitor: Args.string({ description: 'monitor slug or id (mon_…)', required: true }) };
  static override enableJsonFlag = true;
  static override flags = { ...serverFlags };

  async run(): Promise<Monitor | void> {
    const { args, flags } = await this.parse(MonitorsResume);
    const monitor = await loggedInClient(flags).resumeMonitor(args.monitor);
    if (this.jsonEnabled()) return monitor;
    const next = monitor.nextExpectedAt ? `; next run expected ${when(monitor.nextExpectedAt)} UTC` : '';
    this.log(`Resumed ${monitor.monitorId} (${monitor.name}): ${monitorStatusText(monitor.status)}${next}.`);
  }
}
