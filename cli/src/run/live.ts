import { isAscii } from 'node:buffer';
import { StringDecoder } from 'node:string_decoder';
import { storableText } from '@pingmon/sdk';
import type { OutputChunkBody, PingmonError } from '@pingmon/sdk';

/** Sends one chunk; rejects with the PingmonError of a refusal or of no answer. */
export type SendChunk = (chunk: OutputChunkBody, signal: AbortSignal) => Promise<unknown>;

/** The newest unsent output kept: when the server is slower than the job, older unsent output is dropped. */
export const LIVE_MAX_CHARS = 65_536;
/** A UTF-8 character takes at most 4 bytes: this many bytes hold the newest LIVE_MAX_CHARS characters. */
const RING_BYTES = 4 * LIVE_MAX_CHARS;
/** About once a second, and only when there is new output. */
const INTERVAL_MS = 1_000;
/** How long the end waits for the last chunk: the job has ended, and its result is waiting. */
const FINISH_MS = 1_000;

/**
 * A running job's output, sent to the server while it runs (docs/api.md#live-output). It never holds the job up:
 * `add` copies the chunk into a ring of fixed size and counts its characters (decoding only output that is not
 * ASCII), and at most one request is in flight, on a timer of its own; only what is sent is decoded. Offsets count
 * the characters (UTF-16 units) of the output since the job started, so the server places each chunk, and a chunk
 * sent again changes nothing.
 */
export class LiveOutput {
  /** Counts the characters of output that is not ASCII, as a reader decodes them. */
  private readonly decoder = new StringDecoder('utf8');
  /** The decoder holds no part of a character: an ASCII chunk is counted without it. */
  private decoderClean = true;
  private readonly ring = Buffer.alloc(RING_BYTES);
  private ringEnd = 0;
  private ringBytes = 0;
  /** Characters of output so far, and of them sent (the server has them). */
  private total = 0;
  private sentTo = 0;
  /** A chunk was sent (or tried): the run is long enough to be watched. */
  private tried = false;
  /** Waiting for the start to be delivered; off after a refusal, or at the end. */
  private state: 'waiting' | 'on' | 'off' = 'waiting';
  private inFlight: Promise<void> | undefined;
  private readonly timer: NodeJS.Timeout;
  private readonly abort = new AbortController();

  constructor(
    private readonly runId: string,
    private readonly send: SendChunk,
    private readonly warn: (message: string) => void,
  ) {
    this.timer = setInterval(() => this.tick(), INTERVAL_MS).unref();
  }

  /** The run's start is on the server: chunks may go. */
  begin(): void {
    if (this.state === 'waiting') this.state = 'on';
  }

  /** Sends nothing more (the start was not delivered, or the server does not take live output). */
  stop(): void {
    this.state = 'off';
    clearInterval(this.timer);
  }

  add(chunk: Buffer): void {
    if (this.state === 'off') return;
    if (this.decoderClean && isAscii(chunk)) {
      this.total += chunk.length;
    } else {
      this.total += this.decoder.write(chunk).length;
      // An ASCII byte ends whatever character the decoder held.
      this.decoderClean = isAscii(chunk);
    }
    this.keep(chunk);
  }

  /**
   * Sends what is left if chunks went before (waiting at most FINISH_MS for it), then stops: the log goes with the
   * result.
   */
  async finish(): Promise<void> {
    clearInterval(this.timer);
    if (this.state === 'on') {
      this.total += this.decoder.end().length;
      const timer = setTimeout(() => this.abort.abort(), FINISH_MS);
      await this.inFlight;
      // A job over within the first tick sends nothing live: its log tells it all, with the result.
      if (this.tried && this.state === 'on' && this.total > this.sentTo && !this.abort.signal.aborted) {
        await this.sendNew(true);
      }
      clearTimeout(timer);
    }
    this.abort.abort();
    this.stop();
  }

  /** Copies the chunk into the ring: the caller may reuse its buffer. */
  private keep(chunk: Buffer): void {
    const { ring } = this;
    if (chunk.length >= ring.length) {
      chunk.copy(ring, 0, chunk.length - ring.length);
      this.ringEnd = 0;
      this.ringBytes = ring.length;
      return;
    }
    const first = chunk.copy(ring, this.ringEnd);
    chunk.copy(ring, 0, first);
    this.ringEnd = (this.ringEnd + chunk.length) % ring.length;
    this.ringBytes = Math.min(ring.length, this.ringBytes + chunk.length);
  }

  /** The newest output, decoded from the start of a character; a character still incomplete is left for later. */
  private newest(final: boolean): string {
    const bytes =
      this.ringBytes < this.ring.length
        ? this.ring.subarray(0, this.ringBytes)
        : Buffer.concat([this.ring.subarray(this.ringEnd), this.ring.subarray(0, this.ringEnd)]);
    let start = 0;
    while (this.ringBytes === this.ring.length && start < 3 && (bytes[start]! & 0xc0) === 0x80) start++;
    const decoder = new StringDecoder('utf8');
    return decoder.write(bytes.subarray(start)) + (final ? decoder.end() : '');
  }

  private tick(): void {
    if (this.state !== 'on' || this.inFlight !== undefined || this.total === this.sentTo) return;
    this.inFlight = this.sendNew(false).finally(() => (this.inFlight = undefined));
  }

  /** Sends the output not sent yet, at most its newest LIVE_MAX_CHARS characters. */
  private async sendNew(final: boolean): Promise<void> {
    this.tried = true;
    const to = this.total;
    const newest = this.newest(final);
    const text = newest.slice(newest.length - Math.min(to - this.sentTo, LIVE_MAX_CHARS, newest.length));
    try {
      // NUL becomes U+FFFD, as the server keeps it (the same length: offsets still hold).
      await this.send(
        { runId: this.runId, offset: to - text.length, text: storableText(text, LIVE_MAX_CHARS) },
        this.abort.signal,
      );
      this.sentTo = to;
    } catch (err) {
      this.refused(err as PingmonError);
    }
  }

  private refused(err: PingmonError): void {
    // No answer, a busy server or a start not there yet: the output goes with the next chunk.
    if (err.status === 0 || err.status >= 500 || err.status === 429 || err.code === 'run_not_started') return;
    this.stop();
    // The run timed out on the server, or was finished by another ping: nothing to say.
    if (err.code === 'run_finished') return;
    // 404, 401, 403: a server older than live output, or a key that may not send it.
    this.warn(`live output is off for this run: ${err.message}`);
  }
}
