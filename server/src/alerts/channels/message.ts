import { iso } from '../../presenter.js';
import { ICONS, USER_AGENT, details, endOfLog, escapeMarkup, fit, fitEnd, footer } from '../payloads.js';
import type { AlertContent } from '../payloads.js';

// What the chat and phone kinds (msteams, googlechat, mattermost, rocketchat, telegram, ntfy, pushover, matrix) build
// their messages from: each formats and escapes these parts for its medium and fits them to its limit.

export function jsonHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { 'content-type': 'application/json', 'user-agent': USER_AGENT, ...extra };
}

export function emoji(c: AlertContent): string {
  return ICONS[c.event].discord;
}

/** How an alert reads: something is down, a warning (a silent failure), or good news (recovered, a test). */
export type Tone = 'down' | 'warning' | 'good';

export function toneOf(c: AlertContent): Tone {
  if (c.event === 'silent_failure') return 'warning';
  return c.event === 'recovered' || c.event === 'test' ? 'good' : 'down';
}

/** A grouped alert's footer lists every monitor: past this, the ids are cut (the details name them). */
const FOOTER_MAX_CHARS = 300;

/** A message's parts, raw (escaped once cut); all but the footer give way when it is too long for its medium. */
export interface Body {
  details: string;
  snippet: string;
  end: string;
  footer: string;
}

export function bodyOf(c: AlertContent): Body {
  return {
    details: details(c).join('\n'),
    // The snippet's last newline would show as an empty line at the end of its block.
    snippet: (c.logSnippet ?? '').replace(/\n+$/, ''),
    end: endOfLog(c) ?? '',
    footer: fit(footer(c) ?? '', FOOTER_MAX_CHARS),
  };
}

/**
 * The body cut until `over` (how far the message it makes is past the medium's limit) is 0 or less: the snippet
 * first, then the end of the log from its start (its last line is the cause), then the details; each kept as long
 * as the limit allows. Cut before escaping, so no cut falls inside an escape, an entity or a tag.
 */
export function shrink(body: Body, over: (body: Body) => number): Body {
  let b = body;
  for (const key of ['snippet', 'end', 'details'] as const) {
    if (over(b) <= 0) return b;
    const cut = (length: number): Body => {
      const text = (key === 'end' ? fitEnd : fit)(body[key], length);
      return { ...b, [key]: text === '…' ? '' : text };
    };
    // The longest that fits, found by halving (escapes make a message grow faster than its text).
    let [fits, tooLong] = [0, body[key].length];
    while (tooLong - fits > 1) {
      const mid = Math.floor((fits + tooLong) / 2);
      if (over(cut(mid)) <= 0) fits = mid;
      else tooLong = mid;
    }
    b = cut(fits);
  }
  return b;
}

export interface Link {
  title: string;
  url: string;
}

/** The dashboard's pages of the alert (PINGMON_PUBLIC_URL), the run's first. */
export function linksOf(c: AlertContent): Link[] {
  if (!c.links) return [];
  const links: Link[] = [];
  if (c.links.run) links.push({ title: 'Open the run', url: c.links.run });
  links.push({ title: 'Open the monitor', url: c.links.monitor });
  return links;
}

/** What identifies the alert, as label and value (a Teams FactSet). */
export function factsOf(c: AlertContent): Array<[string, string]> {
  const facts: Array<[string, string]> = [];
  const group = c.monitors ?? [];
  if (group.length > 1) facts.push(['Monitors', fit(group.map((m) => m.monitorId).join(', '), FOOTER_MAX_CHARS)]);
  else if (c.monitorId !== null) facts.push(['Monitor', c.monitorId]);
  if (c.runId !== null) facts.push(['Run', c.runId]);
  if (c.expectedAt !== null) facts.push(['Expected at', iso(c.expectedAt)]);
  if (c.host) facts.push(['Host', c.host]);
  if (c.lastRunAt !== null) facts.push(['Last run', [iso(c.lastRunAt), c.lastRunStatus].filter(Boolean).join(', ')]);
  facts.push(['Time', iso(c.createdAt)]);
  return facts;
}

/** Text in HTML, attribute values included. */
export function escapeHtml(text: string): string {
  return escapeMarkup(text).replace(/"/g, '&quot;');
}

/** A zero-width space after every @ that starts a word: @all, @channel or @someone then notifies nobody. */
export function quietMentions(text: string): string {
  return text.replace(/@(?=[\p{L}\p{N}_])/gu, '@\u200b');
}

/** A URL where markup around it cannot end early: the characters that could close it, percent-encoded. */
export function safeUrl(url: string): string {
  return url.replace(/[\s"'()<>|\\`]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
