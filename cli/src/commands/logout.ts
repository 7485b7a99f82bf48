import { BaseCommand } from '../base-command.js';
import { readSettings, writeSettings } from '../settings.js';

export default class Logout extends BaseCommand {
  static override summary = 'Forget the stored user token';

  async run(): Promise<void> {
    await this.parse(Logout);
    const { token, ...rest } = readSettings();
    if (!token) {
      this.log('Not logged in.');
      return;
    }
    const path = writeSettings(rest);
    this.log(`Logged out: the token is removed from ${path}.`);
  }
}
