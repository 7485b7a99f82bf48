import type { HttpChannelKind } from './kind.js';
import { escapeMarkdown, markdownMessage } from './markdown.js';
import { jsonHeaders, safeUrl } from './message.js';

/** A post's limit since Mattermost 5.0 (runes, fewer than UTF-16 units: counting these keeps within it). */
const MATTERMOST_MAX_CHARS = 16_383;

export const mattermost: HttpChannelKind = {
  type: 'mattermost',
  label: 'Mattermost',
  url: {
    describe:
      'the incoming webhook URL: Product menu → Integrations → Incoming Webhooks → Add (https://mattermost.example.com/hooks/…)',
  },
  secret: { need: 'none' },
  request(channel, content) {
    const text = markdownMessage(content, {
      name: (name) => `**${escapeMarkdown(name)}**`,
      escape: escapeMarkdown,
      maxChars: MATTERMOST_MAX_CHARS,
      // Its server reads no mention in code.
      code: (text) => text,
      link: (link) => `[${link.title}](${safeUrl(link.url)})`,
    });
    return { method: 'POST', url: channel.url, headers: jsonHeaders(), body: JSON.stringify({ text }) };
  },
};
