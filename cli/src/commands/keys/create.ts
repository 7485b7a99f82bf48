import { Flags } from '@oclif/core';
import type { CreatedApiKey } from '@pingmon/sdk';
import { BaseCommand } from '../../base-command.js';
import { loggedInClient, serverFlags } from '../../client.js';

export default class KeysCreate extends BaseCommand {
  static override summary = 'Create an API key (shown once)';
  static override examples = [
    '<%= config.bin %> keys create --name backup-host',
    '<%= config.bin %> keys create --name ci --no-provision',
  ];
  static override enableJsonFlag = true;
  static override flags = {
    ...serverFlags,
    name: Flags.string({ description: 'what the key is for, e.g. the host that uses it', default: 'unnamed' }),
    provision: Flags.boolean({
      description:
        'let its pings create and update monitors through their settings (pingmon run --cron …); --no-provision: ' +
        'a ping-only key',
      default: true,
      allowNo: true,
    }),
  };

  async run(): Promise<CreatedApiKey | void> {
    const { flags } = await this.parse(KeysCreate);
    const key = await loggedInClient(flags).createApiKey({ name: flags.name, provision: flags.provision });
    if (this.jsonEnabled()) return key;
    this.log(`${key.keyId} (${key.name}${key.provision ? '' : ', ping-only'}): ${key.key}`);
    this.log('The key is shown only now: store it where your jobs can read it (PINGMON_API_KEY).');
  }
}
