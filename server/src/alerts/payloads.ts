import { createHmac } from 'node:crypto';
import { createRequire } from 'node:module';
import { LOG_SNIPPET_CHARS, truncate } from '@pingmon/sdk/wire';
import type { AlertEvent, IncidentCause, MatchedRule, Meta, MonitorStatus, RunStatus } from '@pingmon/sdk/wire';
import { describeMatch } from '../domain/rules.js';
import type { OutgoingRequest } from './channels/kind.js';
import { iso } from '../presenter.js';

const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };
/** Every request pingmon sends to a channel names itself so. */
export const USER_AGENT = `pingmon/${version}`;

const DISCORD_MAX_CHARS = 2_000;
const SLACK_SECTION_MAX_CHARS = 3_000;

/** What a channel is told about an alert; a test message has no monitor, run or alert. */
export interface AlertContent {
  event: AlertEvent | 'test';
  alertId: string | null;
  monitorId: string | null;
  monitorName: string | null;
  runId: string | null;
  status: RunStatus | MonitorStatus | null;
  errorMessage: string | null;
  logSnippet: string | null;
  /** The log's last lines (fail alerts of runs with a log). */
  logTail: string | null;
  meta: Meta;
  matchedRules: MatchedRule[];
  /** The expected opening a missed alert is about. */
  expectedAt: number | null;
  /** When no pingmon server was sweeping while that expected run was due; the message names it too. */
  serverGap?: { from: number; to: number } | null;
  /** Missed alerts: when the monitor's last run started, and its status. */
  lastRunAt: number | null;
  lastRunStatus: RunStatus | null;
  /** A missed alert: the host the monitor's last run came from, if it named one. */
  host?: string | null;
  /** Missed alerts sent as one (monitors whose last runs came from `host`), this one first; else absent. */
  monitors?: MissedMonitor[] | null;
  createdAt: number;
  /**
   * The pingmon incident the alert belongs to, the same for each of its alerts (`recovered` included): on-call
   * tools open one incident per key and close it on `recovered`. Null outside an incident (a silent failure, a
   * failure below the threshold): such an alert is its own, keyed by its alertId.
   */
  incidentKey?: string | null;
  /** Why that incident opened. */
  cause?: IncidentCause | null;
  /** A fail alert: how many failed runs in a row before its run failed the same way (0: a new failure). */
  repeats?: number | null;
  monitorSlug?: string | null;
  /** The dashboard's pages of the monitor and run, when the server knows its public URL (PINGMON_PUBLIC_URL). */
  links?: { monitor: string; run: string | null } | null;
}

/** One monitor of a grouped missed alert (docs/alerts.md#one-alert-per-problem). */
export interface MissedMonitor {
  monitorId: string;
  monitorName: string;
  expectedAt: number | null;
  errorMessage: string | null;
}

/** More than one monitor in one message. */
function grouped(c: AlertContent): c is AlertContent & { monitors: MissedMonitor[] } {
  return (c.monitors?.length ?? 0) > 1;
}

export function testContent(channelName: string, now: number): AlertContent {
  return {
    event: 'test',
    alertId: null,
    monitorId: null,
    monitorName: null,
    runId: null,
    status: null,
    errorMessage: `Test message for the pingmon channel "${channelName}": alerts will arrive like this.`,
    logSnippet: null,
    logTail: null,
    meta: {},
    matchedRules: [],
    expectedAt: null,
    lastRunAt: null,
    lastRunStatus: null,
    createdAt: now,
  };
}

/** A JSON POST to `url`, as most kinds send. */
export function jsonRequest(url: string, payload: unknown): OutgoingRequest {
  const headers = { 'content-type': 'application/json', 'user-agent': USER_AGENT };
  return { method: 'POST', url, headers, body: JSON.stringify(payload) };
}

