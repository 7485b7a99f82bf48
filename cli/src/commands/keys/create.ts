import { Flags } from '@oclif/core';
import type { CreatedApiKey } from '@pingmon/sdk';
import { KEY_SCOPES } from '@pingmon/sdk';
import { BaseCommand } from '../../base-command.js';
import { loggedInClient, serverFlags } from '../../client.js';
import { keyScopeText } from '../../key-text.js';

export default class KeysCreate extends BaseCommand {
  static override summary = 'Create an API key (shown once)';
  static override description =
    'A ping key (the default) sends pings; a read key reads the management API (monitors, runs, logs, alerts); a ' +
    'write key changes it too. --monitor limits the key to some monitors. Admins and owners create keys.';
  static override examples = [
    '<%= config.bin %> keys create --name backup-host',
    '<%= config.bin %> keys create --name ci --no-provision',
    '<%= config.bin %> keys create --name grafana --scope read',
    '<%= config.bin %> keys create --name deploy --scope write --monitor nightly-backup --monitor db-dump',
  ];
  static override enableJsonFlag = true;
  static override flags = {
    ...serverFlags,
    name: Flags.string({ description: 'what the key is for, e.g. the host that uses it', default: 'unnamed' }),
    scope: Flags.string({
      description: 'ping: sends pings; read: reads the management API; write: changes it too',
      options: [...KEY_SCOPES],
      default: 'ping',
    }),
    monitor: Flags.string({
      description: 'limit the key to this monitor (id or slug); repeat for several',
      multiple: true,
    }),
    provision: Flags.boolean({
      description:
        'let its pings create and update monitors through their settings (pingmon run --cron …); --no-provision: ' +
        'a ping-only key (ping keys only)',
      allowNo: true,
    }),
  };

  async run(): Promise<CreatedApiKey | void> {
    const { flags } = await this.parse(KeysCreate);
    const scope = flags.scope as CreatedApiKey['scope'];
    if (scope !== 'ping' && flags.provision !== undefined)
      this.error(`--provision and --no-provision are for ping keys: a ${scope} key never pings`, { exit: 2 });
    const key = await loggedInClient(flags).createApiKey({
      name: flags.name,
      scope,
      ...(flags.provision !== undefined && { provision: flags.provision }),
      ...(flags.monitor && { monitorIds: flags.monitor }),
    });
    if (this.jsonEnabled()) return key;
    this.log(`${key.keyId} (${key.name}, ${keyScopeText(key)}): ${key.key}`);
    this.log(
      key.scope === 'ping'
        ? 'The key is shown only now: store it where your jobs can read it (PINGMON_API_KEY).'
        : 'The key is shown only now: send it as Authorization: Bearer <key> (or PINGMON_TOKEN for pingmon).',
    );
  }
}
