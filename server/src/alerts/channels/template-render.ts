// The template channel's renderer: {{name}} placeholders in a body (JSON, form or text) or a header value, each
// value escaped for where it stands. Which names exist is the caller's business (template.ts).

/** How a body's values are escaped. */
export type BodyType = 'json' | 'form' | 'text';

export interface Placeholder {
  name: string;
  start: number;
  end: number;
  /** JSON bodies: inside a string literal (the value is string content), else a whole JSON value. */
  inString: boolean;
}

const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A header value at most this long once encoded: a receiver's whole header block is often capped at 8 to 16 KiB. */
export const HEADER_MAX_CHARS = 1_000;

export function placeholdersOf(text: string, type: BodyType): Placeholder[] {
  const found: Placeholder[] = [];
  let inString = false;
  let i = 0;
  for (const m of text.matchAll(PLACEHOLDER)) {
    for (; type === 'json' && i < m.index; i++) {
      if (text[i] === '"') inString = !inString;
      else if (text[i] === '\\' && inString) i++;
    }
    i = m.index + m[0].length;
    found.push({ name: m[1]!.trim(), start: m.index, end: i, inString });
  }
  return found;
}

/** `text` with each placeholder replaced by `replace(placeholder)`. */
export function fill(text: string, placeholders: Placeholder[], replace: (p: Placeholder) => string): string {
  let out = '';
  let at = 0;
  for (const p of placeholders) {
    out += text.slice(at, p.start) + replace(p);
    at = p.end;
  }
  return out + text.slice(at);
}

/** A body with every placeholder's value escaped for its type and place. */
export function renderBody(text: string, type: BodyType, valueOf: (name: string) => unknown): string {
  return fill(text, placeholdersOf(text, type), (p) => {
    const value = valueOf(p.name);
    if (type === 'form') return formEncode(asText(value));
    if (type === 'text') return asText(value);
    return p.inString ? JSON.stringify(asText(value)).slice(1, -1) : JSON.stringify(value ?? null);
  });
}

/**
 * A header value: one line of visible ASCII, trimmed, cut whole at HEADER_MAX_CHARS. In values, "%" and all but
 * visible ASCII are percent-encoded (UTF-8), so that decoding gives them back; controls become spaces.
 */
export function renderHeader(text: string, valueOf: (name: string) => unknown): string {
  const pieces: string[] = [];
  let at = 0;
  for (const p of placeholdersOf(text, 'text')) {
    pieces.push(...headerPieces(text.slice(at, p.start), false), ...headerPieces(asText(valueOf(p.name)), true));
    at = p.end;
  }
  pieces.push(...headerPieces(text.slice(at), false));
  let out = '';
  for (const piece of pieces) {
    if (out.length + piece.length > HEADER_MAX_CHARS) break;
    out += piece;
  }
  return out.trim();
}

function headerPieces(text: string, value: boolean): string[] {
  return [...wellFormed(text)].map((ch) => {
    if (ch < ' ' || ch === '\x7f') return ' ';
    return ch > '~' || (value && ch === '%') ? encodeURIComponent(ch) : ch;
  });
}

/** A value as text: strings as they are, null as nothing, numbers as written, objects and arrays as JSON. */
export function asText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** application/x-www-form-urlencoded, as URLSearchParams writes it: only letters, digits and *-._ left as they are. */
export function formEncode(text: string): string {
  return encodeURIComponent(wellFormed(text))
    .replace(/%20/g, '+')
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A half of a surrogate pair alone cannot be encoded as UTF-8: it becomes U+FFFD, as a decoder would make it. */
function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\ufffd');
}

/** Why `text` does not parse as JSON, and where when the parser says. */
export function jsonError(text: string): { message: string; index: number | null } | null {
  try {
    JSON.parse(text);
    return null;
  } catch (error) {
    const message = (error as Error).message;
    const at = /at position (\d+)/.exec(message);
    return { message, index: at ? Number(at[1]) : null };
  }
}

/** "line 2, column 7" of a position in `text`. */
export function lineColumn(text: string, index: number): string {
  const before = text.slice(0, index).split('\n');
  return `line ${before.length}, column ${before.at(-1)!.length + 1}`;
}
