import { jsonBody, optionalString, urlOf, utf8Bytes } from './common.js';
import type { VendorRequest } from './common.js';

/** The whole message (spaces.messages.create). */
const GOOGLECHAT_MAX_BYTES = 32_000;
/** A text message's characters (what the Chat apps show of a longer one is cut). */
const GOOGLECHAT_TEXT_MAX_CHARS = 4_096;
/** Google's APIs refuse unknown fields ("Invalid JSON payload received. Unknown name"). */
const MESSAGE_FIELDS = new Set([
  'text',
  'cardsV2',
  'cards',
  'thread',
  'fallbackText',
  'accessoryWidgets',
  'privateMessageViewer',
  'attachment',
  'actionResponse',
  'quotedMessageMetadata',
]);

/**
 * A Google Chat incoming webhook: POST /v1/spaces/SPACE/messages?key=…&token=… with a Message as JSON, text or
 * cards, no field the API does not know.
 */
export function checkGooglechat(req: VendorRequest): string[] {
  const problems: string[] = [];
  if (req.method !== 'POST') problems.push(`method ${req.method}, not POST`);
  const url = urlOf(req);
  if (!/^\/v1\/spaces\/[^/]+\/messages$/.test(url.pathname))
    problems.push(`path ${url.pathname} is no space's messages`);
  if (!url.searchParams.get('key') || !url.searchParams.get('token')) problems.push('the URL has no key and token');
  const bytes = utf8Bytes(req.body);
  if (bytes > GOOGLECHAT_MAX_BYTES) problems.push(`${bytes} bytes, over ${GOOGLECHAT_MAX_BYTES}`);
  const body = jsonBody(req, problems);
  if (body === null) return problems;
  for (const field of Object.keys(body)) if (!MESSAGE_FIELDS.has(field)) problems.push(`unknown field ${field}`);
  const text = optionalString(body, 'text', problems, GOOGLECHAT_TEXT_MAX_CHARS);
  if (text === undefined && body.cardsV2 === undefined) problems.push('neither text nor cardsV2');
  if (text !== undefined && (text.match(/```/g)?.length ?? 0) % 2 !== 0)
    problems.push('a monospace block is not closed');
  return problems;
}
