import { Args } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';
import { loggedInClient, serverFlags } from '../../client.js';

export default class MaintenanceRemove extends BaseCommand {
  static override summary = 'Remove a maintenance window (alerts it held back go out at the next sweep if still due)';
  static override args = { window: Args.string({ description: 'window id (mw_…)', required: true }) };
  static override flags = { ...serverFlags };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(MaintenanceRemove);
    await loggedInClient(flags).deleteMaintenanceWindow(args.window);
    this.log(`Removed ${args.window}.`);
  }
}
