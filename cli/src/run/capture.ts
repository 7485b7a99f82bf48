import { StringDecoder } from 'node:string_decoder';
import { LOG_MAX_CHARS } from '@pingmon/sdk/wire';

export type LogKeep = 'head' | 'tail' | 'head-tail';

/** Room kept for the marker line within the 10,000 characters. */
const MARKER_ROOM = 80;

/** How much of the output each mode keeps: the log the server stores is at most 10,000 characters. */
const KEEP: Record<LogKeep, { head: number; tail: number }> = {
  head: { head: 10_000, tail: 0 },
  tail: { head: 0, tail: 10_000 },
  'head-tail': { head: 2_000, tail: 8_000 },
};

/**
 * A bounded copy of a job's merged output, in arrival order: its first and/or last characters and a count
 * of what was left out in between. Memory stays bounded however much the job prints.
 */
export class OutputCapture {
  private readonly decoder = new StringDecoder('utf8');
  private readonly limits: { head: number; tail: number };
  private head = '';
  private tail = '';
  private omitted = 0;

  constructor(keep: LogKeep = 'head-tail') {
    this.limits = KEEP[keep];
  }

  add(chunk: Buffer): void {
    this.push(this.decoder.write(chunk));
  }

  /**
   * The log: head, a one-line marker when anything was left out, then tail; never more than the
   * 10,000 characters the server keeps, marker included, so that nothing is cut from the end.
   */
  text(): string {
    this.push(this.decoder.end());
    const total = this.head.length + this.tail.length;
    if (this.omitted === 0 && total <= LOG_MAX_CHARS) return this.head + this.tail;
    const head = this.limits.tail === 0 ? this.head.slice(0, LOG_MAX_CHARS - MARKER_ROOM) : this.head;
    const tail = this.tail.slice(-Math.max(0, LOG_MAX_CHARS - MARKER_ROOM - head.length));
    const omitted = this.omitted + (this.head.length - head.length) + (this.tail.length - tail.length);
    const where = this.limits.tail === 0 ? 'at the end' : this.limits.head === 0 ? 'at the start' : 'here';
    const before = head && !head.endsWith('\n') ? '\n' : '';
    return `${head}${before}[pingmon: ${omitted} characters of output left out ${where}]\n${tail}`;
  }

  private push(text: string): void {
    if (!text) return;
    const room = this.limits.head - this.head.length;
    if (room > 0) {
      this.head += text.slice(0, room);
      text = text.slice(room);
    }
    if (!text) return;
    if (this.limits.tail === 0) {
      this.omitted += text.length;
      return;
    }
    this.tail += text;
    // Trimmed in steps, not on every chunk: the tail holds at most twice what it keeps.
    if (this.tail.length > 2 * this.limits.tail) {
      const cut = this.tail.length - this.limits.tail;
      this.omitted += cut;
      this.tail = this.tail.slice(cut);
    }
  }
}
