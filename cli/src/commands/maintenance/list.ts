import type { MaintenanceWindow } from '@pingmon/sdk';
import { formatDuration } from '@pingmon/sdk';
import { BaseCommand } from '../../base-command.js';
import { loggedInClient, serverFlags } from '../../client.js';
import { printTable, when } from '../../output.js';

export default class MaintenanceList extends BaseCommand {
  static override summary = "List the account's maintenance windows";
  static override enableJsonFlag = true;
  static override flags = { ...serverFlags };

  async run(): Promise<MaintenanceWindow[] | void> {
    const { flags } = await this.parse(MaintenanceList);
    const { maintenanceWindows: windows } = await loggedInClient(flags).listMaintenanceWindows();
    if (this.jsonEnabled()) return windows;
    if (windows.length === 0) {
      return this.log("No maintenance windows: add one with `pingmon maintenance add --cron '0 2 * * 0' --for 2h`.");
    }
    printTable(
      ['ID', 'CRON', 'TIMEZONE', 'FOR', 'MONITORS', 'NEXT (UTC)'],
      windows.map((w) => [
        w.windowId,
        w.cron,
        w.timezone,
        formatDuration(w.duration),
        w.monitorIds === null ? 'all' : w.monitorIds.join(' '),
        w.activeUntil === null ? when(w.nextStartAt) : `on until ${when(w.activeUntil)}`,
      ]),
      (line) => this.log(line),
    );
  }
}
