import { jsonBody, optionalString, urlOf } from './common.js';
import type { VendorRequest } from './common.js';

/** Message_MaxAllowedSize as Rocket.Chat ships it (its server counts UTF-16 units). */
const ROCKETCHAT_MAX_CHARS = 5_000;
const STRING_FIELDS = ['text', 'alias', 'emoji', 'avatar', 'channel', 'roomId'];

/** A Rocket.Chat incoming webhook: POST /hooks/INTEGRATION/TOKEN with JSON, text within the message size. */
export function checkRocketchat(req: VendorRequest): string[] {
  const problems: string[] = [];
  if (req.method !== 'POST') problems.push(`method ${req.method}, not POST`);
  const path = urlOf(req).pathname;
  if (!/^\/hooks\/[^/]+\/[^/]+$/.test(path)) problems.push(`path ${path} is no /hooks/INTEGRATION/TOKEN`);
  const body = jsonBody(req, problems);
  if (body === null) return problems;
  for (const field of STRING_FIELDS) optionalString(body, field, problems);
  optionalString(body, 'text', problems, ROCKETCHAT_MAX_CHARS, (text) => text.length);
  if (!body.text && !Array.isArray(body.attachments)) problems.push('neither text nor attachments');
  return problems;
}
