import { createClient } from '@pingmon/sdk';
import { BaseCommand } from '../base-command.js';
import { readSettings, writeSettings } from '../settings.js';

export default class Logout extends BaseCommand {
  static override summary = 'End your session on the server and forget the stored user token';
  static override description =
    'The server refuses the token from now on, wherever a copy of it is. When the server cannot be reached the ' +
    'token is forgotten all the same, and stays valid until it expires: `pingmon logout` says so.';

  async run(): Promise<void> {
    await this.parse(Logout);
    const { token, ...rest } = readSettings();
    if (!token) {
      this.log('Not logged in.');
      return;
    }
    let ended: string;
    try {
      if (!rest.url) throw new Error('no server URL is stored');
      await createClient({ baseUrl: rest.url, token, retryBudgetMs: 2_000 }).logout();
      ended = 'the server ended the session';
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      process.stderr.write(
        `pingmon: could not end the session on the server (${reason}): the token stays valid until it expires\n`,
      );
      ended = 'the session was not ended on the server';
    }
    const path = writeSettings(rest);
    this.log(`Logged out: ${ended}, and the token is removed from ${path}.`);
  }
}
