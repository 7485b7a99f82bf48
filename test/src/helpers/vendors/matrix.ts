import { header, htmlProblems, jsonBody, optionalString, urlOf, utf8Bytes } from './common.js';
import type { VendorRequest } from './common.js';

/** An event's limit, the homeserver's envelope included: the content alone must be below it. */
const MATRIX_EVENT_MAX_BYTES = 65_536;
/** The HTML the client-server API recommends clients accept in formatted_body (m.room.message, "HTML"). */
const HTML = {
  tags: Object.fromEntries(
    [
      'del',
      'h1',
      'h2',
      'h3',
      'h4',
      'h5',
      'h6',
      'blockquote',
      'p',
      'ul',
      'ol',
      'sup',
      'sub',
      'li',
      'b',
      'i',
      'u',
      'strong',
      'em',
      's',
      'hr',
      'br',
      'div',
      'table',
      'thead',
      'tbody',
      'tr',
      'th',
      'td',
      'caption',
      'pre',
      'details',
      'summary',
    ]
      .map((tag): [string, string[]] => [tag, []])
      .concat([
        ['a', ['href', 'target']],
        ['code', ['class']],
        ['span', ['data-mx-color', 'data-mx-bg-color', 'data-mx-spoiler', 'data-mx-maths']],
        ['font', ['color', 'data-mx-color', 'data-mx-bg-color']],
        ['img', ['width', 'height', 'alt', 'title', 'src']],
      ]),
  ),
};

/**
 * The client-server API's PUT /_matrix/client/v3/rooms/{roomId}/send/m.room.message/{txnId}: a room id (not an
 * alias), a transaction id, a bearer token, and an m.room.message with msgtype and body (and formatted_body in
 * org.matrix.custom.html) within an event's size.
 */
export function checkMatrix(req: VendorRequest): string[] {
  const problems: string[] = [];
  if (req.method !== 'PUT') problems.push(`method ${req.method}, not PUT`);
  const path = urlOf(req).pathname;
  const match = /^\/_matrix\/client\/v3\/rooms\/([^/]+)\/send\/([^/]+)\/([^/]+)$/.exec(path);
  if (match === null) problems.push(`path ${path} is no /_matrix/client/v3/rooms/{roomId}/send/{type}/{txnId}`);
  else {
    const [, room, type] = match.map(decodeURIComponent);
    if (!room!.startsWith('!')) problems.push(`room ${room} is no room id (!…)`);
    if (type !== 'm.room.message') problems.push(`event type ${type}`);
  }
  if (!/^Bearer \S+$/.test(header(req, 'authorization') ?? '')) problems.push('no Authorization: Bearer token');
  const bytes = utf8Bytes(req.body);
  if (bytes >= MATRIX_EVENT_MAX_BYTES) problems.push(`content of ${bytes} bytes, not below ${MATRIX_EVENT_MAX_BYTES}`);
  const body = jsonBody(req, problems);
  if (body === null) return problems;
  if (typeof body.msgtype !== 'string') problems.push('no msgtype');
  if (typeof body.body !== 'string') problems.push('no body');
  if (body.format !== undefined) {
    if (body.format !== 'org.matrix.custom.html') problems.push(`format ${JSON.stringify(body.format)}`);
    const html = optionalString(body, 'formatted_body', problems);
    if (html === undefined) problems.push('format without formatted_body');
    else problems.push(...htmlProblems(html, HTML));
  }
  const mentions = body['m.mentions'];
  if (mentions !== undefined && (typeof mentions !== 'object' || mentions === null || Array.isArray(mentions))) {
    problems.push('m.mentions is not an object');
  }
  return problems;
}
