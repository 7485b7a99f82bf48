import { END_OF_LOG, breakFences, headline } from '../payloads.js';
import type { HttpChannelKind } from './kind.js';
import { bodyOf, emoji, jsonHeaders, linksOf, safeUrl, shrink } from './message.js';
import type { Body } from './message.js';

/** A text message's length Google Chat shows whole (its API takes 32,000 bytes: 4,096 characters keep well within). */
const GOOGLECHAT_MAX_CHARS = 4_096;

/**
 * Google Chat's text format has no escape character: a zero-width space beside each of its markers keeps a name's
 * `*` or `_` from starting bold or italics, and one after `<` keeps `<users/all>` or a `<url|text>` link from
 * being read as one.
 */
function escapeText(text: string): string {
  return quietAngles(text.replace(/[*_~`]/g, '\u200b$&\u200b'));
}

function quietAngles(text: string): string {
  return text.replace(/</g, '<\u200b');
}

export const googlechat: HttpChannelKind = {
  type: 'googlechat',
  label: 'Google Chat',
  url: {
    describe:
      "the space's incoming webhook URL: the space's menu → Apps & integrations → Webhooks → Add webhook (https://chat.googleapis.com/v1/spaces/…/messages?key=…&token=…)",
  },
  secret: { need: 'none' },
  request(channel, c) {
    const code = (text: string) => `\`\`\`\n${quietAngles(breakFences(text))}\n\`\`\``;
    const title = `${emoji(c)} ${headline(c, (name) => `*${escapeText(name)}*`)}`;
    const links = linksOf(c)
      .map((link) => `<${safeUrl(link.url)}|${link.title}>`)
      .join(' · ');
    const render = (b: Body) =>
      [
        title,
        b.details && escapeText(b.details),
        b.snippet && code(b.snippet),
        b.end && `${END_OF_LOG}\n${code(b.end)}`,
        // Ids and times, shown as code: copied as they are, and never formatted.
        b.footer && `\`${b.footer}\``,
        links,
      ]
        .filter(Boolean)
        .join('\n');
    const text = render(shrink(bodyOf(c), (b) => render(b).length - GOOGLECHAT_MAX_CHARS));
    return { method: 'POST', url: channel.url, headers: jsonHeaders(), body: JSON.stringify({ text }) };
  },
};
