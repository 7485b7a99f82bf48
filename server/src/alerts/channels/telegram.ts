import Joi from 'joi';
import { END_OF_LOG, escapeMarkup, headline } from '../payloads.js';
import type { HttpChannelKind } from './kind.js';
import { bodyOf, emoji, escapeHtml, jsonHeaders, linksOf, quietMentions, shrink } from './message.js';
import type { Body } from './message.js';

/** sendMessage's limit, counted on the text as shown (tags and entities parsed), in UTF-16 units as Telegram does. */
const TELEGRAM_MAX_CHARS = 4_096;
const BOT_TOKEN = /^\d+:[A-Za-z0-9_-]+$/;

const CHAT_ID_HELP =
  "chatId: the chat's numeric id (a group's starts with -100) or a public channel's @username; add the bot to " +
  'the group or channel first (or send /start to it, for a private chat)';

const help = Object.fromEntries(
  ['number.integer', 'number.unsafe', 'string.pattern.base', 'string.empty', 'alternatives.types', 'any.required'].map(
    (code) => [code, CHAT_ID_HELP],
  ),
);
const options = Joi.object({
  chatId: Joi.alternatives()
    .try(
      Joi.number().integer().messages(help),
      Joi.string()
        .pattern(/^(-?\d{1,20}|@[A-Za-z]\w{3,31})$/)
        .messages(help),
    )
    .required()
    .messages(help)
    .description(
      "The chat's id: add the bot to the chat (or send it a message), then open " +
        "https://api.telegram.org/bot<token>/getUpdates and take message.chat.id; or a public channel's @username",
    )
    .example('-1001234567890'),
});

/** The text as Telegram shows it: what its length limit counts. */
function shown(html: string): string {
  return html.replace(/<[^>]*>/g, '').replace(/&(?:lt|gt|amp|quot);/g, '_');
}

export const telegram: HttpChannelKind = {
  type: 'telegram',
  label: 'Telegram',
  url: {
    default: 'https://api.telegram.org',
    describe: "the Bot API's address (https://api.telegram.org, or your own Bot API server)",
  },
  secret: { need: 'required', describe: "the bot's token, from @BotFather (123456789:AA…)" },
  options,
  check(channel) {
    if (channel.secret !== null && !BOT_TOKEN.test(channel.secret)) {
      return 'secret: the bot token @BotFather gave, such as 123456789:AAH…, without "bot" before it';
    }
    return null;
  },
  request(channel, c) {
    // Outside <pre>: an @username in a group would notify that user.
    const text = (raw: string) => quietMentions(escapeMarkup(raw));
    const pre = (raw: string) => `<pre>${escapeMarkup(raw)}</pre>`;
    const title = `${emoji(c)} ${headline(c, (name) => `<b>${text(name)}</b>`)}`;
    const links = linksOf(c)
      .map((link) => `<a href="${escapeHtml(link.url)}">${link.title}</a>`)
      .join(' · ');
    const render = (b: Body) =>
      [
        title,
        b.details && text(b.details),
        b.snippet && pre(b.snippet),
        b.end && `${END_OF_LOG}\n${pre(b.end)}`,
        b.footer && `<code>${escapeMarkup(b.footer)}</code>`,
        links,
      ]
        .filter(Boolean)
        .join('\n');
    const html = render(shrink(bodyOf(c), (b) => shown(render(b)).length - TELEGRAM_MAX_CHARS));
    const body = {
      chat_id: channel.options.chatId,
      text: html,
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
    };
    const base = channel.url.replace(/\/+$/, '');
    return {
      method: 'POST',
      url: `${base}/bot${channel.secret}/sendMessage`,
      headers: jsonHeaders(),
      body: JSON.stringify(body),
    };
  },
};
