// What the vendor checkers of this folder share: reading a request (a kind's OutgoingRequest, or one a receiver got)
// and checking JSON fields the way a vendor's API documents them.

export interface VendorRequest {
  method: string;
  /** A whole URL, or a receiver's path and query. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A header by name, whatever its case. */
export function header(req: VendorRequest, name: string): string | undefined {
  const entry = Object.entries(req.headers).find(([key]) => key.toLowerCase() === name.toLowerCase());
  return Array.isArray(entry?.[1]) ? entry[1].join(', ') : entry?.[1];
}

export function urlOf(req: VendorRequest): URL {
  return new URL(req.url, 'http://receiver.invalid');
}

/** The problems every JSON API here shares: the method, the content type, a body that parses. */
export function jsonRequest(req: VendorRequest, problems: string[]): unknown {
  if (req.method !== 'POST') problems.push(`method is ${req.method}, not POST`);
  const type = header(req, 'content-type') ?? '';
  if (!/^application\/json\b/i.test(type)) problems.push(`content-type is "${type}", not application/json`);
  try {
    const body: unknown = JSON.parse(req.body);
    loneSurrogates(body, 'body', problems);
    return body;
  } catch (error) {
    problems.push(`the body is not JSON: ${(error as Error).message}`);
    return undefined;
  }
}

/** Half a surrogate pair is not a character: JSON text with one is not valid Unicode. */
function loneSurrogates(value: unknown, where: string, problems: string[]): void {
  if (typeof value === 'string') {
    if (/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value)) {
      problems.push(`${where} has half a surrogate pair (a character cut in two)`);
    }
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => loneSurrogates(item, `${where}[${i}]`, problems));
  } else if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      loneSurrogates(key, `a key of ${where}`, problems);
      loneSurrogates(item, `${where}.${key}`, problems);
    }
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Characters as vendors count them: code points, an emoji one. */
export function chars(text: string): number {
  return [...text].length;
}

export interface StringRule {
  required?: boolean;
  min?: number;
  max?: number;
  oneOf?: readonly string[];
}

/** `object[key]` is a string within the rule (or absent, when not required). */
export function checkString(
  problems: string[],
  object: Record<string, unknown>,
  key: string,
  where: string,
  rule: StringRule = {},
) {
  const value = object[key];
  const name = `${where}.${key}`;
  if (value === undefined) {
    if (rule.required) problems.push(`${name} is missing`);
    return;
  }
  if (typeof value !== 'string') return void problems.push(`${name} is not a string`);
  if (rule.min !== undefined && chars(value) < rule.min) problems.push(`${name} is shorter than ${rule.min}`);
  if (rule.max !== undefined && chars(value) > rule.max) {
    problems.push(`${name} has ${chars(value)} characters, over ${rule.max}`);
  }
  if (rule.oneOf && !rule.oneOf.includes(value))
    problems.push(`${name} is "${value}", not one of ${rule.oneOf.join(', ')}`);
}

/** Keys the API does not document: a typo, or a field it ignores. */
export function unknownKeys(
  problems: string[],
  object: Record<string, unknown>,
  known: readonly string[],
  where: string,
) {
  for (const key of Object.keys(object))
    if (!known.includes(key)) problems.push(`${where}.${key} is not a documented field`);
}

/** An ISO 8601 / RFC 3339 time with its zone. */
export function isTimestamp(value: unknown): boolean {
  return (
    typeof value === 'string' &&
    /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)$/.test(value) &&
    !Number.isNaN(Date.parse(value))
  );
}

export function isHttpUrl(value: unknown): boolean {
  return typeof value === 'string' && URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
}
