/** What a secret is replaced with, in the log, the error message and the spool. */
export const REDACTED = '[redacted]';

/** Environment variables whose NAMES match this (case-insensitively) have their values redacted, always. */
export const DEFAULT_REDACT_PATTERN = '(TOKEN|SECRET|SECRET_?KEY|PASSWORD|PASSWD|API_?KEY|PRIVATE_?KEY|ACCESS_?KEY)$';

/** Values shorter than this are never redacted: `PASSWORD=1` must not shred the log. */
export const REDACT_MIN_CHARS = 4;

export interface RedactOptions {
  /** Names of environment variables whose values are secrets; PINGMON_REDACT_ENV (comma-separated) adds to them. */
  env?: readonly string[];
  /**
   * A regular expression (case-insensitive) for names of environment variables whose values are secrets, in
   * addition to DEFAULT_REDACT_PATTERN; default PINGMON_REDACT_PATTERN.
   */
  pattern?: string;
  /** The environment whose values are looked up; default process.env. */
  environment?: Record<string, string | undefined>;
}

/** Lines longer than this are redacted in parts, holding back enough to never cut through a secret. */
const LINE_MAX_BYTES = 64 * 1024;
/** Held back at such a cut, at least: longer than any shape's match (values are bounded by VALUE_MAX). */
const HOLD_MIN_BYTES = 8192;

// The text is matched as latin1 (one character per byte, so indices are byte offsets and no UTF-8 is decoded);
// whitespace is spelled out because \s would match 0xA0, a byte inside UTF-8 characters.
const SP = '[ \\t]';
const VALUE = '[^ \\t\\r\\n\\f\\v"\'`,;&<>]';
/** A value longer than this is redacted in part: the bound keeps what a long line holds back bounded. */
const VALUE_MAX = 4096;
/** Already redacted text is left alone: redacting twice counts once. */
const FRESH = '(?!\\[redacted\\])';
const ci = (word: string) => word.replace(/[a-z]/g, (c) => `[${c}${c.toUpperCase()}]`);
/** An Authorization value's scheme (Bearer, Basic…), kept. */
const SCHEME = `(?:[A-Za-z]+${SP}+)`;
const KEYWORDS = ['password', 'passwd', 'secret', 'token', 'api[_-]?key', 'access[_-]?key', 'private[_-]?key'];

/**
 * The shapes of secrets in output, each one capture group that ends the match: the secret; what comes before it
 * in the match is kept.
 */
const SHAPES = [
  // scheme://user:PASSWORD@host (from its "://": a scheme matched first is ten times slower to scan for)
  `://[^ \\t\\r\\n:/@]{0,256}:${FRESH}([^ \\t\\r\\n/@]{1,1024})(?=@)`,
  // Authorization: [Bearer|Basic|…] VALUE
  `${ci('authorization')}["']?${SP}*[:=]${SP}*["']?(?!${SCHEME}?\\[redacted\\])${SCHEME}?(${VALUE}{1,${VALUE_MAX}})`,
  // AWS access key ids
  '\\b((?:AKIA|ASIA)[A-Z0-9]{16})\\b',
  // password=VALUE, "token": "VALUE", aws_secret_access_key = VALUE…
  `(?:${KEYWORDS.map(ci).join('|')})["']?${SP}*[:=]${SP}*["']?${FRESH}(${VALUE}{${REDACT_MIN_CHARS},${VALUE_MAX}})`,
  // The start of a PEM private key block: all of it, to its END line, is redacted.
  '(-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----)',
];
const PEM = SHAPES.length - 1;
/**
 * The shapes that need a ":" or "=": output with neither (binary, a progress bar, zeros) is scanned without them,
 * twice as fast. (Gating on more words cost more than it saved: each look for a word is another pass.)
 */
const SIGNED = new Set([0, 1, 3]);

/** A regular expression of shapes, and which of its groups is a key block's start. */
interface Scanner {
  regex: RegExp;
  pemGroup: number;
}

