import Joi from 'joi';
import { signature } from '../payloads.js';
import type { HttpChannelKind } from './kind.js';
import { templateProblem } from './template-check.js';
import { renderTemplate, TEMPLATE_MAX_CHARS, type TemplateOptions } from './template-fields.js';

const HEADERS_MAX = 20;
const HEADER_TEMPLATE_MAX_CHARS = 2_000;

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
    })
    .description("The request's body, with {{placeholders}} for the alert's fields (docs/alerts.md#templated-webhook)")
    .example('{"text": "{{headline}}", "details": "{{details}}", "incident": "{{incidentKey}}"}'),
  contentType: Joi.string()
    .valid('json', 'form', 'text')
    .default('json')
    .messages({
      'any.only': 'contentType: "json", "form" or "text"',
      'string.base': 'contentType: "json", "form" or "text"',
    })
    .description("The body's type: how values are escaped in it, and its Content-Type"),
  method: Joi.string()
    .valid('POST', 'PUT')
    .default('POST')
    .messages({ 'any.only': 'method: "POST" or "PUT"', 'string.base': 'method: "POST" or "PUT"' })
    .description("The request's method"),
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
    })
    .description('Headers to send, name → value, with {{placeholders}} if need be; never shown back (a credential)')
    .example({ Authorization: 'Bearer …' }),
}).messages({ 'object.unknown': '{#label} is not an option: body, contentType, method, headers' });

export const template: HttpChannelKind = {
  type: 'template',
  label: 'Templated webhook',
  url: { describe: 'The URL of your endpoint (http or https): the request, as the template writes it, goes there.' },
  secret: {
    need: 'optional',
    describe: 'Signs each request as a webhook channel does (header X-Pingmon-Signature)',
  },
  options: OPTIONS,
  // Header values often carry a credential (Authorization: Basic …): never shown back, as a secret is not.
  shownOptions(options) {
    const headers = options.headers as Record<string, string> | undefined;
    if (!headers) return options;
    return { ...options, headers: Object.fromEntries(Object.keys(headers).map((name) => [name, '…'])) };
  },
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