/** `t=<unix>,v1=<hex HMAC-SHA256 of "<unix>.<body>">`, as receivers verify it (docs/api.md). */
export function signature(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

export function webhookPayload(c: AlertContent) {
  return {
    event: c.event,
    alertId: c.alertId,
    monitorId: c.monitorId,
    monitorName: c.monitorName,
    runId: c.runId,
    status: c.status,
    errorMessage: c.errorMessage,
    logSnippet: c.logSnippet,
    logTail: c.logTail,
    repeats: c.repeats ?? null,
    meta: c.meta,
    matchedRules: c.matchedRules,
    expectedAt: c.expectedAt === null ? null : iso(c.expectedAt),
    serverGap: c.serverGap ? { from: iso(c.serverGap.from), to: iso(c.serverGap.to) } : null,
    lastRunAt: c.lastRunAt === null ? null : iso(c.lastRunAt),
    lastRunStatus: c.lastRunStatus,
    timestamp: iso(c.createdAt),
    ...(c.event === 'missed' ? missedFields(c) : {}),
  };
}

/** A missed alert's own keys: its host, and every monitor it tells of (itself alone unless grouped). */
function missedFields(c: AlertContent) {
  const { monitorId, monitorName, expectedAt, errorMessage } = c;
  const self: MissedMonitor = { monitorId: monitorId!, monitorName: monitorName!, expectedAt, errorMessage };
  return {
    host: c.host ?? null,
    monitors: (grouped(c) ? c.monitors : [self]).map((m) => ({
      monitorId: m.monitorId,
      monitorName: m.monitorName,
      expectedAt: m.expectedAt === null ? null : iso(m.expectedAt),
      errorMessage: m.errorMessage,
    })),
  };
}

/**
 * A snippet cannot close the code block around it: every backtick followed by another gets a zero-width
 * space (U+200B) after it, so no run of two or more backticks is left. It reads the same.
 */
export function breakFences(text: string): string {
  return text.replace(/`(?=`)/g, '`\u200b');
}

export const ICONS: Record<AlertContent['event'], { slack: string; discord: string }> = {
  fail: { slack: ':red_circle:', discord: '🔴' },
  timed_out: { slack: ':red_circle:', discord: '🔴' },
  missed: { slack: ':red_circle:', discord: '🔴' },
  still_down: { slack: ':red_circle:', discord: '🔴' },
  silent_failure: { slack: ':warning:', discord: '⚠️' },
  recovered: { slack: ':large_green_circle:', discord: '🟢' },
  test: { slack: ':white_check_mark:', discord: '✅' },
};

/** `name` formats the monitor's name (bold, escaped) for the channel. */
export function headline(c: AlertContent, name: (text: string) => string = (text) => text): string {
  if (c.event === 'test' || c.monitorName === null) return 'pingmon test message';
  if (grouped(c)) return `${c.monitors.length} monitors did not start on time, all last run on ${name(c.host ?? '')}`;
  const monitor = name(c.monitorName);
  if (c.event === 'fail') return `${monitor} failed`;
  if (c.event === 'timed_out') return `${monitor} timed out`;
  if (c.event === 'missed') return `${monitor} did not start on time`;
  if (c.event === 'still_down') return `${monitor} is still down`;
  if (c.event === 'recovered') return `${monitor} is up again`;
  const n = c.matchedRules.length;
  return `${monitor} succeeded, but its meta matched ${n} alert rule${n === 1 ? '' : 's'} (silent failure)`;
}

/** The lines under the headline: the error message, or the matched rules. */
export function details(c: AlertContent): string[] {
  if (c.event === 'silent_failure') return c.matchedRules.map((rule) => `• ${describeMatch(rule)}`);
  if (grouped(c)) return c.monitors.map((m) => `• ${m.monitorName}: ${m.errorMessage ?? 'did not start'}`);
  const lines = c.errorMessage === null ? [] : [c.errorMessage];
  const repeated = sameFailure(c.repeats);
  return repeated === null ? lines : [...lines, repeated];
}

/** What a fail alert says of its failure's fingerprint (docs/alerts.md#failure-fingerprints). */
export function sameFailure(repeats: number | null | undefined): string | null {
  if (repeats === null || repeats === undefined) return null;
  if (repeats === 0) return 'New failure.';
  return `Same failure as the last ${repeats === 1 ? 'run' : `${repeats} runs`}.`;
}

export function footer(c: AlertContent): string | null {
  if (c.monitorId === null) return null;
  if (grouped(c)) return `monitors ${c.monitors.map((m) => m.monitorId).join(', ')} · ${iso(c.createdAt)}`;
  const run = c.runId === null ? '' : `run ${c.runId} · `;
  return `${run}monitor ${c.monitorId} · ${iso(c.createdAt)}`;
}

/** What heads the end of the log in a message, under the snippet. */
export const END_OF_LOG = '…end of the log:';

/**
 * The end of the log to show below the snippet, or null when the snippet already shows it (a log of 500
 * characters or fewer is shown once).
 */
export function endOfLog(c: AlertContent): string | null {
  if (!c.logTail || (c.logSnippet ?? '').includes(c.logTail)) return null;
  return fitEnd(c.logTail, LOG_SNIPPET_CHARS);
}

