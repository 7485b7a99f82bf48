import Joi from 'joi';
import { END_OF_LOG, escapeMarkup, fit, headline } from '../payloads.js';
import type { AlertContent } from '../payloads.js';
import type { HttpChannelKind } from './kind.js';
import { bodyOf, emoji, jsonHeaders, shrink, toneOf } from './message.js';
import type { Body } from './message.js';

// Pushover's limits (https://pushover.net/api#limits), counted in characters: UTF-16 units are never fewer.
const MESSAGE_MAX_CHARS = 1_024;
const TITLE_MAX_CHARS = 250;
const URL_MAX_CHARS = 512;
const KEY = /^[A-Za-z0-9]{30}$/;
/** An emergency (priority 2) is repeated until acknowledged: every minute, for an hour at most. */
const EMERGENCY = { retry: 60, expire: 3_600 };

const PRIORITY_HELP =
  'priority: -2 (no notification) to 2 (emergency, repeated until acknowledged), for alerts of a problem';
const options = Joi.object({
  userKey: Joi.string()
    .pattern(KEY)
    .required()
    .messages({
      'string.pattern.base': "userKey: the user or group key from Pushover's dashboard (30 letters and digits)",
      'any.required': "userKey: the user or group key from Pushover's dashboard (30 letters and digits)",
      'string.empty': "userKey: the user or group key from Pushover's dashboard (30 letters and digits)",
    })
    .description("Who is told: your user key (Pushover's dashboard, top right) or a delivery group's key")
    .example('uQiRzpo4DXghDmr9QzzfQu27cmVRsG'),
  priority: Joi.number()
    .integer()
    .min(-2)
    .max(2)
    .messages({
      'number.base': PRIORITY_HELP,
      'number.integer': PRIORITY_HELP,
      'number.min': PRIORITY_HELP,
      'number.max': PRIORITY_HELP,
    })
    .description(
      '-2 (no notification) to 2 (emergency), for alerts of a problem; left out: 1 (high), and 0 for a silent failure',
    ),
  sound: Joi.string()
    .pattern(/^[A-Za-z0-9_-]{1,32}$/)
    .messages({ 'string.pattern.base': 'sound: the name of a Pushover sound (pushover, siren, none…) or of your own' })
    .description('A Pushover sound (pushover, siren, none…) or one of your own; left out: your default')
    .example('siren'),
  device: Joi.string()
    .pattern(/^[A-Za-z0-9_-]{1,25}(,[A-Za-z0-9_-]{1,25})*$/)
    .messages({ 'string.pattern.base': "device: a device's name, or several separated by commas" })
    .description("Only these devices, by name, separated by commas; left out: all the user's devices"),
});

/** Problems at the channel's priority (high, 1, unless set), silent failures and good news at normal, 0. */
function priorityOf(c: AlertContent, priority: unknown): number {
  const tone = toneOf(c);
  if (tone === 'good') return 0;
  if (typeof priority === 'number') return priority;
  return tone === 'down' ? 1 : 0;
}

export const pushover: HttpChannelKind = {
  type: 'pushover',
  label: 'Pushover',
  url: {
    default: 'https://api.pushover.net/1/messages.json',
    describe: "Pushover's message API (https://api.pushover.net/1/messages.json)",
  },
  secret: { need: 'required', describe: "the application's API token: Pushover → Your Applications → Create" },
  options,
  check(channel) {
    if (channel.secret !== null && !KEY.test(channel.secret)) {
      return "secret: the application's API token (30 letters and digits), not the user key";
    }
    return null;
  },
  request(channel, c) {
    const render = (b: Body) =>
      [
        b.details && escapeMarkup(b.details),
        b.snippet && escapeMarkup(b.snippet),
        b.end && `<i>${END_OF_LOG}</i>\n${escapeMarkup(b.end)}`,
        b.footer && `<font color="#888888">${escapeMarkup(b.footer)}</font>`,
      ]
        .filter(Boolean)
        .join('\n\n');
    const message = render(shrink(bodyOf(c), (b) => render(b).length - MESSAGE_MAX_CHARS));
    const priority = priorityOf(c, channel.options.priority);
    const link = c.links?.run ?? c.links?.monitor;
    const { sound, device, userKey } = channel.options;
    const body = {
      token: channel.secret,
      user: userKey,
      title: fit(`${emoji(c)} ${headline(c)}`, TITLE_MAX_CHARS),
      message,
      html: 1,
      priority,
      ...(priority === 2 ? EMERGENCY : {}),
      timestamp: Math.floor(c.createdAt / 1000),
      ...(link && link.length <= URL_MAX_CHARS
        ? { url: link, url_title: link === c.links?.run ? 'Open the run in pingmon' : 'Open the monitor in pingmon' }
        : {}),
      ...(sound === undefined ? {} : { sound }),
      ...(device === undefined ? {} : { device }),
    };
    return { method: 'POST', url: channel.url, headers: jsonHeaders(), body: JSON.stringify(body) };
  },
};
