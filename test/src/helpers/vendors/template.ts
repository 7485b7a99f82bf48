import { validateHeaderName, validateHeaderValue } from 'node:http';

type Request = { method: string; url: string; headers: Record<string, string | string[] | undefined>; body: string };

const FORM_ENCODED = /^(?:[A-Za-z0-9*\-._+=&]|%[0-9A-F]{2})*$/;

/**
 * A templated webhook has no vendor: its request is right when its body parses as the content type it names (one of
 * the three pingmon sends), and Node's HTTP would carry every header as it is.
 */
export function checkTemplate(req: Request): string[] {
  const problems: string[] = [];
  if (req.method !== 'POST' && req.method !== 'PUT') problems.push(`method ${req.method}: POST or PUT`);
  if (!/^https?:\/\//.test(req.url) && !req.url.startsWith('/')) problems.push(`url ${req.url}: not http(s)`);
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) problems.push(`header ${name}: sent more than once`);
    try {
      validateHeaderName(name);
      for (const one of [value].flat()) validateHeaderValue(name, one);
    } catch (error) {
      problems.push(`header ${name}: ${(error as Error).message}`);
    }
    if ([value].flat().some((one) => !/^[\x20-\x7e]*$/.test(one))) problems.push(`header ${name}: not visible ASCII`);
  }
  if (!/^pingmon\/\S+$/.test(String(req.headers['user-agent']))) problems.push('user-agent: not pingmon/<version>');
  const signed = req.headers['x-pingmon-signature'];
  if (signed !== undefined && !/^t=\d+,v1=[0-9a-f]{64}$/.test(String(signed)))
    problems.push(`x-pingmon-signature ${String(signed)}: not t=<unix>,v1=<hex>`);
  const type = req.headers['content-type'];
  if (type === 'application/json') {
    try {
      JSON.parse(req.body);
    } catch (error) {
      problems.push(`body: not JSON (${(error as Error).message})`);
    }
  } else if (type === 'application/x-www-form-urlencoded') {
    if (!FORM_ENCODED.test(req.body)) problems.push('body: not strictly form-encoded');
    try {
      for (const piece of req.body.split(/[&=]/)) decodeURIComponent(piece.replace(/\+/g, ' '));
    } catch {
      problems.push('body: a %-escape is not UTF-8');
    }
  } else if (type !== 'text/plain; charset=utf-8') {
    problems.push(`content-type ${String(type)}: not one of pingmon's three`);
  }
  return problems;
}
