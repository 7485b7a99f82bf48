import { Args, Flags } from '@oclif/core';
import type { Backup, BackupError } from '@pingmon/server';
import { BaseCommand } from '../../base-command.js';
import { databaseFlags } from '../../flags.js';
import { loadServer } from '../../server-package.js';
import { serverEnvironment } from '../../settings.js';

/** A refusal of the file named is a wrong command line (2); a database that cannot be copied, or a failed copy, 1. */
const EXIT_CODES: Partial<Record<BackupError['reason'], number>> = {
  target_exists: 2,
  target_is_directory: 2,
  no_target_directory: 2,
  target_is_database: 2,
};

export default class AdminBackup extends BaseCommand {
  static override summary = 'Copy the SQLite database to a file, while servers go on using it';
  static override description =
    'Takes a consistent copy of the embedded SQLite database (VACUUM INTO: one snapshot, taken as the copy begins), ' +
    'with the same database settings as `pingmon server`; a server may be running and taking pings meanwhile. ' +
    'The copy is written under a temporary name and renamed once complete and checked. ' +
    'To restore, stop the server and put the file in place as pingmon.db (docs/deploy.md). ' +
    'PostgreSQL is backed up with pg_dump instead.';
  static override examples = [
    '<%= config.bin %> admin backup /var/backups/pingmon/pingmon-$(date +%F).db',
    '<%= config.bin %> admin backup --data-dir /var/lib/pingmon --force /var/backups/pingmon/latest.db --json',
  ];
  static override enableJsonFlag = true;
  static override args = {
    file: Args.string({ description: 'the backup file to write; its directory must exist', required: true }),
  };
  static override flags = {
    force: Flags.boolean({ description: 'replace FILE if it exists (it stays whole until the new copy is complete)' }),
    ...databaseFlags,
  };

  async run(): Promise<Backup | void> {
    const { args, flags } = await this.parse(AdminBackup);
    const { loadConfig, backupDatabase, BackupError } = await loadServer('pingmon admin backup');
    const config = loadConfig(serverEnvironment(), { dataDir: flags['data-dir'], databaseUrl: flags['database-url'] });
    let backup: Backup;
    try {
      backup = backupDatabase(config, args.file, { replace: flags.force });
    } catch (err) {
      if (err instanceof BackupError) this.error(err.message, { exit: EXIT_CODES[err.reason] ?? 1 });
      throw err;
    }
    if (this.jsonEnabled()) return backup;
    this.log(`backup  ${backup.path} (${size(backup.bytes)})`);
    this.log(`holds   ${plural(backup.monitors, 'monitor')}, ${plural(backup.runs, 'run')}`);
    this.log(`of      ${backup.source}, copied in ${(backup.durationMs / 1000).toFixed(1)} s`);
  }
}

function size(bytes: number): string {
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
