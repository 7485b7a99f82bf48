import type { HttpChannelKind } from './kind.js';
import { markdownMessage } from './markdown.js';
import { jsonHeaders, quietMentions, safeUrl } from './message.js';

/**
 * Rocket.Chat's message parser takes a backslash before * _ ~ ` # and a list's "1.", and no other: a zero-width
 * space breaks what else would format (a list or quote at a line's start, a spoiler's ||, a <…|…> link, an
 * @mention).
 */
function escapeRocketChat(text: string): string {
  const escaped = text
    .replace(/[*_~`#]/g, '\\$&')
    .replace(/^(\s*\d+)\./gm, '$1\\.')
    .replace(/^(\s*)([-+>])/gm, '$1\u200b$2')
    .replace(/\|(?=\|)/g, '|\u200b')
    .replace(/</g, '<\u200b');
  return noLinkEnds(escaped);
}

/**
 * Its parser pairs a [ with the next ]( anywhere in the message, code blocks included: with no ]( left (a
 * zero-width space in each), a [ is text. Its server may read @mentions in code too.
 */
function noLinkEnds(text: string): string {
  return quietMentions(text.replace(/\](?=\()/g, ']\u200b'));
}

/** Rocket.Chat's default Message_MaxAllowedSize; a server set lower refuses longer messages. */
const ROCKETCHAT_MAX_CHARS = 5_000;

export const rocketchat: HttpChannelKind = {
  type: 'rocketchat',
  label: 'Rocket.Chat',
  url: {
    describe:
      'the incoming webhook URL: Administration → Workspace → Integrations → New → Incoming, with its script disabled (https://chat.example.com/hooks/…)',
  },
  secret: { need: 'none' },
  request(channel, content) {
    const text = markdownMessage(content, {
      // Its parser reads no escape inside *bold*: names are not bold.
      name: escapeRocketChat,
      escape: escapeRocketChat,
      maxChars: ROCKETCHAT_MAX_CHARS,
      code: noLinkEnds,
      // Its <url|text> form: a [text](url) could pair with a [ of the text above.
      link: (link) => `<${safeUrl(link.url)}|${link.title}>`,
    });
    return { method: 'POST', url: channel.url, headers: jsonHeaders(), body: JSON.stringify({ text }) };
  },
};
