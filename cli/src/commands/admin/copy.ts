import { Flags } from '@oclif/core';
import type { Config, CopyError, CopyProgress, DatabaseCopy } from '@pingmon/server';
import { BaseCommand } from '../../base-command.js';
import { databaseFlags } from '../../flags.js';
import { printTable } from '../../output.js';
import { loadServer } from '../../server-package.js';
import { serverEnvironment } from '../../settings.js';

/** A refusal of what the command line names is a usage error (2); anything else that stops the copy, 1. */
const EXIT_CODES: Partial<Record<CopyError['reason'], number>> = { same_database: 2, target_not_empty: 2 };

export default class AdminCopy extends BaseCommand {
  static override summary = 'Copy the whole database to another one: SQLite to PostgreSQL, or back';
  static override description =
    'Copies every table (accounts, users, keys, monitors, runs and their logs, rules, channels, alerts and their ' +
    'deliveries, incidents, sessions, audit entries, status pages) from the database `pingmon server` would use ' +
    '(--data-dir or --database-url, as for the server) to the one --to names: a PostgreSQL URL, or the data ' +
    'directory of an embedded SQLite database. The source is read in one snapshot, so a server may go on taking ' +
    'pings meanwhile; the target must be empty, and must not be served until the move is done. At the end every ' +
    "table of the target is read again and its row count and checksum compared with the source's. " +
    'A second pass with --update writes only what changed since (and deletes what the source no longer has): ' +
    'the cut-over steps are in docs/deploy.md#moving-to-postgresql.';
  static override examples = [
    '<%= config.bin %> admin copy --data-dir /var/lib/pingmon --to postgres://pingmon@db.internal/pingmon',
    '<%= config.bin %> admin copy --data-dir /var/lib/pingmon --to postgres://pingmon@db.internal/pingmon --update',
    '<%= config.bin %> admin copy --database-url postgres://pingmon@db.internal/pingmon --to /var/lib/pingmon-copy',
  ];
  static override enableJsonFlag = true;
  static override flags = {
    to: Flags.string({
      description: 'the database to copy into: postgres://user@host:5432/db, or a directory for SQLite',
      helpValue: 'URL|DIR',
      required: true,
    }),
    'to-schema': Flags.string({
      description: "the PostgreSQL schema to copy into (made if missing) [default: the user's search path]",
      helpValue: 'NAME',
    }),
    update: Flags.boolean({
      description: 'the target holds an earlier copy: write only the rows that differ, delete those the source lacks',
    }),
    ...databaseFlags,
  };

  async run(): Promise<DatabaseCopy | void> {
    const { flags } = await this.parse(AdminCopy);
    const { loadConfig, copyDatabase, CopyError } = await loadServer('pingmon admin copy');
    const source = loadConfig(serverEnvironment(), { dataDir: flags['data-dir'], databaseUrl: flags['database-url'] });
    const target = this.targetOf(source, flags.to, flags['to-schema']);
    const bar = process.stderr.isTTY && !this.jsonEnabled() ? progressBar() : undefined;
    let copy: DatabaseCopy;
    try {
      copy = await copyDatabase(source, target, { update: flags.update, onProgress: bar?.show });
    } catch (err) {
      if (err instanceof CopyError) this.error(err.message, { exit: EXIT_CODES[err.reason] ?? 1 });
      throw err;
    } finally {
      bar?.end();
    }
    if (this.jsonEnabled()) return copy;
    this.log(`${copy.update ? 'updated' : 'copied'}  ${copy.source} → ${copy.target}`);
    const rows = copy.tables.map((table) => [
      table.table,
      count(table.rows),
      count(table.inserted),
      count(table.updated),
      count(table.deleted),
      table.checksum,
    ]);
    printTable(['TABLE', 'ROWS', 'INSERTED', 'UPDATED', 'DELETED', 'CHECKSUM'], rows, (line) => this.log(line));
    this.log(
      `verified: every table's row count and checksum are the source's (${(copy.durationMs / 1000).toFixed(1)} s)`,
    );
  }

  private targetOf(source: Config, to: string, schema: string | undefined): Config {
    if (/^postgres(ql)?:\/\//i.test(to)) return { ...source, databaseUrl: to, databaseSchema: schema };
    if (/^[a-z][a-z0-9+.-]*:/i.test(to)) {
      this.error(
        `--to ${to.split(':')[0]}: is not a database pingmon copies to: give a PostgreSQL URL ` +
          '(postgres://user@host:5432/db) or the directory of an embedded SQLite database (/var/lib/pingmon)',
        { exit: 2 },
      );
    }
    if (schema !== undefined) this.error('--to-schema is for a PostgreSQL target; --to names a directory', { exit: 2 });
    return { ...source, databaseUrl: undefined, databaseSchema: undefined, dataDir: to };
  }
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** One line on the terminal, redrawn at most ten times a second: phase, table, a bar and the rows done. */
function progressBar() {
  let last = 0;
  let drawn = false;
  const show = (progress: CopyProgress) => {
    const now = Date.now();
    if (now - last < 100 && progress.done < progress.total) return;
    last = now;
    const width = 24;
    const filled = progress.total === 0 ? width : Math.min(width, Math.round((progress.done / progress.total) * width));
    const phase = progress.phase === 'copy' ? 'copying  ' : 'verifying';
    const bar = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
    const line = `${phase} ${progress.table.padEnd(20)} ${bar} ${count(progress.done)}/${count(progress.total)}`;
    process.stderr.write(`\r${line}\x1b[K`);
    drawn = true;
  };
  const end = () => {
    if (drawn) process.stderr.write('\r\x1b[K');
    drawn = false;
  };
  return { show, end };
}