/** &, < and > as entities: all that Slack's mrkdwn needs, and what HTML text needs (email.ts adds the quotes). */
export function escapeMarkup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Slack wants &, < and > escaped in all text; code blocks included. */
const slackEscape = escapeMarkup;

/** At most `max` characters, cut with "…" (for Slack never inside an escape such as &amp;). */
export function fit(text: string, max: number, slack = false): string {
  if (text.length <= max) return text;
  if (max <= 1) return max === 1 ? '…' : '';
  const cut = truncate(text, max - 1);
  // A cut must not leave half an escape: "&am" in Slack, a lone "\\" in Discord.
  return `${slack ? cut.replace(/&[a-z]{0,3}$/, '') : cut.replace(/\\+$/, '')}…`;
}

/** At most `max` characters of the end of `text`, cut with a leading "…" and never inside a surrogate pair. */
export function fitEnd(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 1) return max === 1 ? '…' : '';
  let start = text.length - (max - 1);
  const first = text.charCodeAt(start);
  if (first >= 0xdc00 && first <= 0xdfff) start++;
  return `…${text.slice(start)}`;
}

export function slackPayload(c: AlertContent) {
  const icon = ICONS[c.event].slack;
  const title = headline(c, (name) => `*${slackEscape(breakFences(name))}*`);
  const lines = details(c).map((line) => slackEscape(breakFences(line)));
  const blocks: object[] = [
    {
      type: 'section',
      text: { type: 'mrkdwn', text: fit([`${icon} ${title}`, ...lines].join('\n'), SLACK_SECTION_MAX_CHARS, true) },
    },
  ];
  if (c.logSnippet) {
    const inner = fit(slackEscape(breakFences(c.logSnippet)), SLACK_SECTION_MAX_CHARS - 8, true);
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: `\`\`\`\n${inner}\n\`\`\`` } });
  }
  const end = endOfLog(c);
  if (end !== null) {
    // 500 characters, each at most 5 once escaped (&amp;): always within a section, never cut.
    const inner = slackEscape(breakFences(end));
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: `${END_OF_LOG}\n\`\`\`\n${inner}\n\`\`\`` } });
  }
  const foot = footer(c);
  if (foot !== null) blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: slackEscape(foot) }] });
  // The notification line: the headline and the first detail, without its bullet.
  const text = fit(
    slackEscape(
      breakFences(
        [
          headline(c),
          ...details(c)
            .slice(0, 1)
            .map((d) => d.replace(/^• /, '')),
        ].join(': '),
      ),
    ),
    SLACK_SECTION_MAX_CHARS,
    true,
  );
  return { text, blocks };
}

/** Markdown off for names and messages: a backslash before every character Discord would format. */
function discordEscape(text: string): string {
  return text.replace(/[\\*_~`|]/g, '\\$&').replace(/^([>#-])/gm, '\\$1');
}

/**
 * `content` within Discord's 2,000 characters: the snippet gives way first, then the end of the log (from its
 * start: its last line is the cause), then the text above them; code blocks are closed whatever is cut. Mentions
 * in the text ping nobody.
 */
export function discordPayload(c: AlertContent) {
  const icon = ICONS[c.event].discord;
  const title = headline(c, (name) => `**${discordEscape(name)}**`);
  let head = [`${icon} ${title}`, ...details(c).map(discordEscape)].join('\n');
  const foot = footer(c);
  const context = foot === null ? '' : `\n${discordEscape(foot)}`;
  let snippet = c.logSnippet ? breakFences(c.logSnippet) : '';
  let end = breakFences(endOfLog(c) ?? '');
  const block = () => (snippet === '' ? '' : `\n\`\`\`\n${snippet}\n\`\`\``);
  const endBlock = () => (end === '' ? '' : `\n${END_OF_LOG}\n\`\`\`\n${end}\n\`\`\``);
  const over = () => head.length + block().length + endBlock().length + context.length - DISCORD_MAX_CHARS;
  if (over() > 0 && snippet !== '') snippet = fit(snippet, Math.max(0, snippet.length - over()));
  if (snippet === '…') snippet = '';
  if (over() > 0 && end !== '') end = fitEnd(end, Math.max(0, end.length - over()));
  if (end === '…') end = '';
  if (over() > 0) head = fit(head, Math.max(1, head.length - over()));
  return { content: head + block() + endBlock() + context, allowed_mentions: { parse: [] } };
}
