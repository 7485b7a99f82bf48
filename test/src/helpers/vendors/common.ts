/** A request as a receiver saw it: `url` is its path and query (a full URL also does). */
export interface VendorRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export type Json = Record<string, unknown>;

export function header(req: VendorRequest, name: string): string | undefined {
  const key = Object.keys(req.headers).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : req.headers[key];
  return Array.isArray(value) ? value[0] : value;
}

export function urlOf(req: VendorRequest): URL {
  return new URL(req.url, 'http://receiver.invalid');
}

/** The body as the JSON object it must be, sent as JSON; null (and a problem) when it is not. */
export function jsonBody(req: VendorRequest, problems: string[]): Json | null {
  const type = header(req, 'content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) problems.push(`content-type is "${type}", not application/json`);
  try {
    const value: unknown = JSON.parse(req.body);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Json;
    problems.push('the body is not a JSON object');
  } catch {
    problems.push('the body is not JSON');
  }
  return null;
}

export const codePoints = (text: string) => [...text].length;
export const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** `field` of `body`, when present, is a string of at most `max` characters (`count` counts them); else a problem. */
export function optionalString(
  body: Json,
  field: string,
  problems: string[],
  max = Infinity,
  count: (text: string) => number = codePoints,
): string | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    problems.push(`${field} is not a string`);
    return undefined;
  }
  if (count(value) > max) problems.push(`${field} has ${count(value)} characters, over ${max}`);
  return value;
}

export function isHttpUrl(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

export interface HtmlRules {
  /** Each allowed tag and the attributes it may have. */
  tags: Record<string, string[]>;
  /** Tags that may contain no other tag, but these (Telegram's <pre> and <code>). */
  leaves?: Record<string, string[]>;
}

const VOID_TAGS = new Set(['br', 'hr', 'img']);

/**
 * HTML read as a strict receiver reads it (Telegram's parse_mode HTML, Matrix's formatted_body): only allowed tags
 * and attributes, each closed in order, every <, > and & part of a tag or an entity.
 */
export function htmlProblems(html: string, rules: HtmlRules): string[] {
  const problems: string[] = [];
  const open: string[] = [];
  const token = /<(\/?)([a-z][a-z0-9-]*)((?:\s+[a-z-]+="[^"<>]*")*)\s*>|&(?:[a-z]+|#\d+|#x[0-9a-f]+);|[<>&]/gi;
  for (const match of html.matchAll(token)) {
    const [whole, closing, rawName, attributes] = match;
    if (rawName === undefined) {
      if (whole.length === 1) problems.push(`a bare "${whole}" at ${match.index}`);
      else if (!/^&(lt|gt|amp|quot|#\d+|#x[0-9a-f]+);$/i.test(whole)) problems.push(`an unknown entity ${whole}`);
      continue;
    }
    const name = rawName.toLowerCase();
    const allowed = rules.tags[name];
    if (allowed === undefined) {
      problems.push(`a tag that is not allowed: <${closing}${name}>`);
      continue;
    }
    if (closing) {
      const top = open.pop();
      if (top !== name) problems.push(`</${name}> closes <${top ?? 'nothing'}>`);
      continue;
    }
    for (const [, attribute] of (attributes ?? '').matchAll(/([a-z-]+)="/gi)) {
      if (!allowed.includes(attribute!.toLowerCase())) problems.push(`<${name}> has an attribute ${attribute}`);
    }
    const parent = open.at(-1);
    const inside = parent === undefined ? undefined : rules.leaves?.[parent];
    if (inside !== undefined && !inside.includes(name)) problems.push(`<${name}> inside <${parent}>`);
    if (!VOID_TAGS.has(name)) open.push(name);
  }
  if (open.length > 0) problems.push(`unclosed: ${open.map((name) => `<${name}>`).join(' ')}`);
  return problems;
}

/** The text a reader sees of HTML: tags gone, entities read. */
export function shownText(html: string): string {
  const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&(lt|gt|amp|quot);/g, (_, name: string) => named[name]!)
    .replace(/&#(x?)([0-9a-f]+);/gi, (_, hex: string, digits: string) =>
      String.fromCodePoint(parseInt(digits, hex ? 16 : 10)),
    );
}