function scanner(shapes: readonly string[], literals: readonly string[]): Scanner {
  const all = literals.length > 0 ? [...shapes, `(${literals.join('|')})`] : shapes;
  return { regex: new RegExp(all.join('|'), 'g'), pemGroup: shapes.indexOf(SHAPES[PEM]!) + 1 };
}

const PEM_END = /-----END [A-Z0-9 ]{0,40}PRIVATE KEY-----/g;
/** Kept of a key block's line cut in parts, to find its END marker across the cut. */
const PEM_END_BYTES = 128;

const REDACTED_BYTES = Buffer.from(REDACTED);

/** A redactor's compiled patterns; read the environment once, when it is made. */
export class Redactor {
  /** How many secrets it has replaced, in every string and stream it redacted. */
  redactions = 0;
  private readonly scanner: Scanner;
  private readonly unsigned: Scanner;
  private readonly holdBytes: number;

  constructor(options: RedactOptions = {}) {
    const environment = options.environment ?? process.env;
    const names = new Set([...(options.env ?? []), ...namesIn(environment.PINGMON_REDACT_ENV)]);
    const patterns = [new RegExp(DEFAULT_REDACT_PATTERN, 'i')];
    const pattern = options.pattern ?? environment.PINGMON_REDACT_PATTERN;
    if (pattern) patterns.push(redactPattern(pattern));
    const values = new Set<string>();
    for (const [name, value] of Object.entries(environment)) {
      if (value === undefined || value.length < REDACT_MIN_CHARS) continue;
      if (names.has(name) || patterns.some((p) => p.test(name))) values.add(Buffer.from(value).toString('latin1'));
    }
    // Longest first: a value containing another is replaced whole.
    const literals = [...values].sort((a, b) => b.length - a.length).map(escape);
    this.scanner = scanner(SHAPES, literals);
    this.unsigned = scanner(
      SHAPES.filter((_, i) => !SIGNED.has(i)),
      literals,
    );
    this.holdBytes = Math.max(HOLD_MIN_BYTES, ...[...values].map((v) => v.length + 1));
  }

  /** `text` with its secrets replaced. */
  redact(text: string): string {
    if (text === '') return text;
    const parts: Buffer[] = [];
    const stream = this.stream((chunk) => parts.push(Buffer.from(chunk)));
    stream.write(Buffer.from(text));
    stream.end();
    return Buffer.concat(parts).toString();
  }

  /** A stream of output redacted on its way to `to`, which must copy what it keeps (chunks are views). */
  stream(to: (chunk: Buffer) => void): RedactingStream {
    return new RedactingStream(this, to);
  }

  /**
   * Redacts `bytes` (`text` is their latin1 form), starting inside a key block if `inKey`. Answers the redacted
   * parts of the bytes before `cut` (all of them when `complete`; else a cut through no secret, the rest to be
   * scanned again with what follows) and whether they end inside a key block. For RedactingStream.
   */
  scan(bytes: Buffer, text: string, inKey: boolean, complete: boolean): Scanned {
    const out: Buffer[] = [];
    let at = 0;
    if (inKey) {
      const end = endOfKey(text, 0);
      if (end === undefined) return { out, cut: complete ? text.length : keyCut(text), inKey: true };
      at = end;
    }
    // A cut before a secret that may go on past the end: the bytes held back are scanned again with what follows.
    const hold = complete ? text.length : text.length - this.holdBytes;
    const { regex, pemGroup } = bytes.includes(0x3a) || bytes.includes(0x3d) ? this.scanner : this.unsigned;
    regex.lastIndex = at;
    for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
      const end = match.index + match[0].length;
      if (!complete && end >= hold) return { out: [...out, bytes.subarray(at, match.index)], cut: match.index, inKey };
      const group = match.findIndex((g, i) => i > 0 && g !== undefined);
      out.push(bytes.subarray(at, end - match[group]!.length), REDACTED_BYTES);
      this.redactions++;
      at = end;
      if (group === pemGroup) {
        const keyEnd = endOfKey(text, at);
        if (keyEnd === undefined) return { out, cut: complete ? text.length : keyCut(text), inKey: true };
        at = regex.lastIndex = keyEnd;
      }
    }
    const cut = Math.max(at, hold);
    out.push(bytes.subarray(at, cut));
    return { out, cut, inKey: false };
  }
}

