import Joi from 'joi';
import { iso } from '../../presenter.js';
import { describeMatch } from '../../domain/rules.js';
import { USER_AGENT, endOfLog, fit } from '../payloads.js';
import type { AlertContent } from '../payloads.js';
import { atIncidentLevel, incidentKeyOf, titleLine } from './incident.js';
import type { ChannelTarget, HttpChannelKind, SendContext } from './kind.js';

// PagerDuty's Events API v2 (developer.pagerduty.com, "Send an Alert Event").
const SUMMARY_MAX_CHARS = 1_024;
const SEVERITIES = ['critical', 'error', 'warning', 'info'] as const;
const ROUTING_KEY = /^[A-Za-z0-9]{32}$/;

const options = Joi.object({
  severity: Joi.string()
    .valid(...SEVERITIES)
    .messages({ '*': `{{#label}} must be one of PagerDuty's severities: ${SEVERITIES.join(', ')}` })
    .description("The incident's severity; left out: critical for an incident, warning for a silent failure"),
}).messages({ 'object.unknown': '{{#label}} is not an option of a PagerDuty channel: it takes severity' });

export const pagerduty: HttpChannelKind = {
  type: 'pagerduty',
  label: 'PagerDuty',
  url: {
    default: 'https://events.pagerduty.com/v2/enqueue',
    describe:
      "PagerDuty's Events API v2, https://events.pagerduty.com/v2/enqueue unless given " +
      '(an account in the EU service region: https://events.eu.pagerduty.com/v2/enqueue)',
  },
  secret: {
    need: 'required',
    describe: 'the Integration Key (32 characters) of an "Events API V2" integration of the service to page',
  },
  options,
  incidents: true,
  check(channel) {
    if (channel.secret === null || ROUTING_KEY.test(channel.secret)) return null;
    return (
      'secret must be the 32-character Integration Key of an "Events API V2" integration ' +
      "(the service's Integrations tab in PagerDuty)"
    );
  },
  request(channel, content, context) {
    return {
      method: 'POST',
      url: channel.url,
      headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT },
      body: JSON.stringify(pagerdutyEvent(channel, content, context)),
    };
  },
};

/** A trigger per alert, a resolve on recovery; both of one pingmon incident have its dedup_key. */
function pagerdutyEvent(channel: ChannelTarget, c: AlertContent, context: SendContext) {
  const keys = { routing_key: channel.secret ?? '', dedup_key: incidentKeyOf(c, context) };
  if (c.event === 'recovered') return { ...keys, event_action: 'resolve' };
  const severity = (channel.options.severity as string | undefined) ?? (atIncidentLevel(c) ? 'critical' : 'warning');
  return {
    ...keys,
    event_action: 'trigger',
    payload: {
      summary: fit(titleLine(c), SUMMARY_MAX_CHARS),
      source: c.host || 'pingmon',
      severity,
      timestamp: iso(c.createdAt),
      component: c.monitorSlug || c.monitorName || 'pingmon',
      class: c.event,
      custom_details: customDetails(c),
    },
    client: 'pingmon',
    ...(c.links ? linksOf(c.links) : {}),
  };
}

/** The dashboard's pages (PINGMON_PUBLIC_URL), shown as links on the incident. */
function linksOf(links: NonNullable<AlertContent['links']>) {
  const run = links.run === null ? [] : [{ href: links.run, text: 'Run in pingmon' }];
  return { client_url: links.monitor, links: [{ href: links.monitor, text: 'Monitor in pingmon' }, ...run] };
}

/** The alert's facts, shown as a table under the incident; null ones left out. */
function customDetails(c: AlertContent): Record<string, unknown> {
  const all: Record<string, unknown> = {
    monitor: c.monitorName,
    monitor_id: c.monitorId,
    slug: c.monitorSlug,
    run_id: c.runId,
    host: c.host,
    cause: c.cause,
    error_message: c.errorMessage,
    log_snippet: c.logSnippet,
    log_tail: endOfLog(c),
    matched_rules: c.matchedRules.length > 0 ? c.matchedRules.map(describeMatch) : null,
    meta: Object.keys(c.meta).length > 0 ? c.meta : null,
    monitors:
      (c.monitors?.length ?? 0) > 1
        ? c.monitors!.map((m) => `${m.monitorName}: ${m.errorMessage ?? 'did not start'}`)
        : null,
    expected_at: c.expectedAt === null ? null : iso(c.expectedAt),
  };
  return Object.fromEntries(Object.entries(all).filter(([, value]) => value !== null && value !== undefined));
}
