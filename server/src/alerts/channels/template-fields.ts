import { details, headline, USER_AGENT, webhookPayload } from '../payloads.js';
import type { AlertContent } from '../payloads.js';
import type { SendContext } from './kind.js';
import { renderBody, renderHeader, type BodyType } from './template-render.js';

// What a template channel's placeholders name, and its request rendered for an alert.

/** A template channel's options, as its schema leaves them. */
export interface TemplateOptions {
  body: string;
  contentType?: BodyType;
  method?: 'POST' | 'PUT';
  /** Header name → a template of its value. */
  headers?: Record<string, string>;
}

export const TEMPLATE_MAX_CHARS = 16_384;

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
  'repeats',
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
