import { Flags } from '@oclif/core';
import { formatDuration } from '@pingmon/sdk';
import type { MaintenanceWindow } from '@pingmon/sdk';
import { BaseCommand } from '../../base-command.js';
import { durationFlag } from '../../duration-flag.js';
import { loggedInClient, serverFlags } from '../../client.js';
import { when } from '../../output.js';

export default class MaintenanceAdd extends BaseCommand {
  static override summary = 'Add a maintenance window: from each time CRON names, for DURATION, nothing alerts';
  static override description =
    'For every monitor of the account, or only for those given with --monitor. Runs are still recorded; a run ' +
    'expected in the window does not count as missed; at its end one alert goes out for each monitor still down.';
  static override examples = [
    "<%= config.bin %> maintenance add --cron '0 2 * * 0' --tz Europe/Berlin --for 2h",
    "<%= config.bin %> maintenance add --cron '30 1 * * *' --for 45m --monitor mon_0mwrksujegHscDsv5wx",
  ];
  static override enableJsonFlag = true;
  static override flags = {
    ...serverFlags,
    cron: Flags.string({
      description: "5-field cron expression of each start, e.g. '0 2 * * 0' (quote it)",
      helpValue: 'EXPR',
      required: true,
    }),
    tz: Flags.string({ description: 'IANA timezone the cron expression is read in (default UTC)', helpValue: 'ZONE' }),
    for: durationFlag({ description: 'how long each window lasts: 30m, 2h, 1d, 1h30m', required: true }),
    monitor: Flags.string({
      description: 'only for this monitor (repeat for several; default: every monitor)',
      helpValue: 'MON',
      multiple: true,
    }),
  };

  async run(): Promise<MaintenanceWindow | void> {
    const { flags } = await this.parse(MaintenanceAdd);
    const window = await loggedInClient(flags).createMaintenanceWindow({
      cron: flags.cron,
      timezone: flags.tz,
      duration: flags.for,
      monitorIds: flags.monitor ?? null,
    });
    if (this.jsonEnabled()) return window;
    const scope = window.monitorIds === null ? 'every monitor' : window.monitorIds.join(', ');
    this.log(
      `Added ${window.windowId}: '${window.cron}' (${window.timezone}) for ${formatDuration(window.duration)}, ` +
        `${scope}. Next: ${when(window.nextStartAt)} UTC.`,
    );
  }
}
