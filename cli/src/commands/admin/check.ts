import type { DatabaseCheck } from '@pingmon/server';
import { BaseCommand } from '../../base-command.js';
import { databaseFlags } from '../../flags.js';
import { loadServer } from '../../server-package.js';
import { serverEnvironment } from '../../settings.js';

export default class AdminCheck extends BaseCommand {
  static override summary =
    'Show the database schema version, the migrations pending, and whether the data holds together';
  static override description =
    'Reads the database `pingmon server` would use, without changing it: the last migration applied, the migrations ' +
    'this version would apply at its next start (listed, not applied), rows per table, and integrity (SQLite: ' +
    'PRAGMA integrity_check and foreign_key_check; PostgreSQL: every table there, foreign keys validated). ' +
    'Exits 1 when it finds a problem, naming it; pending migrations are not one. Run it before starting an upgraded ' +
    'server (docs/deploy.md#upgrading); a server may be running meanwhile.';
  static override examples = [
    '<%= config.bin %> admin check --data-dir /var/lib/pingmon',
    '<%= config.bin %> admin check --database-url postgres://pingmon@db/pingmon --json',
  ];
  static override enableJsonFlag = true;
  static override flags = { ...databaseFlags };

  async run(): Promise<DatabaseCheck | void> {
    const { flags } = await this.parse(AdminCheck);
    const { loadConfig, checkDatabase, redactUrl } = await loadServer('pingmon admin check');
    const config = loadConfig(serverEnvironment(), { dataDir: flags['data-dir'], databaseUrl: flags['database-url'] });
    let check: DatabaseCheck;
    try {
      check = await checkDatabase(config);
    } catch (err) {
      const where = config.databaseUrl ? redactUrl(config.databaseUrl) : config.dataDir;
      this.error(`cannot read the database at ${where}: ${err instanceof Error ? err.message : String(err)}`, {
        exit: 1,
      });
    }
    if (check.problems.length > 0) process.exitCode = 1;
    if (this.jsonEnabled()) return check;
    this.log(`database  ${check.location}`);
    this.log(`schema    ${check.schemaVersion ?? 'none yet (the server creates it at its first start)'}`);
    const pending = check.pending.length === 0 ? 'none' : check.pending.join(', ');
    this.log(`pending   ${pending}${check.pending.length > 0 ? ' (applied at the next server start)' : ''}`);
    const rows = Object.entries(check.rows).map(([table, count]) => `${table} ${count}`);
    if (rows.length > 0) this.log(`rows      ${rows.join(', ')}`);
    if (check.problems.length === 0) {
      this.log('integrity ok');
      return;
    }
    for (const problem of check.problems) this.log(`problem   ${problem}`);
  }
}
