import { randomBytes } from 'node:crypto';

export type IdPrefix =
  'acc' | 'usr' | 'mon' | 'rule' | 'ch' | 'key' | 'alert' | 'ses' | 'swp' | 'mw' | 'evt' | 'aud' | 'inv';

// Base 36, lower case: text that sorts the same under any collation (C, en_US…).
const DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz';
const TAIL_LENGTH = 10;

/** The last id made: the next one made in the same millisecond follows it. `stamp` is `time` as the id writes it. */
let last = { time: 0, stamp: '', tail: [] as number[] };

/**
 * A server-generated identifier: prefix, underscore, the time in base 36 and 10 random characters.
 * Ids made later sort later, so new rows land at the end of an index instead of on a random page:
 * a commit of many new runs then writes a few pages, not one per run. Within one millisecond (or for a
 * `now` read before the last id was made) the tail counts up from the last id's instead of being drawn
 * anew: lists ordered by time, then id, keep the order things were made in, the documented order of rules
 * ("in the order added") and of an alert's deliveries (the order its channels were created).
 */
export function newId(prefix: IdPrefix, now = Date.now()): string {
  if (now > last.time || !countUp(last.tail)) {
    const time = Math.max(now, last.time + 1);
    last = { time, stamp: time.toString(36).padStart(9, '0'), tail: randomTail() };
  }
  // A loop, not map and join: one id per ping, and the two cost four times as much.
  let tail = '';
  for (const digit of last.tail) tail += DIGITS[digit];
  return `${prefix}_${last.stamp}${tail}`;
}

/**
 * The id `newId` would make at `time`, its tail taken from `seed` instead of drawn: the same seed, the same id. A
 * row keyed by it can be inserted once (the session a CLI sign-in code opens: routes/cli-sign-in.ts).
 */
export function idFrom(prefix: IdPrefix, time: number, seed: Uint8Array): string {
  let tail = '';
  for (const byte of seed.subarray(0, TAIL_LENGTH)) tail += DIGITS[byte % DIGITS.length];
  return `${prefix}_${time.toString(36).padStart(9, '0')}${tail}`;
}

/** Adds one to the tail in place; false when it was the last one (all z), left unchanged. */
function countUp(tail: number[]): boolean {
  for (let i = tail.length - 1; i >= 0; i--) {
    if (tail[i]! < DIGITS.length - 1) {
      tail[i] = tail[i]! + 1;
      tail.fill(0, i + 1);
      return true;
    }
  }
  return false;
}

// Drawing random bytes costs a system call; take them 4 KiB at a time.
let pool = Buffer.alloc(0);
let offset = 0;

function randomTail(): number[] {
  if (offset + TAIL_LENGTH > pool.length) {
    pool = randomBytes(4096);
    offset = 0;
  }
  const bytes = pool.subarray(offset, (offset += TAIL_LENGTH));
  return [...bytes].map((byte) => byte % DIGITS.length);
}
