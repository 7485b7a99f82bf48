import { Args } from '@oclif/core';
import type { Monitor } from '@pingmon/sdk';
import { BaseCommand } from '../../base-command.js';
import { loggedInClient, serverFlags } from '../../client.js';
import { duration, plural, statusText, when } from '../../output.js';

export default class MonitorsShow extends BaseCommand {
  static override summary = 'Show one monitor, its last run and recent failures';
  static override args = { monitor: Args.string({ description: 'monitor id (mon_…)', required: true }) };
  static override enableJsonFlag = true;
  static override flags = { ...serverFlags };

  async run(): Promise<Monitor | void> {
    const { args, flags } = await this.parse(MonitorsShow);
    const monitor = await loggedInClient(flags).getMonitor(args.monitor);
    if (this.jsonEnabled()) return monitor;
    const last = monitor.lastRun;
    this.log(`monitor   ${monitor.monitorId}`);
    this.log(`name      ${monitor.name}`);
    this.log(`created   ${when(monitor.createdAt)}`);
    const times = last && `, started ${when(last.startedAt)}, took ${duration(last.durationMs)}`;
    this.log(`last run  ${last ? `${statusText(last.status)} ${last.runId}${times}` : 'none yet'}`);
    const { runs, failed, silentFailures } = monitor.recentRuns;
    if (runs > 0)
      this.log(
        `recent    ${failed} failed, ${plural(silentFailures, 'silent failure')} in the last ${plural(runs, 'run')}`,
      );
  }
}
