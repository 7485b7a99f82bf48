import { randomBytes } from 'node:crypto';

export type IdPrefix = 'acc' | 'usr' | 'mon' | 'run' | 'rule' | 'ch' | 'key' | 'alert';

/**
 * A server-generated identifier: prefix, underscore, the time in base 36 and 10 random characters.
 * Ids made later sort later, so new rows land at the end of an index instead of on a random page:
 * a commit of many new runs then writes a few pages, not one per run.
 */
export function newId(prefix: IdPrefix, now = Date.now()): string {
  return `${prefix}_${now.toString(36).padStart(9, '0')}${randomChars()}`;
}

// Drawing random bytes costs a system call; take them 4 KiB at a time.
let pool = Buffer.alloc(0);
let offset = 0;

function randomChars(): string {
  if (offset + 8 > pool.length) {
    pool = randomBytes(4096);
    offset = 0;
  }
  const bytes = pool.subarray(offset, (offset += 8));
  return bytes.toString('base64url').slice(0, 10).replace(/[-_]/g, 'x');
}
