import Joi from 'joi';
import { details, headline, signature, USER_AGENT, webhookPayload } from '../payloads.js';
import type { AlertContent } from '../payloads.js';
import type { ChannelKind, SendContext } from './kind.js';
import { SAMPLE_ALERTS } from './samples.js';
import {
  fill,
  jsonError,
  lineColumn,
  placeholdersOf,
  renderBody,
  renderHeader,
  type BodyType,
} from './template-render.js';

/** A template channel's options, as its schema leaves them. */
export interface TemplateOptions {
  body: string;
  contentType?: BodyType;
  method?: 'POST' | 'PUT';
  /** Header name → a template of its value. */
  headers?: Record<string, string>;
}

export const TEMPLATE_MAX_CHARS = 16_384;
const HEADERS_MAX = 20;
const HEADER_TEMPLATE_MAX_CHARS = 2_000;

const CONTENT_TYPES: Record<BodyType, string> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  text: 'text/plain; charset=utf-8',
};

/** What a placeholder may name, besides meta.<key> (any key of the run's meta). */
export const PLACEHOLDER_NAMES = [
  'event',
  'headline',
  'details',
  'alertId',
  'incidentKey',
  'messageKey',
  'monitorId',
  'monitorName',
  'monitorSlug',
  'monitor',
  'monitor.id',
  'monitor.name',
  'monitor.slug',
  'runId',
  'status',
  'errorMessage',
  'logSnippet',
  'logTail',
  'meta',
  'matchedRules',
  'cause',
  'expectedAt',
  'lastRunAt',
  'lastRunStatus',
  'serverGap',
  'serverGap.from',
  'serverGap.to',
  'host',
  'monitors',
  'timestamp',
  'links',
  'links.monitor',
  'links.run',
] as const;

/** The values placeholders name: the webhook's payload, and what other channels' messages say. */
function fieldsOf(c: AlertContent, context: SendContext): Record<string, unknown> {
  const payload = webhookPayload(c);
  return {
    ...payload,
    headline: headline(c),
    details: details(c).join('\n'),
    // An alert outside an incident stands alone; a test message has no alert.
    incidentKey: c.incidentKey ?? c.alertId ?? 'pingmon-test',
    messageKey: context.messageKey,
    monitorSlug: c.monitorSlug ?? null,
    monitor: { id: c.monitorId, name: c.monitorName, slug: c.monitorSlug ?? null },
    cause: c.cause ?? null,
    host: c.host ?? null,
    monitors: 'monitors' in payload ? payload.monitors : null,
    links: { monitor: c.links?.monitor ?? null, run: c.links?.run ?? null },
  };
}

/** A placeholder's value; null for a name the fields do not have (never a prototype's property). */
function valueAt(fields: Record<string, unknown>, name: string): unknown {
  // A meta key may hold dots: it is everything after "meta.".
  const path = name.startsWith('meta.') ? ['meta', name.slice(5)] : name.split('.');
  let value: unknown = fields;
  for (const key of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return null;
    value = (value as Record<string, unknown>)[key];
  }
  return value ?? null;
}

/** The request's headers and body for an alert: content-type and user-agent included, the signature not. */
export function renderTemplate(options: TemplateOptions, content: AlertContent, context: SendContext) {
  const fields = fieldsOf(content, context);
  const valueOf = (name: string) => valueAt(fields, name);
  const headers: Record<string, string> = {};
  for (const [name, text] of Object.entries(options.headers ?? {})) {
    const value = renderHeader(text, valueOf);
    // An empty value says nothing a missing header does not, and some servers refuse it.
    if (value !== '') headers[name.toLowerCase()] = value;
  }
  const type = options.contentType ?? 'json';
  headers['content-type'] = CONTENT_TYPES[type];
  headers['user-agent'] = USER_AGENT;
  return { headers, body: renderBody(options.body, type, valueOf) };
}

export interface TemplatePreview {
  /** Which sample alert: its event, or "missed_group" for a missed alert of several monitors. */
  sample: string;
  event: AlertContent['event'];
  method: 'POST' | 'PUT';
  headers: Record<string, string>;
  body: string;
}

