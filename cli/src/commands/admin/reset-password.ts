import { randomBytes } from 'node:crypto';
import { fstatSync } from 'node:fs';
import { Flags } from '@oclif/core';
import { BaseCommand } from '../../base-command.js';
import { printDatabaseNotices } from '../../database-notices.js';
import { databaseFlags } from '../../flags.js';
import { loadServer } from '../../server-package.js';
import { serverEnvironment } from '../../settings.js';

export default class ResetPassword extends BaseCommand {
  static override summary = "Reset a user's password and end every session of theirs";
  static override description =
    'Works on the database directly, with the same database settings as `pingmon server`; no server needs to run. ' +
    'For a forgotten password, or a login that may have leaked: every token and dashboard session of the user is ' +
    'refused from now on. The new password is --password, else what is piped to stdin, else a random one printed ' +
    'once. `pingmon admin set-password` is the same command.';
  static override aliases = ['admin:set-password'];
  static override examples = [
    '<%= config.bin %> admin reset-password --email ops@example.com',
    'printf %s "$NEW_PW" | <%= config.bin %> admin reset-password --email ops@example.com',
    '<%= config.bin %> admin set-password --email ops@example.com --password "$NEW_PW"',
  ];
  static override flags = {
    email: Flags.string({ description: 'email of the user', required: true }),
    password: Flags.string({
      description: 'the new password, at least 8 characters (default: stdin when piped, else a random one)',
    }),
    'remove-second-factor': Flags.boolean({
      description: "turn the user's second factor off too (a lost phone and no recovery code left)",
    }),
    ...databaseFlags,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(ResetPassword);
    const given = flags.password ?? (await piped());
    const password = given ?? randomBytes(15).toString('base64url');
    const { loadConfig, openDatabase, closeDatabase, setPassword } = await loadServer('pingmon admin reset-password');
    const config = loadConfig(serverEnvironment(), { dataDir: flags['data-dir'], databaseUrl: flags['database-url'] });
    const db = await openDatabase(config);
    printDatabaseNotices(db);
    try {
      const removeSecondFactor = flags['remove-second-factor'];
      const done = await setPassword(db, { email: flags.email, password, removeSecondFactor });
      const email = flags.email.trim().toLowerCase();
      const ended = `${done.sessionsEnded} session${done.sessionsEnded === 1 ? '' : 's'} ended`;
      const factor = done.secondFactorRemoved ? '; second factor turned off' : '';
      if (given !== undefined) return this.log(`Password of ${email} set; ${ended}${factor}.`);
      this.log(`Password of ${email} set to: ${password}`);
      this.log(`It is shown only now: hand it over safely, and have them change it. ${ended}${factor}.`);
    } finally {
      await closeDatabase(db);
    }
  }
}

/**
 * The password piped to stdin (a pipe, a socket or a file: not a terminal, nor /dev/null, which are character
 * devices), without its final newline.
 */
async function piped(): Promise<string | undefined> {
  let stdin;
  try {
    stdin = fstatSync(0);
  } catch {
    return undefined; // closed
  }
  if (stdin.isCharacterDevice()) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
  if (text === '') throw new Error('stdin is empty: pipe the new password, or pass --password');
  return text;
}
