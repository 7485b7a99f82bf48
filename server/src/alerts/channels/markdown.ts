import { END_OF_LOG, breakFences, headline } from '../payloads.js';
import type { AlertContent } from '../payloads.js';
import { bodyOf, emoji, linksOf, quietMentions, safeUrl, shrink } from './message.js';

// Markdown messages of the Slack-compatible incoming webhooks (Mattermost, Rocket.Chat): they read Markdown with
// backslash escapes, not Slack's mrkdwn.

export interface MarkdownDialect {
  bold: (text: string) => string;
  maxChars: number;
  /** Whether @mentions in code blocks notify too (Mattermost's server skips code, Rocket.Chat's may not). */
  mentionsInCode: boolean;
}

/**
 * Text shown as written: a backslash before what would format (emphasis, code, links, HTML, a list or a heading
 * at the start of a line, an entity), and no @mention that notifies.
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
  const code = (text: string) => {
    const safe = breakFences(text);
    return `\`\`\`\n${dialect.mentionsInCode ? quietMentions(safe) : safe}\n\`\`\``;
  };
  const title = `${emoji(c)} ${headline(c, (name) => dialect.bold(escapeMarkdown(name)))}`;
  const links = linksOf(c)
    .map((link) => `[${link.title}](${safeUrl(link.url)})`)
    .join(' · ');
  const render = (b: ReturnType<typeof bodyOf>) =>
    [
      title,
      b.details && escapeMarkdown(b.details),
      b.snippet && code(b.snippet),
      b.end && `${END_OF_LOG}\n${code(b.end)}`,
      b.footer && escapeMarkdown(b.footer),
      links,
    ]
      .filter(Boolean)
      .join('\n');
  return render(shrink(bodyOf(c), (b) => render(b).length - dialect.maxChars));
}
