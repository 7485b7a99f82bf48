import Joi from 'joi';
import { END_OF_LOG, fit, headline } from '../payloads.js';
import type { AlertContent } from '../payloads.js';
import type { HttpChannelKind } from './kind.js';
import { bodyOf, jsonHeaders, shrink, toneOf, utf8Bytes } from './message.js';
import type { Body } from './message.js';

/** ntfy's default message-size-limit: a longer message becomes an attachment. */
const NTFY_MAX_BYTES = 4_096;
const NTFY_TITLE_MAX_CHARS = 250;
const TOPIC = /^[-_A-Za-z0-9]{1,64}$/;
const TAGS = { down: 'rotating_light', warning: 'warning', good: 'white_check_mark' } as const;

const options = Joi.object({
  priority: Joi.number()
    .integer()
    .min(1)
    .max(5)
    .messages({
      'number.base': 'priority: 1 (min) to 5 (max), for alerts of a problem',
      'number.integer': 'priority: 1 (min) to 5 (max), for alerts of a problem',
      'number.min': 'priority: 1 (min) to 5 (max), for alerts of a problem',
      'number.max': 'priority: 1 (min) to 5 (max), for alerts of a problem',
    })
    .description('1 (min) to 5 (max), for alerts of a problem; left out: 5, and 4 for a silent failure'),
});

/** The topic and the server's root (where ntfy takes JSON) of a topic's URL, or null when it names no topic. */
function topicOf(url: string): { root: string; topic: string } | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const match = /^(.*\/)([^/]+)\/?$/.exec(parsed.pathname);
  if (!match || !TOPIC.test(match[2]!) || parsed.search !== '') return null;
  return { root: `${parsed.origin}${match[1]}`, topic: match[2]! };
}

/** Problems at the channel's priority (5, and 4 for a silent failure, unless set); good news at ntfy's default, 3. */
function priorityOf(c: AlertContent, priority: unknown): number {
  const tone = toneOf(c);
  if (tone === 'good') return 3;
  if (typeof priority === 'number') return priority;
  return tone === 'warning' ? 4 : 5;
}

/** An access token (tk_…), or user:password for a server without tokens. */
function authorization(secret: string): string {
  if (secret.includes(':')) return `Basic ${Buffer.from(secret, 'utf8').toString('base64')}`;
  return `Bearer ${secret}`;
}

export const ntfy: HttpChannelKind = {
  type: 'ntfy',
  label: 'ntfy',
  url: { describe: "the topic's URL: the server and the topic (https://ntfy.sh/pingmon-alerts-7f3k)" },
  secret: { need: 'optional', describe: 'an access token (tk_…) or user:password, for a topic that needs one' },
  options,
  check(channel) {
    if (topicOf(channel.url) === null) {
      return 'url: the server and a topic, with no query: https://ntfy.sh/mytopic (a topic is 1 to 64 letters, digits, - or _)';
    }
    return null;
  },
  request(channel, c) {
    const { root, topic } = topicOf(channel.url)!;
    const render = (b: Body) =>
      [b.details, b.snippet, b.end && `${END_OF_LOG}\n${b.end}`, b.footer].filter(Boolean).join('\n\n');
    const message = render(shrink(bodyOf(c), (b) => utf8Bytes(render(b)) - NTFY_MAX_BYTES));
    const click = c.links?.run ?? c.links?.monitor;
    const body = {
      topic,
      title: fit(headline(c), NTFY_TITLE_MAX_CHARS),
      message,
      priority: priorityOf(c, channel.options.priority),
      tags: [TAGS[toneOf(c)]],
      ...(click ? { click } : {}),
    };
    const headers = jsonHeaders(channel.secret === null ? {} : { authorization: authorization(channel.secret) });
    return { method: 'POST', url: root, headers, body: JSON.stringify(body) };
  },
};
