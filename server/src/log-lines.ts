import pino from 'pino';
import type { Config } from './config.js';

export type LineLevel = 'debug' | 'info' | 'warn' | 'error';

const COLOURS: Readonly<Record<LineLevel, string>> = {
  debug: '\x1b[90m',
  info: '\x1b[32m',
  warn: '\x1b[33m',
  error: '\x1b[31m',
};
const DIM = '\x1b[2m';
const RESET = '\x1b[0m';
/** Under the message of a line: "10:02:11 info  ". */
const INDENT = ' '.repeat(15);

/**
 * The lines of the server's log, in either format. JSON lines are pino's, with the fields they always had: level,
 * time, pid, hostname, then tags and data, or res, responseTime and msg, or err and msg. Pretty lines are
 * "10:02:11 info  message" for a person on a terminal.
 */
export class LogLines {
  /** pino's number of the least level written. */
  readonly least: number;
  private readonly json: pino.Logger | undefined;
  private readonly stream: pino.DestinationStream & { flush(): void; flushSync(): void };
  private flushing: NodeJS.Timeout | undefined;

  constructor(
    level: Exclude<Config['logLevel'], 'silent'>,
    format: Config['logFormat'],
    private readonly colour: boolean,
  ) {
    this.least = pino.levels.values[level]!;
    // JSON is buffered: a write to stdout per request would cost more than the request. Pretty lines are few, and
    // a person reads them as they come, in order with what the command prints.
    const pretty = format === 'pretty';
    this.stream = pino.destination(pretty ? { dest: 1, sync: true } : { dest: 1, sync: false, minLength: 4096 });
    this.json = pretty ? undefined : pino({ level }, this.stream);
  }

  /** What `server.log` or `request.log` was told. */
  event(level: LineLevel, tags: string[], data: unknown): void {
    if (pino.levels.values[level]! < this.least) return;
    if (this.json) this.json[level]({ tags, data });
    else this.write(level, typeof data === 'string' ? data : JSON.stringify(data));
  }

  /** A failure's cause (a 500's): its message and stack, at error. */
  failure(tags: string[], err: Error): void {
    if (this.json) this.json.error({ tags, err }, err.message);
    else this.write('error', (err.stack ?? err.message).replace(/\n\s+/g, '\n  '));
  }

  /** A request's summary line; the caller has checked that its level is written. */
  request(level: LineLevel, statusCode: number, responseTime: number, message: string): void {
    if (this.json) this.json[level]({ res: { statusCode }, responseTime }, message);
    else this.write(level, message);
  }

  /** Buffered JSON lines are written at least every second, so a quiet server's reach the journal as they come. */
  start(): void {
    if (this.json) this.flushing = setInterval(() => this.stream.flush(), 1_000).unref();
  }

  stop(): void {
    clearInterval(this.flushing);
    if (this.json) this.stream.flushSync();
  }

  private write(level: LineLevel, message: string): void {
    const time = new Date().toTimeString().slice(0, 8);
    // Names and paths come from users and clients: no control character reaches the terminal.
    const text = message.replace(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/g, '?').replaceAll('\n', `\n${INDENT}`);
    const name = level.padEnd(5);
    const head = this.colour ? `${DIM}${time}${RESET} ${COLOURS[level]}${name}${RESET}` : `${time} ${name}`;
    this.stream.write(`${head} ${text}\n`);
  }
}
