import { END_OF_LOG, headline } from '../payloads.js';
import type { AlertContent } from '../payloads.js';
import type { HttpChannelKind } from './kind.js';
import { bodyOf, emoji, factsOf, jsonHeaders, linksOf, shrink, toneOf, utf8Bytes } from './message.js';
import type { Body } from './message.js';

/** Teams refuses a message over about 28 KB, its card included. */
const MSTEAMS_MAX_BYTES = 28_000;
const COLORS = { down: 'Attention', warning: 'Warning', good: 'Good' } as const;

/** Adaptive Cards replace {{DATE(…)}} and {{TIME(…)}} even in plain text: a zero-width space keeps them as written. */
function literal(text: string): string {
  return text.replace(/\{\{/g, '{\u200b{');
}

/** A FactSet's values are Markdown: a backslash before what would format. */
function escapeFact(text: string): string {
  return literal(text.replace(/[\\`*_~[\]<>]/g, '\\$&').replace(/^(\s*)([-+#>=]|\d+[.)])/gm, '$1\\$2'));
}

/** Text shown as written: a RichTextBlock's TextRuns take no Markdown, where a TextBlock would format it. */
function plain(text: string, style: Record<string, string> = {}) {
  return { type: 'RichTextBlock', inlines: [{ type: 'TextRun', text: literal(text), ...style }] };
}

function codeBlock(text: string) {
  return { type: 'Container', style: 'emphasis', items: [plain(text, { fontType: 'Monospace' })] };
}

function card(c: AlertContent, b: Body) {
  const body: object[] = [
    plain(`${emoji(c)} ${headline(c)}`, { weight: 'Bolder', size: 'Medium', color: COLORS[toneOf(c)] }),
  ];
  if (b.details) body.push(plain(b.details));
  if (b.snippet) body.push(codeBlock(b.snippet));
  if (b.end) body.push({ type: 'TextBlock', text: END_OF_LOG, isSubtle: true, wrap: true }, codeBlock(b.end));
  body.push({ type: 'FactSet', facts: factsOf(c).map(([title, value]) => ({ title, value: escapeFact(value) })) });
  const actions = linksOf(c).map((link) => ({ type: 'Action.OpenUrl', title: link.title, url: link.url }));
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body,
          ...(actions.length > 0 ? { actions } : {}),
          msteams: { width: 'Full' },
        },
      },
    ],
  };
}

export const msteams: HttpChannelKind = {
  type: 'msteams',
  label: 'Microsoft Teams',
  url: {
    describe:
      'the HTTP POST URL of a Teams workflow: in the channel, ⋯ → Workflows → "Send webhook alerts to a channel" (https://….logic.azure.com/workflows/… or https://….powerplatform.com/…)',
  },
  secret: { need: 'none' },
  request(channel, c) {
    const fitted = shrink(bodyOf(c), (b) => utf8Bytes(JSON.stringify(card(c, b))) - MSTEAMS_MAX_BYTES);
    return { method: 'POST', url: channel.url, headers: jsonHeaders(), body: JSON.stringify(card(c, fitted)) };
  },
};
