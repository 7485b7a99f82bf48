import { SMTPServer } from 'smtp-server';

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** A mail as the SMTP server received it, its MIME parts decoded. */
export interface ReceivedMail {
  from: string;
  to: string[];
  /** Header names in lower case; values unfolded, encoded words decoded. */
  headers: Record<string, string>;
  subject: string;
  text: string;
  html: string;
  raw: string;
}

/** Why the server refuses a message: an SMTP reply code and its text. */
export interface Refusal {
  code: number;
  message: string;
}

export interface SmtpOptions {
  /** Listen on this port (to come back where a stopped server was). */
  port?: number;
  /**
   * A message to these recipients, the n-th DATA (1 for the first), is refused when this answers a refusal, and
   * left unanswered when it answers 'hold' (until the client gives up, or the server closes).
   */
  refuseData?: (to: string[], n: number) => Refusal | 'hold' | undefined;
  /** A recipient is refused when this answers a refusal. */
  refuseRecipient?: (address: string) => Refusal | undefined;
  /** Require this user name and password (AUTH PLAIN or LOGIN). */
  auth?: { user: string; pass: string };
}

function refusal(r: Refusal): Error {
  return Object.assign(new Error(r.message), { responseCode: r.code });
}

/**
 * A real SMTP server on 127.0.0.1 that keeps every message it accepts. Plain SMTP (no STARTTLS offered: nothing
 * to verify a certificate against), AUTH allowed over it when `auth` is given.
 */
export async function startSmtp(t: Teardown, options: SmtpOptions = {}) {
  const received: ReceivedMail[] = [];
  let dataCommands = 0;
  const held = new Set<(err: Error) => void>();
  const server = new SMTPServer({
    logger: false,
    disabledCommands: options.auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    allowInsecureAuth: true,
    authOptional: !options.auth,
    onAuth(auth, _session, callback) {
      const ok = auth.username === options.auth?.user && auth.password === options.auth?.pass;
      callback(ok ? null : refusal({ code: 535, message: 'Authentication failed' }), ok ? { user: 'ok' } : undefined);
    },
    onRcptTo(address, _session, callback) {
      const refused = options.refuseRecipient?.(address.address);
      callback(refused ? refusal(refused) : null);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address);
        const refused = options.refuseData?.(to, ++dataCommands);
        if (refused === 'hold') return held.add(callback);
        if (refused) return callback(refusal(refused));
        const raw = Buffer.concat(chunks).toString('utf8');
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        received.push({ ...parseMail(raw), from, to, raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= new Promise<void>((resolve) => {
      for (const answer of held) answer(refusal({ code: 421, message: 'closing' }));
      server.close(() => resolve());
    }));
  t.teardown(close);
  return { url: `smtp://127.0.0.1:${port}`, port, received, close, dataCommands: () => dataCommands };
}

/** A MIME entity: its headers and its body, decoded; a multipart one's parts, walked for text and HTML. */
function parseMail(raw: string): Pick<ReceivedMail, 'headers' | 'subject' | 'text' | 'html'> {
  const found = { text: '', html: '' };
  const headers = walk(raw, found);
  return { headers, subject: headers.subject ?? '', ...found };
}

function walk(entity: string, found: { text: string; html: string }): Record<string, string> {
  const split = entity.indexOf('\r\n\r\n');
  const head = split === -1 ? entity : entity.slice(0, split);
  const body = split === -1 ? '' : entity.slice(split + 4);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = decodeWords(line.slice(colon + 1).trim());
  }
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (boundary) {
    const parts = body.split(`--${boundary}`).slice(1, -1);
    for (const part of parts) walk(part.replace(/^\r\n/, ''), found);
  } else {
    // Mail has CRLF line ends: read as a mail client shows it.
    const text = decodeBody(body, headers['content-transfer-encoding'] ?? '7bit').replace(/\r\n/g, '\n');
    if (/^text\/html/i.test(type)) found.html = text;
    else if (/^text\/plain/i.test(type)) found.text = text;
  }
  return headers;
}

function decodeBody(body: string, encoding: string): string {
  if (/quoted-printable/i.test(encoding)) return quotedPrintable(body.replace(/=\r\n/g, ''));
  if (/base64/i.test(encoding)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

/** "=C3=A9" as the UTF-8 bytes they are, then as text. */
function quotedPrintable(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const hex = text[i] === '=' ? /^[0-9A-F]{2}/i.exec(text.slice(i + 1, i + 3)) : null;
    if (hex) {
      bytes.push(parseInt(hex[0], 16));
      i += 2;
    } else bytes.push(...Buffer.from(text[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** RFC 2047 encoded words (=?UTF-8?Q?…?= and =?UTF-8?B?…?=), the whitespace between two of them dropped. */
function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?[^?]+\?([QB])\?([^?]*)\?=/gi, (_all, kind: string, data: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : quotedPrintable(data.replace(/_/g, ' ')),
    );
}
