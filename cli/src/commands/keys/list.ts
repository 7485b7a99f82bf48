import type { ApiKey } from '@pingmon/sdk';
import { BaseCommand } from '../../base-command.js';
import { listAllApiKeys, loggedInClient, serverFlags } from '../../client.js';
import { printTable, when } from '../../output.js';

export default class KeysList extends BaseCommand {
  static override summary = "List the account's API keys (never the keys themselves)";
  static override description =
    'SCOPE is ping (sends pings; ping-only: its pings never create or change monitors), read or write. MONITORS ' +
    'lists the monitors a key is limited to. LAST USED is to the minute.';
  static override enableJsonFlag = true;
  static override flags = { ...serverFlags };

  async run(): Promise<ApiKey[] | void> {
    const { flags } = await this.parse(KeysList);
    const apiKeys = await listAllApiKeys(loggedInClient(flags));
    if (this.jsonEnabled()) return apiKeys;
    printTable(
      ['ID', 'NAME', 'STARTS WITH', 'SCOPE', 'MONITORS', 'LAST USED', 'CREATED', 'REVOKED'],
      apiKeys.map((k) => [
        k.keyId,
        k.name,
        `${k.prefix}…`,
        k.scope === 'ping' && !k.provision ? 'ping-only' : k.scope,
        k.monitorIds === null ? 'all' : k.monitorIds.join(', '),
        when(k.lastUsedAt),
        when(k.createdAt),
        when(k.revokedAt),
      ]),
      (line) => this.log(line),
    );
  }
}
