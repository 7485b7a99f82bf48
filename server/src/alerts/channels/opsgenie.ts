import Joi from 'joi';
import { describeMatch } from '../../domain/rules.js';
import { iso } from '../../presenter.js';
import { USER_AGENT, fit, headline } from '../payloads.js';
import type { AlertContent } from '../payloads.js';
import { atIncidentLevel, incidentKeyOf, plainBody } from './incident.js';
import type { ChannelTarget, HttpChannelKind, SendContext } from './kind.js';

// Opsgenie's Alert API (docs.opsgenie.com/docs/alert-api): its limits, in characters.
const MESSAGE_MAX_CHARS = 130;
const ALIAS_MAX_CHARS = 512;
const DESCRIPTION_MAX_CHARS = 15_000;
const DETAILS_MAX_CHARS = 8_000;
const ENTITY_MAX_CHARS = 512;
const TAG_MAX_CHARS = 50;
const NOTE_MAX_CHARS = 25_000;
const PRIORITIES = ['P1', 'P2', 'P3', 'P4', 'P5'] as const;

const options = Joi.object({
  priority: Joi.string()
    .valid(...PRIORITIES)
    .messages({ '*': `{{#label}} must be an Opsgenie priority: ${PRIORITIES.join(', ')} (P1 the highest)` })
    .description("The alert's priority, P1 the highest; left out: P1 for an incident, P3 for a silent failure"),
}).messages({ 'object.unknown': '{{#label}} is not an option of an Opsgenie channel: it takes priority' });

export const opsgenie: HttpChannelKind = {
  type: 'opsgenie',
  label: 'Opsgenie',
  url: {
    default: 'https://api.opsgenie.com',
    describe:
      "Opsgenie's API, https://api.opsgenie.com unless given (an account in the EU: https://api.eu.opsgenie.com; " +
      'Jira Service Management: https://api.atlassian.com/jsm/ops/integration)',
  },
  secret: { need: 'required', describe: 'the API key of an "API" integration (sent as "Authorization: GenieKey …")' },
  options,
  incidents: true,
  request(channel, content, context) {
    const base = channel.url.replace(/\/+$/, '');
    const alias = fit(incidentKeyOf(content, context), ALIAS_MAX_CHARS);
    const headers = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      authorization: `GenieKey ${channel.secret ?? ''}`,
    };
    if (content.event === 'recovered') {
      const url = `${base}/v2/alerts/${encodeURIComponent(alias)}/close?identifierType=alias`;
      return { method: 'POST', url, headers, body: JSON.stringify(opsgenieClose(content)) };
    }
    const body = JSON.stringify(opsgenieAlert(channel, content, context));
    return { method: 'POST', url: `${base}/v2/alerts`, headers, body };
  },
};

/** Create Alert: one open alert per alias, so the later alerts of an incident only count up on it. */
function opsgenieAlert(channel: ChannelTarget, c: AlertContent, context: SendContext) {
  const priority = (channel.options.priority as string | undefined) ?? (atIncidentLevel(c) ? 'P1' : 'P3');
  const tags = ['pingmon', c.event, ...(c.cause ? [`cause:${c.cause}`] : [])];
  return {
    message: fit(headline(c), MESSAGE_MAX_CHARS),
    alias: fit(incidentKeyOf(c, context), ALIAS_MAX_CHARS),
    description: plainBody(c, DESCRIPTION_MAX_CHARS),
    details: detailsOf(c),
    entity: fit(c.monitorName ?? 'pingmon', ENTITY_MAX_CHARS),
    source: 'pingmon',
    priority,
    tags: tags.map((tag) => fit(tag, TAG_MAX_CHARS)),
  };
}

/** Close Alert, by the alias the incident's alerts opened it with; its note says what the incident amounted to. */
function opsgenieClose(c: AlertContent) {
  return { source: 'pingmon', note: plainBody(c, NOTE_MAX_CHARS) };
}

/**
 * Custom properties, strings only, within Opsgenie's 8,000 characters (keys and values): the run's meta, one key
 * each, gives way first.
 */
function detailsOf(c: AlertContent): Record<string, string> {
  const facts: Record<string, string | null | undefined> = {
    monitor: c.monitorName,
    monitor_id: c.monitorId,
    slug: c.monitorSlug,
    run_id: c.runId,
    host: c.host,
    cause: c.cause,
    expected_at: c.expectedAt === null ? null : iso(c.expectedAt),
    matched_rules: c.matchedRules.length > 0 ? c.matchedRules.map(describeMatch).join('; ') : null,
    monitor_url: c.links?.monitor,
    run_url: c.links?.run,
  };
  const entries = Object.entries(facts).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  const meta = Object.entries(c.meta).map(([key, value]): [string, string] => [`meta.${key}`, String(value)]);
  const size = (list: Array<[string, string]>) =>
    list.reduce((sum, [key, value]) => sum + key.length + value.length, 0);
  while (meta.length > 0 && size(entries) + size(meta) > DETAILS_MAX_CHARS) meta.pop();
  return Object.fromEntries([...entries, ...meta]);
}
