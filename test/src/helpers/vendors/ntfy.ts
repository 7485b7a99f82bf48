import { header, isHttpUrl, jsonBody, optionalString, urlOf, utf8Bytes } from './common.js';
import type { VendorRequest } from './common.js';

/** The server's default message-size-limit: a longer message is turned into an attachment. */
const NTFY_MAX_BYTES = 4_096;

/**
 * ntfy's JSON publishing: POST (or PUT) to the server's root, the topic in the body (with title, priority 1-5,
 * tags, click), and an Authorization header when the topic needs one.
 */
export function checkNtfy(req: VendorRequest): string[] {
  const problems: string[] = [];
  if (req.method !== 'POST' && req.method !== 'PUT') problems.push(`method ${req.method}, not POST or PUT`);
  const path = urlOf(req).pathname;
  if (path !== '/') problems.push(`path ${path}: JSON is published to the root URL`);
  const auth = header(req, 'authorization');
  if (auth !== undefined && !/^(Bearer \S+|Basic [A-Za-z0-9+/]+=*)$/.test(auth)) {
    problems.push('authorization is neither Bearer nor Basic');
  }
  const body = jsonBody(req, problems);
  if (body === null) return problems;
  if (typeof body.topic !== 'string' || !/^[-_A-Za-z0-9]{1,64}$/.test(body.topic)) {
    problems.push(`topic ${JSON.stringify(body.topic)} is no topic`);
  }
  optionalString(body, 'message', problems, NTFY_MAX_BYTES, utf8Bytes);
  optionalString(body, 'title', problems);
  const priority = body.priority;
  if (
    priority !== undefined &&
    !(Number.isInteger(priority) && (priority as number) >= 1 && (priority as number) <= 5)
  ) {
    problems.push(`priority ${JSON.stringify(priority)} is not 1 to 5`);
  }
  const tags = body.tags;
  if (tags !== undefined && !(Array.isArray(tags) && tags.every((tag) => typeof tag === 'string'))) {
    problems.push('tags is no array of strings');
  }
  if (body.click !== undefined && !isHttpUrl(body.click)) problems.push('click is no http(s) URL');
  if (body.markdown !== undefined && typeof body.markdown !== 'boolean') problems.push('markdown is no boolean');
  return problems;
}