const sampleContext = (sample: string, content: AlertContent): SendContext => ({
  nowSeconds: Math.floor(content.createdAt / 1000),
  messageKey: `sample-${sample}`,
});

/** The template rendered for a sample alert of every event, or why it cannot be. */
export function previewTemplate(options: TemplateOptions): { problem: string | null; previews: TemplatePreview[] } {
  const problem = templateProblem(options);
  if (problem !== null) return { problem, previews: [] };
  const previews = Object.entries(SAMPLE_ALERTS).map(([sample, content]) => ({
    sample,
    event: content.event,
    method: options.method ?? 'POST',
    ...renderTemplate(options, content, sampleContext(sample, content)),
  }));
  return { problem: null, previews };
}

/** Why a template cannot render, or null: a name that is not a field, a body that is not of its type. */
export function templateProblem(options: TemplateOptions): string | null {
  const type = options.contentType ?? 'json';
  for (const p of placeholdersOf(options.body, type)) {
    const problem = nameProblem(p.name);
    if (problem !== null) return `body: ${problem.replace('%AT%', lineColumn(options.body, p.start))}`;
  }
  for (const [name, text] of Object.entries(options.headers ?? {})) {
    for (const p of placeholdersOf(text, 'text')) {
      const problem = nameProblem(p.name);
      if (problem !== null) return `headers.${name}: ${problem.replace('%AT%', `column ${p.start + 1}`)}`;
    }
  }
  const structure = type === 'json' ? jsonProblem(options.body) : type === 'form' ? formProblem(options.body) : null;
  if (structure !== null) return `body: ${structure}`;
  for (const [sample, content] of Object.entries(SAMPLE_ALERTS)) {
    const { body } = renderTemplate(options, content, sampleContext(sample, content));
    const error = type === 'json' ? jsonError(body) : null;
    if (error !== null) return `body: rendered for a sample "${sample}" alert, it is not JSON: ${error.message}`;
  }
  return null;
}

function nameProblem(name: string): string | null {
  if ((PLACEHOLDER_NAMES as readonly string[]).includes(name) || /^meta\../.test(name)) return null;
  const near = closest(name);
  return (
    `unknown placeholder {{${name}}} at %AT%${near === null ? '' : ` (did you mean {{${near}}}?)`}; ` +
    `the names are ${PLACEHOLDER_NAMES.join(', ')}, and meta.<key> for any key of the run's meta`
  );
}

