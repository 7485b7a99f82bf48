import { Args } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';
import { SETTING_KEYS, notAServerUrl, readSettings, storedField, writeSettings } from '../../settings.js';
import type { SettingKey } from '../../settings.js';

export default class ConfigSet extends BaseCommand {
  static override summary = 'Store a setting: url, token, api-key or monitor';
  static override examples = [
    '<%= config.bin %> config set api-key pm_…',
    '<%= config.bin %> config set url http://pingmon.internal:8080',
  ];
  static override args = {
    key: Args.string({ description: 'url, token, api-key or monitor', options: [...SETTING_KEYS], required: true }),
    value: Args.string({ description: 'the value', required: true }),
  };

  async run(): Promise<void> {
    const { args } = await this.parse(ConfigSet);
    const key = args.key as SettingKey;
    const problem = key === 'url' ? notAServerUrl(args.value) : undefined;
    if (problem) this.error(`url ${problem}`, { exit: 2 });
    const path = writeSettings({ ...readSettings(), [storedField(key)]: args.value });
    this.log(`${key} saved to ${path}.`);
  }
}
