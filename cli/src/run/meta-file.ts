import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseMetaLines } from './meta.js';
import { warn } from './warn.js';

/** The meta file is read up to this size; a job that writes more gets the first part. */
const META_FILE_MAX_BYTES = 64 * 1024;

/** The file named in PINGMON_META_FILE, for the job's key=number lines. */
export interface MetaFile {
  path: string;
  /** The job's lines; a line that is not key=number is skipped with a warning, the others kept. */
  read(): Record<string, number>;
  remove(): void;
}

/**
 * An empty file only we can read, removed when `remove` is called or this process exits; none (with a warning)
 * if it cannot be made.
 */
export function createMetaFile(): MetaFile | undefined {
  const path = join(tmpdir(), `pingmon-meta-${randomBytes(8).toString('hex')}`);
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (err) {
    warn(
      `cannot create a meta file in ${tmpdir()} (${(err as Error).message}); the job runs without PINGMON_META_FILE`,
    );
    return undefined;
  }
  const removeFile = () => rmSync(path, { force: true });
  process.once('exit', removeFile);
  return {
    path,
    read: () => readMetaFile(path),
    remove() {
      removeFile();
      process.off('exit', removeFile);
    },
  };
}

function readMetaFile(path: string): Record<string, number> {
  let text: string;
  try {
    const fd = openSync(path, 'r');
    const buffer = Buffer.alloc(META_FILE_MAX_BYTES);
    const size = readSync(fd, buffer, 0, buffer.length, 0);
    closeSync(fd);
    text = buffer.toString('utf8', 0, size);
    if (size === buffer.length) {
      text = text.slice(0, text.lastIndexOf('\n') + 1);
      warn(`PINGMON_META_FILE is larger than ${META_FILE_MAX_BYTES / 1024} KiB; only its first lines were read`);
    }
  } catch {
    return {};
  }
  const meta: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const parsed = parseMetaLines([line], 'PINGMON_META_FILE');
    if (parsed.ok) Object.assign(meta, parsed.meta);
    else warn(`${parsed.error}; line skipped`);
  }
  return meta;
}
