import Joi from 'joi';
import { iso } from '../../presenter.js';
import { USER_AGENT, details, endOfLog, headline } from '../payloads.js';
import type { AlertContent } from '../payloads.js';
import { atIncidentLevel, incidentKeyOf } from './incident.js';
import type { ChannelTarget, HttpChannelKind, SendContext } from './kind.js';

// Alertmanager keeps an alert firing until its endsAt: pingmon re-sends an open incident's alert every minute, each
// time 5 minutes ahead, so a pingmon that stops sending lets it resolve by itself within 5 minutes.
const FIRING_FOR_MS = 5 * 60_000;
const RESEND_EVERY_SECONDS = 60;

/** The labels pingmon sets itself; `options.labels` adds others. */
const OWN_LABELS = ['alertname', 'monitor', 'monitor_id', 'slug', 'host', 'cause', 'incident', 'severity'];
// Prometheus's label grammar; names starting with "__" are reserved for its internal use.
const LABEL_NAME = /^(?!__)[a-zA-Z_][a-zA-Z0-9_]*$/;

const options = Joi.object({
  severity: Joi.string()
    .min(1)
    .max(100)
    .messages({ '*': '{{#label}} must be the severity label of every alert, 1 to 100 characters, such as "page"' })
    .description('The "severity" label of every alert, for your routes to match: page, critical, warning…'),
  labels: Joi.object()
    .pattern(
      Joi.string()
        .pattern(LABEL_NAME)
        .invalid(...OWN_LABELS),
      Joi.string().min(1).max(1000).messages({ '*': '{{#label}} must be a label value: text of 1 to 1000 characters' }),
    )
    .max(20)
    .messages({
      'object.unknown':
        '{{#label}} is not a label name pingmon can add: names are letters, digits and "_", not starting with a ' +
        `digit or "__", and not one pingmon sets (${OWN_LABELS.join(', ')}; give "severity" as options.severity)`,
      'object.max': '{{#label}} can add at most 20 labels',
      'object.base': '{{#label}} must be an object of label names to values (team: data, env: prod)',
    })
    .description('More labels on every alert, name → value, for your routes to match')
    .example({ team: 'data', env: 'prod' }),
}).messages({
  'object.unknown': '{{#label}} is not an option of an Alertmanager channel: it takes severity and labels',
});

export const alertmanager: HttpChannelKind = {
  type: 'alertmanager',
  label: 'Alertmanager',
  url: {
    describe: "the Alertmanager's base URL, such as http://alertmanager:9093 (pingmon posts to <url>/api/v2/alerts)",
  },
  secret: {
    need: 'optional',
    describe: 'sent as "Authorization: Bearer <secret>", for an Alertmanager behind a proxy that asks for one',
  },
  options,
  incidents: true,
  repeatEverySeconds: RESEND_EVERY_SECONDS,
  request(channel, content, context) {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': USER_AGENT };
    if (channel.secret !== null) headers.authorization = `Bearer ${channel.secret}`;
    const url = `${channel.url.replace(/\/+$/, '')}/api/v2/alerts`;
    return { method: 'POST', url, headers, body: JSON.stringify([alertmanagerAlert(channel, content, context)]) };
  },
};

/** The alert as Alertmanager's API v2 takes it (postableAlert). */
function alertmanagerAlert(channel: ChannelTarget, c: AlertContent, context: SendContext) {
  const endsAt =
    c.event === 'recovered' ? c.createdAt : Math.max(c.createdAt, context.nowSeconds * 1000) + FIRING_FOR_MS;
  return {
    labels: labelsOf(channel, c, context),
    annotations: annotationsOf(c),
    startsAt: iso(c.createdAt),
    endsAt: iso(endsAt),
    ...(c.links ? { generatorURL: c.links.monitor } : {}),
  };
}

/**
 * The same for every alert of one incident, `recovered` included, so that it resolves the alert that fired; except
 * `host`, which a later run may change, and a renamed monitor's (the alert with the old labels expires by its endsAt).
 */
function labelsOf(channel: ChannelTarget, c: AlertContent, context: SendContext): Record<string, string> {
  const own: Record<string, string | null | undefined> = {
    alertname: alertName(c),
    monitor: c.monitorName,
    monitor_id: c.monitorId,
    slug: c.monitorSlug,
    host: c.host,
    cause: c.cause,
    incident: incidentKeyOf(c, context),
    severity: (channel.options.severity as string | undefined) ?? (atIncidentLevel(c) ? 'critical' : 'warning'),
  };
  const extra = (channel.options.labels ?? {}) as Record<string, string>;
  return { ...extra, ...present(own) };
}

function alertName(c: AlertContent): string {
  if (c.event === 'test') return 'PingmonTest';
  if ((c.incidentKey ?? null) !== null) return 'PingmonIncident';
  return c.event === 'silent_failure' ? 'PingmonSilentFailure' : 'PingmonAlert';
}

function annotationsOf(c: AlertContent): Record<string, string> {
  return present({
    summary: headline(c),
    description: details(c).join('\n'),
    error_message: c.errorMessage,
    log_snippet: c.logSnippet,
    log_tail: endOfLog(c),
    monitor_url: c.links?.monitor,
    run_url: c.links?.run,
  });
}

/** An empty label is no label to Alertmanager: the ones without a value are left out. */
function present(values: Record<string, string | null | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '',
    ),
  );
}
