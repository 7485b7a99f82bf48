import type { ApiKey } from '@pingmon/sdk';
import { BaseCommand } from '../../base-command.js';
import { listAllApiKeys, loggedInClient, serverFlags } from '../../client.js';
import { printTable, when } from '../../output.js';

export default class KeysList extends BaseCommand {
  static override summary = "List the account's API keys (never the keys themselves)";
  static override enableJsonFlag = true;
  static override flags = { ...serverFlags };

  async run(): Promise<ApiKey[] | void> {
    const { flags } = await this.parse(KeysList);
    const apiKeys = await listAllApiKeys(loggedInClient(flags));
    if (this.jsonEnabled()) return apiKeys;
    printTable(
      ['ID', 'NAME', 'STARTS WITH', 'MONITORS', 'CREATED', 'REVOKED'],
      apiKeys.map((k) => [
        k.keyId,
        k.name,
        `${k.prefix}…`,
        k.provision ? 'provision' : 'ping-only',
        when(k.createdAt),
        when(k.revokedAt),
      ]),
      (line) => this.log(line),
    );
  }
}
