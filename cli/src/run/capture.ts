import { StringDecoder } from 'node:string_decoder';

export type LogKeep = 'head' | 'tail' | 'head-tail';

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

  /** The log: head, a one-line marker when anything was left out, then tail. */
  text(): string {
    this.push(this.decoder.end());
    const extra = Math.max(0, this.tail.length - this.limits.tail);
    const tail = this.tail.slice(extra);
    const omitted = this.omitted + extra;
    if (omitted === 0) return this.head + tail;
    const where = this.limits.tail === 0 ? 'at the end' : this.limits.head === 0 ? 'at the start' : 'here';
    return `${this.head}${this.head && !this.head.endsWith('\n') ? '\n' : ''}[pingmon: ${omitted} characters of output left out ${where}]\n${tail}`;
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
