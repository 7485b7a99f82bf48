import { Flags } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';
import { loggedInClient, serverFlags } from '../../client.js';
import { printTable, when } from '../../output.js';

export default class KeysList extends BaseCommand {
  static override summary = 'List the account\'s API keys (never the keys themselves)';
  static override flags = { ...serverFlags, json: Flags.boolean({ description: 'print JSON' }) };

  async run(): Promise<void> {
    const { flags } = await this.parse(KeysList);
    const { apiKeys } = await loggedInClient(flags).listApiKeys();
    if (flags.json) return this.log(JSON.stringify(apiKeys));
    printTable(
      ['ID', 'NAME', 'STARTS WITH', 'CREATED', 'REVOKED'],
      apiKeys.map((k) => [k.keyId, k.name, `${k.prefix}…`, when(k.createdAt), when(k.revokedAt)]),
      (line) => this.log(line),
    );
  }
}