/** The known name nearest a mistyped one, if any is near (case aside, a third of its letters). */
function closest(name: string): string | null {
  const typed = name.toLowerCase();
  let best: string | null = null;
  let bestDistance = Math.max(2, Math.floor(typed.length / 3)) + 1;
  for (const known of PLACEHOLDER_NAMES) {
    const d = distance(typed, known.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [known, d];
  }
  return best;
}

function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/**
 * A JSON body must parse whatever the values: each placeholder is tried as a value of its own length (null outside
 * quotes, text inside), so the parser's positions are the template's.
 */
function jsonProblem(text: string): string | null {
  const placeholders = placeholdersOf(text, 'json');
  const probe = fill(text, placeholders, (p) => (p.inString ? 'x' : 'null').padEnd(p.end - p.start));
  const error = jsonError(probe);
  if (error === null) return null;
  const { index } = error;
  const at = placeholders.find((p) => !p.inString && index !== null && index >= p.start && index < p.end);
  if (at !== undefined)
    return (
      `{{${at.name}}} at ${lineColumn(text, at.start)} is outside quotes, so it stands for a whole JSON value ` +
      `("text", 2, null, {…}), and no value may stand there: a key, or part of a text, goes inside quotes ` +
      `("{{${at.name}}}")`
    );
  return `not JSON: ${error.message}${index === null ? '' : ` (${lineColumn(text, index)})`}`;
}

/** A form body's own text (around its placeholders) must be encoded already: strict receivers refuse it raw. */
function formProblem(text: string): string | null {
  const literal = fill(text, placeholdersOf(text, 'form'), (p) => 'x'.repeat(p.end - p.start));
  const bad = /[^\x21-\x7e]|%(?![0-9A-Fa-f]{2})/u.exec(literal);
  if (bad === null) return null;
  return (
    `a form body's own text must be form-encoded ("+" for a space, %XX for other characters, ` +
    `%25 for "%"): ${JSON.stringify(bad[0])} at ${lineColumn(text, bad.index)} is not`
  );
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const BY_CONNECTION = [
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'host',
];
const BY_PINGMON = ['content-type', 'user-agent', 'x-pingmon-signature'];

function headerNames(headers: Record<string, string>, helpers: Joi.CustomHelpers) {
  const seen = new Set<string>();
  const refuse = (why: string, name: string) => helpers.message({ custom: `headers: "{#name}" ${why}` }, { name });
  for (const name of Object.keys(headers)) {
    const lower = name.toLowerCase();
    if (!TOKEN.test(name)) return refuse("is not a header name (letters, digits and !#$%&'*+-.^_`|~)", name);
    if (BY_CONNECTION.includes(lower))
      return refuse('is set by the HTTP client, as are Host, Content-Length and the hop-by-hop headers', name);
    if (lower === 'content-type') return refuse('follows contentType ("json", "form" or "text")', name);
    if (BY_PINGMON.includes(lower)) return refuse('is set by pingmon', name);
    if (seen.has(lower)) return refuse('is given twice (header names are case-insensitive)', name);
    seen.add(lower);
  }
  return headers;
}

const OPTIONS = Joi.object({
  body: Joi.string()
    .max(TEMPLATE_MAX_CHARS)
    .required()
    .messages({
      'any.required': "body: the request's body, with \\{{placeholders}} for the alert's fields",
      'string.empty': "body: the request's body, with \\{{placeholders}} for the alert's fields",
      'string.base': 'body: a string (a JSON body is written as text, placeholders and all)',
      'string.max': `body: at most ${TEMPLATE_MAX_CHARS} characters`,
    }),
  contentType: Joi.string().valid('json', 'form', 'text').default('json').messages({
    'any.only': 'contentType: "json", "form" or "text"',
    'string.base': 'contentType: "json", "form" or "text"',
  }),
  method: Joi.string()
    .valid('POST', 'PUT')
    .default('POST')
    .messages({ 'any.only': 'method: "POST" or "PUT"', 'string.base': 'method: "POST" or "PUT"' }),
  headers: Joi.object()
    .pattern(
      /^/,
      Joi.string()
        .min(1)
        .max(HEADER_TEMPLATE_MAX_CHARS)
        .messages({
          'string.base': 'headers: each value is a string, with \\{{placeholders}} if need be',
          'string.empty': 'headers: a value may not be empty (leave the header out)',
          'string.max': `headers: a value of at most ${HEADER_TEMPLATE_MAX_CHARS} characters`,
        }),
    )
    .max(HEADERS_MAX)
    .custom(headerNames)
    .messages({
      'object.base': 'headers: an object of header name → value',
      'object.max': `headers: at most ${HEADERS_MAX}`,
    }),
}).messages({ 'object.unknown': '{#label} is not an option: body, contentType, method, headers' });

export const template: ChannelKind = {
  type: 'template',
  label: 'Templated webhook',
  url: { describe: 'The URL of your endpoint (http or https): the request, as the template writes it, goes there.' },
  secret: {
    need: 'optional',
    describe: 'Signs each request as a webhook channel does (header X-Pingmon-Signature)',
  },
  options: OPTIONS,
  check(channel) {
    if (!/^https?:\/\//i.test(channel.url)) return 'url: an http:// or https:// URL';
    return templateProblem(channel.options as unknown as TemplateOptions);
  },
  request(channel, content, context) {
    const options = channel.options as unknown as TemplateOptions;
    const { headers, body } = renderTemplate(options, content, context);
    if (channel.secret !== null) headers['x-pingmon-signature'] = signature(channel.secret, body, context.nowSeconds);
    return { method: options.method ?? 'POST', url: channel.url, headers, body };
  },
};
