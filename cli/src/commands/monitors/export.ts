import { Flags } from '@oclif/core';
import { exportText } from '../../as-code/export.js';
import { readAccount } from '../../as-code/account.js';
import { BaseCommand } from '../../base-command.js';
import { loggedInClient, serverFlags } from '../../client.js';

export default class MonitorsExport extends BaseCommand {
  static override summary = 'Print your monitors, their rules and channel routing as a file for `pingmon apply`';
  static override description =
    'Monitors are named by slug, channels by name; channel URLs and secrets are left out. ' +
    'Applying what it prints to the same server changes nothing.';
  static override examples = [
    '<%= config.bin %> monitors export > pingmon.yaml',
    '<%= config.bin %> monitors export --format json',
  ];
  static override flags = {
    ...serverFlags,
    format: Flags.option({
      description: 'yaml (default) or json',
      options: ['yaml', 'json'] as const,
      default: 'yaml',
    })(),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(MonitorsExport);
    const account = await readAccount(loggedInClient(flags));
    process.stdout.write(exportText(account, flags.format));
  }
}
