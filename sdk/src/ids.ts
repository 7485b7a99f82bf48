import { randomFillSync } from 'node:crypto';

/** The last id made: the next one made in the same millisecond follows it. */
let last: { time: number; bytes: Buffer } = { time: 0, bytes: Buffer.alloc(16) };

/**
 * A UUIDv7: time-ordered, so runs reported by clients also land at the end of the server's indexes. Within
 * one millisecond the random part counts up from the last id's (RFC 9562, monotonic random): the server
 * orders runs that started in the same millisecond by runId, so runs reported one after the other keep
 * their order. The server makes one too, for a run a ping opens without a runId: one shape (docs/api.md#run-ids).
 */
export function newRunId(now = Date.now()): string {
  if (now > last.time || !countUp(last.bytes)) {
    const time = Math.max(now, last.time + 1);
    const bytes = random16();
    bytes.writeUIntBE(time, 0, 6);
    bytes[6] = (bytes[6]! & 0x0f) | 0x70;
    bytes[8] = (bytes[8]! & 0x3f) | 0x80;
    last = { time, bytes };
  }
  const hex = last.bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Random bytes are drawn 4 KiB at a time: one draw per id cost a server ~2 µs a ping. */
const pool = Buffer.alloc(4096);
let pooled = pool.length;

function random16(): Buffer {
  if (pooled + 16 > pool.length) {
    randomFillSync(pool);
    pooled = 0;
  }
  const bytes = Buffer.alloc(16);
  pool.copy(bytes, 0, pooled, (pooled += 16));
  return bytes;
}

/** Adds one to the random bytes after the variant's (9–15) in place; false when they were all 0xff. */
function countUp(bytes: Buffer): boolean {
  for (let i = 15; i >= 9; i--) {
    if (bytes[i]! < 0xff) {
      bytes[i] = bytes[i]! + 1;
      bytes.fill(0, i + 1);
      return true;
    }
  }
  return false;
}
