import { closeSync, fsyncSync, linkSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { Config } from '../config.js';
import { redactUrl } from '../config.js';

/** Why a backup was not made: the first five are refusals before anything is copied. */
export type BackupFailure =
  | 'postgres'
  | 'no_database'
  | 'target_exists'
  | 'target_is_directory'
  | 'no_target_directory'
  | 'target_is_database'
  | 'failed';

export class BackupError extends Error {
  constructor(
    readonly reason: BackupFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface Backup {
  /** The backup file, absolute. */
  path: string;
  /** The live database it copies. */
  source: string;
  bytes: number;
  /** What the backup holds, counted in the copy itself. */
  monitors: number;
  runs: number;
  durationMs: number;
}

/** Another process's write lock is waited for this long before the copy's read transaction begins. */
const BUSY_TIMEOUT_MS = 5_000;

/**
 * Copies the embedded SQLite database to `target` while servers go on writing to it. `VACUUM INTO` reads
 * the whole database in one read transaction: in WAL mode that is a snapshot taken as it begins, which
 * writers do not wait for and whose pages they cannot change (their writes go to the WAL, past the
 * snapshot's end), so the copy is consistent and never starts over as the backup API does when another
 * process writes. The copy is written under a temporary name, checked, synced, and only then given its name.
 */
export function backupDatabase(config: Config, target: string, options: { replace: boolean }): Backup {
  const startedAt = Date.now();
  const source = sourceOf(config);
  const path = resolve(target);
  checkTarget(target, path, source, options.replace);
  const partial = `${path}.${process.pid}.partial`;
  try {
    copy(source, partial);
    const counts = check(partial);
    sync(partial);
    place(partial, path, options.replace);
    sync(dirname(path));
    return { path, source, bytes: statSync(path).size, ...counts, durationMs: Date.now() - startedAt };
  } catch (err) {
    rmSync(partial, { force: true });
    if (err instanceof BackupError) throw err;
    throw new BackupError('failed', `cannot back up ${source}: ${(err as Error).message}`, { cause: err });
  }
}

function sourceOf(config: Config): string {
  if (config.databaseUrl) {
    const schema = config.databaseSchema ? ` --schema=${config.databaseSchema}` : '';
    throw new BackupError(
      'postgres',
      `the database is PostgreSQL (${redactUrl(config.databaseUrl)}), and pingmon admin backup copies the embedded ` +
        `SQLite file only: back PostgreSQL up with pg_dump, under umask 077 (the dump holds the secret that signs ` +
        `user tokens), e.g. (umask 077 && pg_dump --format=custom${schema} --file=pingmon.dump ` +
        `"$PINGMON_DATABASE_URL")`,
    );
  }
  const source = join(resolve(config.dataDir), 'pingmon.db');
  if (!statOf(source)?.isFile()) {
    throw new BackupError(
      'no_database',
      `there is no database at ${source} yet: check --data-dir (or PINGMON_DATA_DIR), or start pingmon server ` +
        'once to create it',
    );
  }
  return source;
}

function checkTarget(target: string, path: string, source: string, replace: boolean): void {
  const existing = statOf(path);
  if (existing?.isDirectory() || /[\\/]$/.test(target)) {
    const example = join(path, 'pingmon-backup.db');
    throw new BackupError('target_is_directory', `${target} is a directory: name the backup file, e.g. ${example}`);
  }
  const live = statOf(source)!;
  if (existing && existing.dev === live.dev && existing.ino === live.ino) {
    throw new BackupError('target_is_database', `${path} is the live database itself: name another file`);
  }
  if (existing && !replace) throw targetExists(path);
  if (!statOf(dirname(path))?.isDirectory()) {
    throw new BackupError(
      'no_target_directory',
      `the directory ${dirname(path)} does not exist: create it first (mkdir -p ${dirname(path)})`,
    );
  }
}

function copy(source: string, partial: string): void {
  // Not read-only, though it writes nothing: a read-only connection leaves the -wal and -shm files it had to
  // create behind, owned by whoever ran the backup; the last connection to close removes them.
  const db = new BetterSqlite3(source, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  try {
    // Made empty first (VACUUM INTO takes an empty file) so that it is the owner's alone: the copy holds the
    // secret that signs user tokens, and password and API key hashes.
    closeSync(openSync(partial, 'wx', 0o600));
    db.prepare('vacuum into ?').run(partial);
  } finally {
    db.close();
  }
}

/** The copy is opened again and checked: a backup that cannot be read is no backup. */
function check(partial: string): Pick<Backup, 'monitors' | 'runs'> {
  const db = new BetterSqlite3(partial, { readonly: true, fileMustExist: true });
  try {
    const result = db.pragma('quick_check', { simple: true });
    if (result !== 'ok') throw new Error(`the copy failed its check (${String(result)})`);
    const count = (table: 'monitors' | 'runs') =>
      (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
    return { monitors: count('monitors'), runs: count('runs') };
  } finally {
    db.close();
  }
}

/** VACUUM INTO does not sync what it wrote: a power loss just after the rename could leave a torn backup. */
function sync(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Without `replace`, a hard link gives the name only if nothing holds it yet (a file made since the check
 * is not overwritten); with it, a rename replaces the old backup in one step, which stays whole until then.
 */
function place(partial: string, path: string, replace: boolean): void {
  if (replace) return renameSync(partial, path);
  try {
    linkSync(partial, path);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'EEXIST') throw targetExists(path);
    // A file system without hard links: the check above is the guard.
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw err;
    return renameSync(partial, path);
  }
  rmSync(partial);
}

function targetExists(path: string): BackupError {
  return new BackupError('target_exists', `${path} already exists: name another file, or add --force to replace it`);
}

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
