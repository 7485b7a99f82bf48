import { ERROR_MESSAGE_MAX_CHARS, clean, truncate } from '@pingmon/sdk/wire';

/** How much of the end of a stream is kept to find its last line: a few lines, however much the job prints. */
const TAIL_BYTES = 4 * 1024;

/**
 * The last non-empty line a stream of the job's output has printed so far, kept in a buffer of fixed size:
 * only the stream's last TAIL_BYTES bytes are ever held.
 */
export class LastLine {
  private readonly tail = Buffer.alloc(TAIL_BYTES);
  private length = 0;
  /** Bytes before the tail were dropped: its first line may be the end of a longer one. */
  private dropped = false;

  add(chunk: Buffer): void {
    const { tail } = this;
    if (chunk.length >= tail.length) {
      chunk.copy(tail, 0, chunk.length - tail.length);
      this.dropped ||= chunk.length > tail.length || this.length > 0;
      this.length = tail.length;
      return;
    }
    const keep = Math.min(this.length, tail.length - chunk.length);
    if (keep < this.length) {
      tail.copy(tail, 0, this.length - keep, this.length);
      this.dropped = true;
    }
    chunk.copy(tail, keep);
    this.length = keep + chunk.length;
  }

  /** The last line with anything in it, terminal escapes and control characters left out; undefined if none. */
  line(): string | undefined {
    let start = 0;
    // The first bytes kept may be the middle of a character: start at the next one.
    while (this.dropped && start < 3 && start < this.length && (this.tail[start]! & 0xc0) === 0x80) start++;
    const lines = clean(this.tail.toString('utf8', start, this.length)).split('\n');
    for (let i = lines.length - 1; i >= 0; i--) {
      const line = lines[i]!.trim();
      if (line !== '') return i === 0 && this.dropped ? `…${line}` : line;
    }
    return undefined;
  }
}

/**
 * A failure with the job's last words, where the cause usually is: `exit code 2: tar: /data: Cannot open:
 * Permission denied`, cut with "…" to the server's limit for an error message.
 */
export function withLastLine(failure: string, line: string | undefined): string {
  if (line === undefined) return failure;
  const message = `${failure}: ${line}`;
  if (message.length <= ERROR_MESSAGE_MAX_CHARS) return message;
  return `${truncate(message, ERROR_MESSAGE_MAX_CHARS - 1)}…`;
}
