import { htmlProblems, isHttpUrl, jsonBody, optionalString, urlOf } from './common.js';
import type { VendorRequest } from './common.js';

const KEY = /^[A-Za-z0-9]{30}$/;
/** Pushover's HTML (pushover.net/api#html). */
const HTML = { tags: { b: [], i: [], u: [], font: ['color'], a: ['href'] } };

/**
 * Pushover's message API: POST /1/messages.json with token, user and message, each field within its limit
 * (pushover.net/api#limits), an emergency with its retry and expire.
 */
export function checkPushover(req: VendorRequest): string[] {
  const problems: string[] = [];
  if (req.method !== 'POST') problems.push(`method ${req.method}, not POST`);
  const path = urlOf(req).pathname;
  if (path !== '/1/messages.json') problems.push(`path ${path}, not /1/messages.json`);
  const body = jsonBody(req, problems);
  if (body === null) return problems;
  if (typeof body.token !== 'string' || !KEY.test(body.token)) problems.push('token is no application token');
  if (typeof body.user !== 'string' || !KEY.test(body.user)) problems.push('user is no user or group key');
  const message = optionalString(body, 'message', problems, 1_024);
  if (!message) problems.push('no message');
  optionalString(body, 'title', problems, 250);
  const url = optionalString(body, 'url', problems, 512);
  if (url !== undefined && !isHttpUrl(url)) problems.push('url is no http(s) URL');
  optionalString(body, 'url_title', problems, 100);
  optionalString(body, 'sound', problems);
  optionalString(body, 'device', problems);
  if (body.html !== undefined && body.html !== 0 && body.html !== 1) problems.push('html is not 0 or 1');
  if (body.html === 1 && body.monospace === 1) problems.push('html and monospace together');
  if (body.html === 1 && message) problems.push(...htmlProblems(message, HTML));
  const priority = body.priority ?? 0;
  if (![-2, -1, 0, 1, 2].includes(priority as number)) problems.push(`priority ${JSON.stringify(priority)}`);
  if (priority === 2) {
    if (!(Number.isInteger(body.retry) && (body.retry as number) >= 30))
      problems.push('an emergency without retry ≥ 30');
    if (!(Number.isInteger(body.expire) && (body.expire as number) <= 10_800)) {
      problems.push('an emergency without expire ≤ 10800');
    }
  }
  if (body.timestamp !== undefined && !Number.isInteger(body.timestamp)) problems.push('timestamp is no integer');
  return problems;
}
