import {
  checkString,
  header,
  isHttpUrl,
  isObject,
  isTimestamp,
  jsonRequest,
  unknownKeys,
  urlOf,
} from './json-checks.js';
import type { VendorRequest } from './json-checks.js';

// PagerDuty's Events API v2 (developer.pagerduty.com, "Send an Alert Event"; PagerDuty/developer-docs,
// docs/events-API-v2): POST /v2/enqueue, a JSON event of at most 512 KB.
const MAX_BODY_BYTES = 512 * 1024;
const ACTIONS = ['trigger', 'acknowledge', 'resolve'] as const;
const SEVERITIES = ['critical', 'error', 'warning', 'info'] as const;

export function checkPagerduty(req: VendorRequest): string[] {
  const problems: string[] = [];
  if (urlOf(req).pathname !== '/v2/enqueue') problems.push(`path ${urlOf(req).pathname} is not /v2/enqueue`);
  if (Buffer.byteLength(req.body) > MAX_BODY_BYTES) problems.push('the body is over 512 KB');
  if (header(req, 'authorization') !== undefined)
    problems.push('an Authorization header: the routing key goes in the body');
  const event = jsonRequest(req, problems);
  if (event === undefined) return problems;
  if (!isObject(event)) return [...problems, 'the body is not an object'];
  const top = ['routing_key', 'event_action', 'dedup_key', 'payload', 'images', 'links', 'client', 'client_url'];
  unknownKeys(problems, event, top, 'body');
  if (typeof event.routing_key !== 'string' || !/^[A-Za-z0-9]{32}$/.test(event.routing_key)) {
    problems.push('body.routing_key is not a 32-character integration key');
  }
  checkString(problems, event, 'event_action', 'body', { required: true, oneOf: ACTIONS });
  checkString(problems, event, 'dedup_key', 'body', { required: event.event_action !== 'trigger', min: 1, max: 255 });
  if (event.event_action !== 'trigger') {
    if (event.payload !== undefined) problems.push(`body.payload is ignored by a ${String(event.event_action)}`);
    return problems;
  }
  checkPayload(event.payload, problems);
  checkString(problems, event, 'client', 'body');
  if (event.client_url !== undefined && !isHttpUrl(event.client_url)) problems.push('body.client_url is not a URL');
  checkLinks(event.links, problems);
  if (event.images !== undefined && !Array.isArray(event.images)) problems.push('body.images is not an array');
  return problems;
}

function checkPayload(payload: unknown, problems: string[]): void {
  if (!isObject(payload)) return void problems.push('body.payload is missing: a trigger needs one');
  const known = ['summary', 'source', 'severity', 'timestamp', 'component', 'group', 'class', 'custom_details'];
  unknownKeys(problems, payload, known, 'body.payload');
  checkString(problems, payload, 'summary', 'body.payload', { required: true, min: 1, max: 1024 });
  checkString(problems, payload, 'source', 'body.payload', { required: true, min: 1 });
  checkString(problems, payload, 'severity', 'body.payload', { required: true, oneOf: SEVERITIES });
  for (const key of ['component', 'group', 'class']) checkString(problems, payload, key, 'body.payload');
  if (payload.timestamp !== undefined && !isTimestamp(payload.timestamp)) {
    problems.push('body.payload.timestamp is not an ISO 8601 time');
  }
  if (payload.custom_details !== undefined && !isObject(payload.custom_details)) {
    problems.push('body.payload.custom_details is not an object');
  }
}

function checkLinks(links: unknown, problems: string[]): void {
  if (links === undefined) return;
  if (!Array.isArray(links)) return void problems.push('body.links is not an array');
  links.forEach((link: unknown, i) => {
    if (!isObject(link) || !isHttpUrl(link.href)) return void problems.push(`body.links[${i}] has no href URL`);
    unknownKeys(problems, link, ['href', 'text'], `body.links[${i}]`);
    checkString(problems, link, 'text', `body.links[${i}]`);
  });
}
