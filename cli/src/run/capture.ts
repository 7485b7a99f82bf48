import { StringDecoder } from 'node:string_decoder';
import { LOG_MAX_CHARS } from '@pingmon/sdk/wire';

export type LogKeep = 'head' | 'tail' | 'head-tail';

/** How many characters of the output each mode keeps from the start and from the end. */
const KEEP: Record<LogKeep, { head: number; tail: number }> = {
  head: { head: LOG_MAX_CHARS, tail: 0 },
  tail: { head: 0, tail: LOG_MAX_CHARS },
  'head-tail': { head: 2_000, tail: 8_000 },
};

/** Room kept for the marker line within the 10,000 characters the server stores. */
const MARKER_ROOM = 80;

/** A UTF-8 character takes at most 4 bytes: this many bytes from the end always hold `tail` characters. */
const BYTES_PER_CHAR = 4;

/**
 * A bounded copy of a job's merged output, in arrival order: its first and/or last characters and a count
 * of the bytes left out in between. Only what is kept is ever decoded, and it is copied as it arrives (the
 * head into buffers of its own, the tail into a ring of fixed size), so a job printing gigabytes costs a
 * copy of at most the ring per chunk, memory stays bounded however much it prints, and the caller may reuse
 * a chunk's buffer once `add` returns.
 */
export class OutputCapture {
  private readonly limits: { head: number; tail: number };
  /** Counts the characters of the head as it fills; the bytes themselves are kept in `head`. */
  private readonly decoder = new StringDecoder('utf8');
  private headChars = 0;
  private head: Buffer[] = [];
  private headBytes = 0;
  /** The last bytes after the head: `ring` holds them from `ringEnd` round to just before it, once full. */
  private readonly ring: Buffer;
  private ringEnd = 0;
  private tailBytes = 0;
  private totalBytes = 0;

  constructor(keep: LogKeep = 'head-tail') {
    this.limits = KEEP[keep];
    this.ring = Buffer.alloc(this.limits.tail * BYTES_PER_CHAR);
  }

  add(chunk: Buffer): void {
    this.totalBytes += chunk.length;
    // A byte makes at most one character: taking no more bytes than characters missing never overfills.
    while (chunk.length > 0 && this.headChars < this.limits.head) {
      const take = chunk.subarray(0, Math.min(chunk.length, this.limits.head - this.headChars));
      this.headChars += this.decoder.write(take).length;
      this.head.push(Buffer.from(take));
      this.headBytes += take.length;
      chunk = chunk.subarray(take.length);
    }
    if (chunk.length === 0 || this.limits.tail === 0) return;
    const { ring } = this;
    this.tailBytes += chunk.length;
    if (chunk.length >= ring.length) {
      chunk.copy(ring, 0, chunk.length - ring.length);
      this.ringEnd = 0;
      return;
    }
    const first = chunk.copy(ring, this.ringEnd);
    chunk.copy(ring, 0, first);
    this.ringEnd = (this.ringEnd + chunk.length) % ring.length;
  }

  /** The tail's bytes in order: the last `ring.length` bytes after the head, or all of them if fewer. */
  private tailBuffer(): Buffer {
    if (this.tailBytes < this.ring.length) return this.ring.subarray(0, this.tailBytes);
    return Buffer.concat([this.ring.subarray(this.ringEnd), this.ring.subarray(0, this.ringEnd)]);
  }

  /**
   * The log: head, a one-line marker when anything was left out, then tail; never more than the
   * 10,000 characters the server keeps, marker included, so that nothing is cut from the end.
   */
  text(): string {
    const headBuffer = Buffer.concat(this.head);
    const tailBuffer = this.tailBuffer();
    if (this.totalBytes === headBuffer.length + tailBuffer.length) {
      const whole = Buffer.concat([headBuffer, tailBuffer]).toString('utf8');
      if (whole.length <= LOG_MAX_CHARS) return whole;
    }
    const head = firstChars(headBuffer, this.limits.tail === 0 ? LOG_MAX_CHARS - MARKER_ROOM : this.limits.head);
    const tail = lastChars(tailBuffer, LOG_MAX_CHARS - MARKER_ROOM - head.text.length);
    const leftOut = this.totalBytes - head.bytes - tail.bytes;
    const where = this.limits.tail === 0 ? 'at the end' : this.limits.head === 0 ? 'at the start' : 'here';
    const before = head.text && !head.text.endsWith('\n') ? '\n' : '';
    return `${head.text}${before}[pingmon: ${leftOut} bytes of output left out ${where}]\n${tail.text}`;
  }
}

interface Kept {
  text: string;
  /** How many bytes of the output `text` stands for. */
  bytes: number;
}

const isContinuation = (byte: number | undefined) => byte !== undefined && (byte & 0xc0) === 0x80;

/** The first whole characters of `bytes`, at most `max` UTF-16 units of them. */
function firstChars(bytes: Buffer, max: number): Kept {
  let end = bytes.length;
  let text = bytes.toString('utf8');
  // Dropping n bytes drops at most n units: shrink by the excess until it fits, on a character boundary.
  while (text.length > max) {
    end -= text.length - max;
    while (end > 0 && isContinuation(bytes[end])) end--;
    text = bytes.toString('utf8', 0, end);
  }
  return { text, bytes: end };
}

/** The last whole characters of `bytes`, at most `max` UTF-16 units of them. */
function lastChars(bytes: Buffer, max: number): Kept {
  let start = 0;
  // The first bytes kept may be the middle of a character: start at the next character.
  while (start < BYTES_PER_CHAR - 1 && isContinuation(bytes[start])) start++;
  let text = bytes.toString('utf8', start);
  while (text.length > max) {
    start += text.length - max;
    while (start < bytes.length && isContinuation(bytes[start])) start++;
    text = bytes.toString('utf8', start);
  }
  return { text, bytes: bytes.length - start };
}
