import { Args } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';
import { SETTING_KEYS, readSettings, settingsPath, storedField } from '../../settings.js';
import type { SettingKey, StoredSettings } from '../../settings.js';

export default class ConfigGet extends BaseCommand {
  static override summary = 'Show the stored settings (or one of them)';
  static override args = {
    key: Args.string({ description: 'url, token, api-key or monitor', options: [...SETTING_KEYS] }),
  };
  static override enableJsonFlag = true;

  async run(): Promise<StoredSettings | string | void> {
    const { args } = await this.parse(ConfigGet);
    const stored = readSettings();
    if (args.key) {
      const value = stored[storedField(args.key as SettingKey)];
      if (value === undefined) this.error(`${args.key} is not set in ${settingsPath()}`, { exit: 1 });
      // oclif prints a returned value only when it is truthy: an empty one is printed here.
      if (this.jsonEnabled() && value === '') this.logJson(value);
      this.log(value);
      return value;
    }
    if (this.jsonEnabled()) return stored;
    for (const key of SETTING_KEYS) {
      const value = stored[storedField(key)];
      // Secrets are shown cut short; `pingmon config get token` prints one in full.
      const shown =
        value === undefined ? '(not set)' : key === 'token' || key === 'api-key' ? `${value.slice(0, 10)}…` : value;
      this.log(`${key.padEnd(8)} ${shown}`);
    }
  }
}