interface Scanned {
  out: Buffer[];
  /** The bytes before it are done; those after it are held back. */
  cut: number;
  inKey: boolean;
}

function endOfKey(text: string, from: number): number | undefined {
  PEM_END.lastIndex = from;
  const end = PEM_END.exec(text);
  return end === null ? undefined : end.index + end[0].length;
}

/** Inside a key block: its bytes are dropped, but for a few that may be the start of its END marker. */
const keyCut = (text: string) => Math.max(0, text.length - PEM_END_BYTES);

/**
 * A job's output redacted line by line (secrets never span lines, but for key blocks, followed across lines):
 * a line is held until it ends (a newline or a carriage return), or until LINE_MAX_BYTES when it is long. Memory: a
 * line, or LINE_MAX_BYTES plus the hold, at most.
 */
export class RedactingStream {
  private held: Buffer[] = [];
  private heldBytes = 0;
  private inKey = false;

  constructor(
    private readonly redactor: Redactor,
    private readonly to: (chunk: Buffer) => void,
  ) {}

  write(chunk: Buffer): void {
    // A line ends at a newline, or at a carriage return: a progress bar's updates pass as they come.
    const newline = chunk.lastIndexOf(10);
    const cr = chunk.subarray(newline + 1).lastIndexOf(13);
    const end = cr === -1 ? newline : newline + 1 + cr;
    if (end === -1) {
      if (this.heldBytes + chunk.length <= LINE_MAX_BYTES) this.hold(chunk);
      else this.pass(this.heldBytes === 0 ? chunk : Buffer.concat([this.take(), chunk]), false);
      return;
    }
    const lines = chunk.subarray(0, end + 1);
    // Lines ending in this chunk pass as views of it, without a copy: the common case.
    this.pass(this.heldBytes === 0 ? lines : Buffer.concat([this.take(), lines]), true);
    if (end + 1 < chunk.length) this.hold(chunk.subarray(end + 1));
  }

  /** Passes on what is held back: the output has ended. */
  end(): void {
    if (this.heldBytes > 0) this.pass(this.take(), true);
    // A key block that never ended was replaced by its marker alone: nothing of it is passed.
    this.inKey = false;
  }

  private pass(bytes: Buffer, complete: boolean): void {
    const scanned = this.redactor.scan(bytes, bytes.toString('latin1'), this.inKey, complete);
    this.inKey = scanned.inKey;
    for (const part of scanned.out) if (part.length > 0) this.to(part);
    if (scanned.cut < bytes.length) this.hold(bytes.subarray(scanned.cut));
  }

  private hold(bytes: Buffer): void {
    // A copy: the caller may reuse the chunk's buffer.
    this.held.push(Buffer.from(bytes));
    this.heldBytes += bytes.length;
  }

  private take(): Buffer {
    const held = this.held.length === 1 ? this.held[0]! : Buffer.concat(this.held);
    this.held = [];
    this.heldBytes = 0;
    return held;
  }
}

/** The names of PINGMON_REDACT_ENV: separated by commas (or spaces). */
function namesIn(list: string | undefined): string[] {
  return (list ?? '').split(/[\s,]+/).filter(Boolean);
}

/** A --redact-pattern / PINGMON_REDACT_PATTERN, compiled, or a TypeError saying how to fix it. */
export function redactPattern(pattern: string): RegExp {
  try {
    return new RegExp(pattern, 'i');
  } catch (err) {
    throw new TypeError(
      `the redact pattern ${JSON.stringify(pattern)} is not a regular expression (${(err as Error).message}): ` +
        'give one such as "(_TOKEN|_PASS)$", matched against the names of environment variables',
      { cause: err },
    );
  }
}

function escape(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}
