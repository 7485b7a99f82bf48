import type { ChannelKind } from './kind.js';
import { markdownMessage } from './markdown.js';
import { jsonHeaders } from './message.js';

/** Rocket.Chat's default Message_MaxAllowedSize; a server set lower refuses longer messages. */
const ROCKETCHAT_MAX_CHARS = 5_000;

export const rocketchat: ChannelKind = {
  type: 'rocketchat',
  label: 'Rocket.Chat',
  url: {
    describe:
      'the incoming webhook URL: Administration → Workspace → Integrations → New → Incoming, with its script disabled (https://chat.example.com/hooks/…)',
  },
  secret: { need: 'none' },
  request(channel, content) {
    const text = markdownMessage(content, {
      bold: (name) => `*${name}*`,
      maxChars: ROCKETCHAT_MAX_CHARS,
      mentionsInCode: true,
    });
    return { method: 'POST', url: channel.url, headers: jsonHeaders(), body: JSON.stringify({ text }) };
  },
};
