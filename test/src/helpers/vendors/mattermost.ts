import { codePoints, jsonBody, optionalString, urlOf } from './common.js';
import type { VendorRequest } from './common.js';

/** A post's message, in runes (Mattermost 5.0 and later; older servers took 4,000). */
const MATTERMOST_MAX_RUNES = 16_383;
const STRING_FIELDS = ['text', 'channel', 'username', 'icon_url', 'icon_emoji', 'type'];

/** A Mattermost incoming webhook: POST /hooks/KEY with JSON, text within a post's length. */
export function checkMattermost(req: VendorRequest): string[] {
  const problems: string[] = [];
  if (req.method !== 'POST') problems.push(`method ${req.method}, not POST`);
  const path = urlOf(req).pathname;
  if (!/^\/hooks\/[a-z0-9]+$/.test(path)) problems.push(`path ${path} is no /hooks/KEY`);
  const body = jsonBody(req, problems);
  if (body === null) return problems;
  for (const field of STRING_FIELDS) optionalString(body, field, problems);
  const text = body.text;
  if (typeof text === 'string' && codePoints(text) > MATTERMOST_MAX_RUNES) {
    problems.push(`text has ${codePoints(text)} runes, over ${MATTERMOST_MAX_RUNES}`);
  }
  if (!text && !Array.isArray(body.attachments)) problems.push('neither text nor attachments');
  if (body.attachments !== undefined && !Array.isArray(body.attachments)) problems.push('attachments is no array');
  return problems;
}
