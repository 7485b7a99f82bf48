import Joi from 'joi';
import { END_OF_LOG, escapeMarkup, headline } from '../payloads.js';
import type { AlertContent } from '../payloads.js';
import type { HttpChannelKind } from './kind.js';
import { bodyOf, emoji, escapeHtml, jsonHeaders, linksOf, shrink, utf8Bytes } from './message.js';
import type { Body } from './message.js';

/**
 * An event may have 65,536 bytes, the homeserver's envelope (ids, hashes, signatures) included: the content keeps
 * a few KB for it.
 */
const MATRIX_MAX_BYTES = 60_000;

const ROOM_ID_HELP = "roomId: the room's internal id, !…:example.org (Room settings → Advanced → Internal room ID)";
const options = Joi.object({
  roomId: Joi.string()
    .pattern(/^#/, { name: 'alias', invert: true })
    .pattern(/^![^\s/]+$/, { name: 'room id' })
    .required()
    .messages({
      'string.pattern.invert.name': `${ROOM_ID_HELP}, not an alias such as #ops:example.org`,
      'string.pattern.name': ROOM_ID_HELP,
      'any.required': ROOM_ID_HELP,
      'string.empty': ROOM_ID_HELP,
    })
    .description("The room's internal id: Room settings → Advanced → Internal room ID (not its #alias)")
    .example('!AbCdEfGhIjKlMnOp:example.org'),
  msgtype: Joi.string()
    .valid('m.text', 'm.notice')
    .default('m.text')
    .messages({ 'any.only': 'msgtype: m.text (the default) or m.notice (shown as from a bot)' })
    .description('m.notice: shown as from a bot, and other bots do not answer it'),
});

/** The message as HTML: the name in <b>, the log in <pre><code>, text escaped. */
function formatted(c: AlertContent, b: Body): string {
  const code = (raw: string) => `<pre><code>${escapeMarkup(raw)}</code></pre>`;
  const title = `${emoji(c)} ${headline(c, (name) => `<b>${escapeMarkup(name)}</b>`)}`;
  const lines = b.details ? b.details.split('\n').map((line) => escapeMarkup(line)) : [];
  const links = linksOf(c).map((link) => `<a href="${escapeHtml(link.url)}">${link.title}</a>`);
  return [
    `<p>${[title, ...lines].join('<br>')}</p>`,
    b.snippet && code(b.snippet),
    b.end && `<p>${END_OF_LOG}</p>${code(b.end)}`,
    b.footer && `<p>${escapeMarkup(b.footer)}</p>`,
    links.length > 0 && `<p>${links.join(' · ')}</p>`,
  ]
    .filter(Boolean)
    .join('');
}

/** The same as plain text, for clients without HTML (and notifications). */
function plain(c: AlertContent, b: Body): string {
  return [
    `${emoji(c)} ${headline(c)}`,
    b.details,
    b.snippet && `\`\`\`\n${b.snippet}\n\`\`\``,
    b.end && `${END_OF_LOG}\n\`\`\`\n${b.end}\n\`\`\``,
    b.footer,
    ...linksOf(c).map((link) => `${link.title}: ${link.url}`),
  ]
    .filter(Boolean)
    .join('\n');
}

export const matrix: HttpChannelKind = {
  type: 'matrix',
  label: 'Matrix',
  url: { describe: "the homeserver's client-server API address (https://matrix.example.org)" },
  secret: {
    need: 'required',
    describe: "an access token of the account that posts (a bot's), which has joined the room",
  },
  options,
  request(channel, c, context) {
    const content = (b: Body) => ({
      msgtype: (channel.options.msgtype as string | undefined) ?? 'm.text',
      body: plain(c, b),
      format: 'org.matrix.custom.html',
      formatted_body: formatted(c, b),
      // Intentional mentions: this message mentions nobody, whatever its text says (@room included).
      'm.mentions': {},
    });
    const fitted = shrink(bodyOf(c), (b) => utf8Bytes(JSON.stringify(content(b))) - MATRIX_MAX_BYTES);
    const base = channel.url.replace(/\/+$/, '');
    const room = encodeURIComponent(channel.options.roomId as string);
    return {
      method: 'PUT',
      url: `${base}/_matrix/client/v3/rooms/${room}/send/m.room.message/${encodeURIComponent(context.messageKey)}`,
      headers: jsonHeaders({ authorization: `Bearer ${channel.secret}` }),
      body: JSON.stringify(content(fitted)),
    };
  },
};
