import { Flags } from '@oclif/core';
import { PLANS } from '@pingmon/sdk/wire';
import type { NewAccount } from '@pingmon/server';
import { BaseCommand } from '../../base-command.js';
import { printDatabaseNotices } from '../../database-notices.js';
import { databaseFlags } from '../../flags.js';
import { loadServer } from '../../server-package.js';
import { serverEnvironment } from '../../settings.js';

export default class CreateAccount extends BaseCommand {
  static override summary = 'Create an account with its first user and API key';
  static override description =
    'Works on the database directly, with the same database settings as `pingmon server`; no server needs to run. ' +
    'The API key is shown once: store it.';
  static override examples = [
    '<%= config.bin %> admin create-account --email ops@example.com --password "correct horse battery"',
    '<%= config.bin %> admin create-account --email ops@example.com --password "$PW" --plan pro --json',
  ];
  static override enableJsonFlag = true;
  static override flags = {
    email: Flags.string({ description: 'email of the first user (their login)', required: true }),
    password: Flags.string({ description: 'password of the first user, at least 8 characters', required: true }),
    plan: Flags.option({
      description: 'plan: sets the minimum interval between runs of one monitor',
      options: PLANS,
      default: 'free',
    })(),
    ...databaseFlags,
  };

  async run(): Promise<NewAccount | void> {
    const { flags } = await this.parse(CreateAccount);
    const { loadConfig, openDatabase, closeDatabase, createAccount } = await loadServer('pingmon admin create-account');
    const config = loadConfig(serverEnvironment(), { dataDir: flags['data-dir'], databaseUrl: flags['database-url'] });
    const db = await openDatabase(config);
    printDatabaseNotices(db);
    try {
      const { plan } = flags;
      const created = await createAccount(db, { email: flags.email, password: flags.password, plan });
      if (this.jsonEnabled()) return created;
      this.log(`account  ${created.accountId} (plan ${plan})`);
      this.log(`user     ${created.userId} (${flags.email.trim().toLowerCase()})`);
      this.log(`API key  ${created.apiKey}`);
      this.log('The API key is shown only now: store it where your jobs can read it (e.g. PINGMON_API_KEY).');
    } finally {
      await closeDatabase(db);
    }
  }
}
