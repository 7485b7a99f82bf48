import { chmodSync, closeSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';
import { basename } from 'node:path';

/** The database file and those SQLite keeps beside it: the only files pingmon writes to the data directory. */
const SQLITE_SUFFIXES = ['', '-wal', '-shm', '-journal'];

/** Group and other permission bits. */
const OPEN = 0o077;

const octal = (mode: number): string => (mode & 0o777).toString(8).padStart(4, '0');

/**
 * Makes the data directory (0700) and the SQLite files (0600) their owner's alone, whatever the umask: the
 * database holds the secret that signs user tokens. The file is made before SQLite opens it, as SQLite gives
 * a new -wal and -shm the main file's mode; looser modes (an older pingmon's) are tightened.
 * Returns what the log should say: what was tightened, and what could not be.
 */
export function keepPrivate(dataDir: string, filename: string): string[] {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  closeSync(openSync(filename, 'a', 0o600));
  const files = SQLITE_SUFFIXES.map((suffix) => filename + suffix);
  const result: Tightening = { tightened: [], notices: [] };
  const names = new Set(files.map((file) => basename(file)));
  const others = readdirSync(dataDir).filter((name) => !names.has(name));
  // Another file in the directory says it is not pingmon's alone: its mode is someone else's decision.
  if (others.length === 0) tighten(dataDir, 0o700, result);
  else if (isOpen(dataDir)) result.notices.push(sharedDirectory(dataDir, others));
  for (const file of files) tighten(file, 0o600, result);
  if (result.tightened.length === 0) return result.notices;
  const tightened =
    `tightened ${result.tightened.join(', ')}: the database holds the secret that signs user tokens, ` +
    'and only its owner may read it';
  return [tightened, ...result.notices];
}

interface Tightening {
  tightened: string[];
  notices: string[];
}

function tighten(path: string, mode: number, result: Tightening): void {
  const was = modeOf(path);
  if (was === undefined || (was & OPEN) === 0) return;
  const now = was & mode;
  try {
    chmodSync(path, now);
    result.tightened.push(`${path} from ${octal(was)} to ${octal(now)}`);
  } catch (err) {
    // Not ours (made by another user, or root): say so, and go on as before.
    result.notices.push(
      `${path} is open to other users (mode ${octal(was)}) and pingmon cannot change that ` +
        `(${(err as Error).message}): run chmod ${mode.toString(8)} ${path} as its owner`,
    );
  }
}

function sharedDirectory(dataDir: string, others: string[]): string {
  const named = others.slice(0, 3).join(', ') + (others.length > 3 ? ', …' : '');
  return (
    `the data directory ${dataDir} is open to other users (mode ${octal(modeOf(dataDir)!)}) and holds files ` +
    `other than pingmon's (${named}), so pingmon leaves its mode alone: run chmod 700 ${dataDir}, ` +
    'or give pingmon a directory of its own'
  );
}

function isOpen(path: string): boolean {
  return ((modeOf(path) ?? 0) & OPEN) !== 0;
}

function modeOf(path: string): number | undefined {
  try {
    return statSync(path).mode;
  } catch {
    return undefined;
  }
}
