import { StringDecoder } from 'node:string_decoder';
import { storableText } from '@pingmon/sdk';
import type { OutputChunkBody, PingmonError } from '@pingmon/sdk';

/** Sends one chunk; rejects with the PingmonError of a refusal or of no answer. */
export type SendChunk = (chunk: OutputChunkBody, signal: AbortSignal) => Promise<unknown>;

/** The newest unsent output kept: when the server is slower than the job, older unsent output is dropped. */
export const LIVE_MAX_CHARS = 65_536;
/** About once a second, and only when there is new output. */
const INTERVAL_MS = 1_000;
/** How long the end waits for the last chunk: the job has ended, and its result is waiting. */
const FINISH_MS = 1_000;

/**
 * A running job's output, sent to the server while it runs (docs/api.md#live-output). It never holds the job up:
 * `add` only decodes and keeps the newest output, and at most one request is in flight, on a timer of its own.
 * Offsets count the characters (UTF-16 units) of the output since the job started, so the server places each
 * chunk, and a chunk sent again changes nothing.
 */
export class LiveOutput {
  private readonly decoder = new StringDecoder('utf8');
  private pending: string[] = [];
  private pendingChars = 0;
  /** Characters of output so far: the offset just past the newest. */
  private total = 0;
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
    this.pending = [];
    this.pendingChars = 0;
    clearInterval(this.timer);
  }

  add(chunk: Buffer): void {
    if (this.state === 'off') return;
    this.keep(this.decoder.write(chunk));
  }

  /** Sends what is left (waiting at most FINISH_MS for it), then stops: the log goes with the result. */
  async finish(): Promise<void> {
    clearInterval(this.timer);
    if (this.state === 'on') {
      this.keep(this.decoder.end());
      const timer = setTimeout(() => this.abort.abort(), FINISH_MS);
      await this.inFlight;
      if (this.state === 'on' && this.pendingChars > 0 && !this.abort.signal.aborted) await this.sendPending();
      clearTimeout(timer);
    }
    this.abort.abort();
    this.stop();
  }

  private keep(text: string): void {
    if (text === '') return;
    this.total += text.length;
    this.pending.push(text);
    this.pendingChars += text.length;
    // Joined only past twice the bound: each character is copied a bounded number of times.
    if (this.pendingChars > 2 * LIVE_MAX_CHARS) this.keepNewest([]);
  }

  private keepNewest(before: string[]): void {
    const text = [...before, ...this.pending].join('');
    const kept = text.length > LIVE_MAX_CHARS ? text.slice(text.length - LIVE_MAX_CHARS) : text;
    this.pending = kept === '' ? [] : [kept];
    this.pendingChars = kept.length;
  }

  private tick(): void {
    if (this.state !== 'on' || this.inFlight !== undefined || this.pendingChars === 0) return;
    this.inFlight = this.sendPending().finally(() => (this.inFlight = undefined));
  }

  private async sendPending(): Promise<void> {
    this.keepNewest([]);
    const text = this.pending[0] ?? '';
    this.pending = [];
    this.pendingChars = 0;
    try {
      // NUL becomes U+FFFD, as the server keeps it (the same length: offsets still hold).
      const chunk = { runId: this.runId, offset: this.total - text.length, text: storableText(text, LIVE_MAX_CHARS) };
      await this.send(chunk, this.abort.signal);
    } catch (err) {
      this.refused(err as PingmonError, text);
    }
  }

  private refused(err: PingmonError, text: string): void {
    // No answer, a busy server or a start not there yet: the chunk goes again with the next, older output first.
    if (err.status === 0 || err.status >= 500 || err.status === 429 || err.code === 'run_not_started') {
      this.keepNewest([text]);
      return;
    }
    this.stop();
    // The run timed out on the server, or was finished by another ping: nothing to say.
    if (err.code === 'run_finished') return;
    // 404, 401, 403: a server older than live output, or a key that may not send it.
    this.warn(`live output is off for this run: ${err.message}`);
  }
}
