import { END_OF_LOG, breakFences, headline } from '../payloads.js';
import type { AlertContent } from '../payloads.js';
import { bodyOf, emoji, linksOf, quietMentions, shrink } from './message.js';
import type { Body, Link } from './message.js';

// Markdown messages of the Slack-compatible incoming webhooks (Mattermost, Rocket.Chat), which read Markdown, not
// Slack's mrkdwn: each escapes names, messages and logs in its own way.

export interface MarkdownDialect {
  /** A name, escaped, as the headline shows it. */
  name: (text: string) => string;
  /** Text shown as written, no @mention notifying. */
  escape: (text: string) => string;
  /** A code block's text (fences already broken), as safe as the dialect needs it. */
  code: (text: string) => string;
  link: (link: Link) => string;
  maxChars: number;
}

/**
 * CommonMark text shown as written: a backslash before what would format (emphasis, code, links, HTML, a list or
 * a heading at the start of a line, an entity), and no @mention that notifies.
 */
export function escapeMarkdown(text: string): string {
  const escaped = text
    .replace(/[\\`*_~[\]<>|#&$]/g, '\\$&')
    .replace(/^(\s*)([-+=])/gm, '$1\\$2')
    .replace(/^(\s*\d+)([.)])/gm, '$1\\$2');
  return quietMentions(escaped);
}

/** The message in `dialect`, within its length: the snippet gives way first, then the end of the log, the details. */
export function markdownMessage(c: AlertContent, dialect: MarkdownDialect): string {
  const code = (text: string) => `\`\`\`\n${dialect.code(breakFences(text))}\n\`\`\``;
  const title = `${emoji(c)} ${headline(c, dialect.name)}`;
  const links = linksOf(c).map(dialect.link).join(' · ');
  const render = (b: Body) =>
    [
      title,
      b.details && dialect.escape(b.details),
      b.snippet && code(b.snippet),
      b.end && `${END_OF_LOG}\n${code(b.end)}`,
      b.footer && dialect.escape(b.footer),
      links,
    ]
      .filter(Boolean)
      .join('\n');
  return render(shrink(bodyOf(c), (b) => render(b).length - dialect.maxChars));
}
