import type { StatusPage } from '@pingmon/sdk';
import { BaseCommand } from '../../base-command.js';
import { loggedInClient, serverFlags } from '../../client.js';
import { serverAddress, statusPageLines } from '../../status-page.js';

export default class StatusPageShow extends BaseCommand {
  static override summary = "Show the account's public status page: its address, and each public monitor's badges";
  static override examples = ['<%= config.bin %> status-page show'];
  static override enableJsonFlag = true;
  static override flags = { ...serverFlags };

  async run(): Promise<StatusPage | void> {
    const { flags } = await this.parse(StatusPageShow);
    const page = await loggedInClient(flags).getStatusPage();
    if (this.jsonEnabled()) return page;
    for (const line of statusPageLines(page, serverAddress(flags))) this.log(line);
  }
}
