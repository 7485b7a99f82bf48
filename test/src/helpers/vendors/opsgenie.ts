import { chars, checkString, header, isObject, jsonRequest, unknownKeys, urlOf } from './json-checks.js';
import type { VendorRequest } from './json-checks.js';

// Opsgenie's Alert API (docs.opsgenie.com/docs/alert-api): "Create Alert", POST /v2/alerts, and "Close Alert",
// POST /v2/alerts/:identifier/close?identifierType=id|tiny|alias, with "Authorization: GenieKey <API key>".
// Limits in characters, as documented.
const PRIORITIES = ['P1', 'P2', 'P3', 'P4', 'P5'] as const;
const IDENTIFIER_TYPES = ['id', 'tiny', 'alias'] as const;

export function checkOpsgenie(req: VendorRequest): string[] {
  const problems: string[] = [];
  const auth = header(req, 'authorization') ?? '';
  if (!/^GenieKey \S+$/.test(auth)) problems.push('no "Authorization: GenieKey <API key>" header');
  const url = urlOf(req);
  const close = /^(.*)\/v2\/alerts\/([^/]+)\/close$/.exec(url.pathname);
  const body = jsonRequest(req, problems);
  if (body !== undefined && !isObject(body)) return [...problems, 'the body is not an object'];
  if (close) {
    const type = url.searchParams.get('identifierType') ?? 'id';
    if (!(IDENTIFIER_TYPES as readonly string[]).includes(type)) problems.push(`identifierType "${type}" is unknown`);
    if (type === 'alias' && chars(decodeURIComponent(close[2]!)) > 512)
      problems.push('the alias is over 512 characters');
    if (body) checkClose(body, problems);
  } else if (url.pathname.endsWith('/v2/alerts')) {
    if (url.search !== '') problems.push(`Create Alert takes no query (${url.search})`);
    if (body) checkCreate(body, problems);
  } else {
    problems.push(`path ${url.pathname} is neither …/v2/alerts nor …/v2/alerts/:identifier/close`);
  }
  return problems;
}

function checkCreate(body: Record<string, unknown>, problems: string[]): void {
  const known = ['message', 'alias', 'description', 'responders', 'visibleTo', 'actions', 'tags', 'details'];
  unknownKeys(problems, body, [...known, 'entity', 'source', 'priority', 'user', 'note'], 'body');
  checkString(problems, body, 'message', 'body', { required: true, min: 1, max: 130 });
  checkString(problems, body, 'alias', 'body', { max: 512 });
  checkString(problems, body, 'description', 'body', { max: 15_000 });
  checkString(problems, body, 'entity', 'body', { max: 512 });
  checkString(problems, body, 'source', 'body', { max: 100 });
  checkString(problems, body, 'user', 'body', { max: 100 });
  checkString(problems, body, 'note', 'body', { max: 25_000 });
  checkString(problems, body, 'priority', 'body', { oneOf: PRIORITIES });
  checkList(body.tags, 'tags', 20, problems);
  checkList(body.actions, 'actions', 10, problems);
  if (body.details !== undefined) {
    if (!isObject(body.details)) return void problems.push('body.details is not an object');
    let total = 0;
    for (const [key, value] of Object.entries(body.details)) {
      if (typeof value !== 'string') problems.push(`body.details.${key} is not a string`);
      else total += chars(key) + chars(value);
    }
    if (total > 8_000) problems.push(`body.details has ${total} characters, over 8000`);
  }
}

function checkClose(body: Record<string, unknown>, problems: string[]): void {
  unknownKeys(problems, body, ['user', 'source', 'note'], 'body');
  checkString(problems, body, 'user', 'body', { max: 100 });
  checkString(problems, body, 'source', 'body', { max: 100 });
  checkString(problems, body, 'note', 'body', { max: 25_000 });
}

/** Tags and actions: at most `max` strings of at most 50 characters. */
function checkList(list: unknown, name: string, max: number, problems: string[]): void {
  if (list === undefined) return;
  if (!Array.isArray(list)) return void problems.push(`body.${name} is not an array`);
  if (list.length > max) problems.push(`body.${name} has ${list.length} items, over ${max}`);
  for (const item of list) {
    if (typeof item !== 'string' || chars(item) > 50)
      problems.push(`body.${name} has "${String(item)}", not 1 to 50 characters`);
  }
}
