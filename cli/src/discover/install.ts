import { chmodSync, chownSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { defaultSpoolDir } from '@pingmon/sdk';
import { execa } from 'execa';

// Where a crontab is read from and installed to: the user's (`crontab -l`, `crontab -`) or a file written in
// place. The old one is copied first, and the slugs its lines report to are remembered beside the copies.

export interface CrontabSource {
  /** What the user reads: "crontab -l" or the file's path. */
  label: string;
  read(): Promise<string>;
  install(text: string): Promise<void>;
  /** A file name for this crontab's copies and record. */
  key: string;
}

export function userCrontab(): CrontabSource {
  return {
    label: 'crontab -l',
    key: 'crontab',
    async read() {
      const listed = await execa('crontab', ['-l'], { reject: false, stripFinalNewline: false });
      if (listed.failed && /no crontab for/i.test(listed.stderr)) return '';
      if (listed.failed)
        throw new Error(`crontab -l failed: ${listed.stderr.trim() || listed.shortMessage}; is cron installed?`);
      return listed.stdout;
    },
    async install(text) {
      const installed = await execa('crontab', ['-'], { input: text, reject: false });
      if (installed.failed) throw new Error(`crontab - refused the new crontab: ${installed.stderr.trim()}`);
    },
  };
}

export function fileCrontab(path: string): CrontabSource {
  return {
    label: path,
    key: path.replace(/^\/+/, '').replace(/[^A-Za-z0-9_.-]+/g, '-'),
    async read() {
      try {
        return readFileSync(path, 'utf8');
      } catch (err) {
        throw new Error(`cannot read ${path}: ${(err as Error).message}`, { cause: err });
      }
    },
    async install(text) {
      // Written beside it under a name cron skips (a dot in it), then renamed over it: cron never reads half a file.
      const stat = statSync(path);
      const temporary = join(dirname(path), `.${basename(path)}.pingmon-${process.pid}`);
      try {
        writeFileSync(temporary, text, { mode: stat.mode & 0o7777 });
        chmodSync(temporary, stat.mode & 0o7777);
        if (process.getuid?.() === 0) chownSync(temporary, stat.uid, stat.gid);
        renameSync(temporary, path);
      } catch (err) {
        rmSync(temporary, { force: true });
        throw new Error(`cannot write ${path}: ${(err as Error).message}`, { cause: err });
      }
    },
  };
}

/** `$XDG_STATE_HOME/pingmon/crontabs`: the copies of the crontabs before discover changed them, and the records. */
function crontabsDir(): string {
  return join(dirname(defaultSpoolDir()), 'crontabs');
}

/** Copies the crontab as it was; answers where. */
export function keepCopy(source: CrontabSource, text: string, now: Date): string {
  const dir = crontabsDir();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, `${source.key}.${now.toISOString().replace(/[:.]/g, '-')}`);
  writeFileSync(path, text, { mode: 0o600, flag: 'wx' });
  return path;
}

/** The slugs the crontab's lines reported to when discover last installed it. */
export function knownSlugs(source: CrontabSource): string[] {
  try {
    const record = JSON.parse(readFileSync(recordPath(source), 'utf8')) as { slugs?: unknown };
    return Array.isArray(record.slugs) ? record.slugs.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
}

export function rememberSlugs(source: CrontabSource, slugs: string[]): void {
  mkdirSync(crontabsDir(), { recursive: true, mode: 0o700 });
  writeFileSync(recordPath(source), `${JSON.stringify({ slugs: [...new Set(slugs)].sort() }, null, 2)}\n`, {
    mode: 0o600,
  });
}

function recordPath(source: CrontabSource): string {
  return join(crontabsDir(), `${source.key}.monitors.json`);
}
