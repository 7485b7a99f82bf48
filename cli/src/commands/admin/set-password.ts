import { Flags } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';
import { printDatabaseNotices } from '../../database-notices.js';
import { databaseFlags } from '../../flags.js';
import { loadServer } from '../../server-package.js';
import { serverEnvironment } from '../../settings.js';

export default class SetPassword extends BaseCommand {
  static override summary = "Set a user's password and end every session of theirs";
  static override description =
    'Works on the database directly, with the same database settings as `pingmon server`; no server needs to run. ' +
    'For a forgotten password, or a login that may have leaked: every token and dashboard session of the user is ' +
    'refused from now on.';
  static override examples = ['<%= config.bin %> admin set-password --email ops@example.com --password "$NEW_PW"'];
  static override flags = {
    email: Flags.string({ description: 'email of the user', required: true }),
    password: Flags.string({ description: 'the new password, at least 8 characters', required: true }),
    ...databaseFlags,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(SetPassword);
    const { loadConfig, openDatabase, closeDatabase, setPassword } = await loadServer('pingmon admin set-password');
    const config = loadConfig(serverEnvironment(), { dataDir: flags['data-dir'], databaseUrl: flags['database-url'] });
    const db = await openDatabase(config);
    printDatabaseNotices(db);
    try {
      const { sessionsEnded } = await setPassword(db, { email: flags.email, password: flags.password });
      const email = flags.email.trim().toLowerCase();
      this.log(`Password of ${email} set; ${sessionsEnded} session${sessionsEnded === 1 ? '' : 's'} ended.`);
    } finally {
      await closeDatabase(db);
    }
  }
}
