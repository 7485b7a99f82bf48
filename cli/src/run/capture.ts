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
 * of the bytes left out in between. Only what is kept is ever decoded, so a job printing gigabytes costs
 * a few list operations per chunk, and memory stays bounded however much it prints.
 */
export class OutputCapture {
  private readonly limits: { head: number; tail: number };
  private readonly decoder = new StringDecoder('utf8');
  private head = '';
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private totalBytes = 0;

  constructor(keep: LogKeep = 'head-tail') {
    this.limits = KEEP[keep];
  }

  add(chunk: Buffer): void {
    this.totalBytes += chunk.length;
    // A byte makes at most one character: taking no more bytes than characters missing never overfills.
    while (chunk.length > 0 && this.head.length < this.limits.head) {
      const take = Math.min(chunk.length, this.limits.head - this.head.length);
      this.head += this.decoder.write(chunk.subarray(0, take));
      this.headBytes += take;
      chunk = chunk.subarray(take);
    }
    if (chunk.length === 0 || this.limits.tail === 0) return;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    const keepBytes = this.limits.tail * BYTES_PER_CHAR;
    while (this.tail.length > 1 && this.tailBytes - this.tail[0]!.length >= keepBytes) this.tailBytes -= this.tail.shift()!.length;
  }

  /**
   * The log: head, a one-line marker when anything was left out, then tail; never more than the
   * 10,000 characters the server keeps, marker included, so that nothing is cut from the end.
   */
  text(): string {
    let head = this.head + this.decoder.end();
    const tailBuffer = Buffer.concat(this.tail);
    // The first bytes kept may be the middle of a character: start at the next character.
    let start = 0;
    while (start < tailBuffer.length && start < BYTES_PER_CHAR && (tailBuffer[start]! & 0xc0) === 0x80) start++;
    let tail = tailBuffer.subarray(start).toString('utf8');
    let leftOut = this.totalBytes - this.headBytes - tailBuffer.length + start;
    if (leftOut === 0 && head.length + tail.length <= LOG_MAX_CHARS) return head + tail;
    if (this.limits.tail === 0) {
      const kept = head.slice(0, LOG_MAX_CHARS - MARKER_ROOM);
      leftOut += Buffer.byteLength(head.slice(kept.length));
      head = kept;
    }
    const room = Math.max(0, LOG_MAX_CHARS - MARKER_ROOM - head.length);
    if (tail.length > room) {
      leftOut += Buffer.byteLength(tail.slice(0, tail.length - room));
      tail = tail.slice(tail.length - room);
    }
    const where = this.limits.tail === 0 ? 'at the end' : this.limits.head === 0 ? 'at the start' : 'here';
    const before = head && !head.endsWith('\n') ? '\n' : '';
    return `${head}${before}[pingmon: ${leftOut} bytes of output left out ${where}]\n${tail}`;
  }
}
