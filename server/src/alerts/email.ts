import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { domainToASCII } from 'node:url';
import { createTransport } from 'nodemailer';
import { truncate } from '@pingmon/sdk/wire';
import type { Config } from '../config.js';
import { recipientsOf } from '../domain/channels.js';
import type { AttemptResult } from '../domain/delivery.js';
import { AttemptAbortedError } from './deliver.js';
import type { AlertContent } from './payloads.js';
import { END_OF_LOG, details, endOfLog, escapeMarkup, footer, headline } from './payloads.js';

/** How much of the SMTP server's reply is kept with a failed attempt. */
const REPLY_CHARS = 200;
const SUBJECT_MAX_CHARS = 200;

export const SMTP_NOT_CONFIGURED =
  'this pingmon server has no SMTP server to send e-mail through: its operator sets PINGMON_SMTP_URL and ' +
  'PINGMON_SMTP_FROM (docs/configuration.md#e-mail)';

/** The server's one SMTP transport and the From of its mails; undefined when PINGMON_SMTP_URL is unset. */
export interface Mailer {
  readonly transport: ReturnType<typeof createTransport>;
  readonly from: string;
  /** The domain of From, for Message-IDs: a Message-ID's right side should be a domain the sender has. */
  readonly domain: string;
  /** The SMTP server's host as PINGMON_SMTP_URL names it: kept out of the errors an account's users read. */
  readonly host: string;
}

/** "alerts@example.com" and "pingmon <alerts@example.com>" (as the config checked it): "example.com". */
export function domainOf(from: string): string {
  return /@([^<>@\s]+)>?$/.exec(from.trim())?.[1] ?? 'pingmon.invalid';
}

/**
 * One connection per message, none kept open: alerts are few, and a fresh connection has no idle state for the
 * SMTP server to time out. Each step of it waits at most one alert timeout (the whole send is bounded in sendEmail).
 */
export function createMailer(config: Pick<Config, 'smtpUrl' | 'smtpFrom' | 'alertTimeoutMs'>): Mailer | undefined {
  if (config.smtpUrl === undefined || config.smtpFrom === undefined) return undefined;
  const timeoutMs = config.alertTimeoutMs;
  const transport = createTransport({
    url: config.smtpUrl,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    dnsTimeout: timeoutMs,
    // The message is all ours: nothing in it may make nodemailer read a file or fetch a URL.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  const { hostname } = new URL(config.smtpUrl);
  return {
    transport,
    from: config.smtpFrom,
    domain: domainOf(config.smtpFrom),
    host: hostname.replace(/^\[|\]$/g, ''),
  };
}

export interface EmailMessage {
  subject: string;
  text: string;
  html: string;
}

/** The quotes too: escaped text is then safe in an attribute as well. */
function escapeHtml(text: string): string {
  return escapeMarkup(text).replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Escaped, its line breaks kept: a multi-line error message would run together in a <p>. */
function htmlLines(text: string): string {
  return escapeHtml(text).replace(/\r?\n/g, '<br>\n');
}

const PRE_STYLE =
  'font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px;white-space:pre-wrap;' +
  'background:#f6f8fa;border:1px solid #d0d7de;border-radius:4px;padding:8px';
const FOOTER_STYLE = 'color:#57606a;font-size:12px';

/**
 * The mail telling of an alert: the facts of the Slack and Discord messages (headline, error message or matched
 * rules, log snippet, end of the log, footer), as text and as HTML. Everything from a job (names, messages, the
 * log) is escaped in the HTML: the log is untrusted text, shown as written in monospace blocks.
 */
export function emailMessage(c: AlertContent): EmailMessage {
  const title = headline(c);
  const subject = `[pingmon] ${c.event === 'test' ? 'test message' : title}`.replace(/\s+/g, ' ').trim();
  const lines = details(c);
  const foot = footer(c);
  const end = endOfLog(c);
  const text = [
    title,
    ...lines,
    ...(c.logSnippet ? ['', 'Log (its first 500 characters):', '----', c.logSnippet.replace(/\n$/, ''), '----'] : []),
    ...(end === null ? [] : ['', 'End of the log (its last lines):', '----', end, '----']),
    ...(foot === null ? [] : ['', foot]),
  ].join('\n');
  const html = [
    '<!doctype html>',
    '<html><body style="font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;font-size:14px">',
    `<p>${headline(c, (name) => `<strong>${escapeHtml(name)}</strong>`)}</p>`,
    ...(lines.length > 0 ? [`<p>${lines.map(htmlLines).join('<br>\n')}</p>`] : []),
    ...(c.logSnippet ? [`<pre style="${PRE_STYLE}">${escapeHtml(c.logSnippet)}</pre>`] : []),
    ...(end === null ? [] : [`<p>${escapeHtml(END_OF_LOG)}</p>`, `<pre style="${PRE_STYLE}">${escapeHtml(end)}</pre>`]),
    ...(foot === null ? [] : [`<p style="${FOOTER_STYLE}">${escapeHtml(foot)}</p>`]),
    '</body></html>',
  ].join('\n');
  return {
    // Cut whole characters only: never half an emoji.
    subject: subject.length > SUBJECT_MAX_CHARS ? `${truncate(subject, SUBJECT_MAX_CHARS - 1)}…` : subject,
    text,
    html,
  };
}

/** An SMTP failure as nodemailer reports it. */
interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
  response?: string;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, REPLY_CHARS);
}

/**
 * An error or a reply without where the SMTP server is: the operator's relay is no business of the account whose
 * alert failed (`connect ECONNREFUSED 10.0.0.5:587` is `connect ECONNREFUSED the SMTP server`). Its host as
 * configured goes (in any case, with or without a final dot or a port), and so do any address, with or without a
 * port, and the names of a certificate (`DNS:mx1.example.net`). A name the relay gives itself that is not the
 * configured one (in its greeting, say) is not known here and stays.
 */
export function withoutRelay(message: string, host: string): string {
  const name = (text: string) => domainToASCII(text.toLowerCase().replace(/\.$/, '')) || text.toLowerCase();
  const relay = name(host);
  const unbracketed = (text: string) => text.replace(/^\[(.*)\]$/, '$1');
  return message
    .split(/(\s+)/)
    .map((word) => {
      const [, body = word, end = ''] = /^(.*?)([.,;:)]*)$/.exec(word) ?? [];
      const candidates = [body, unbracketed(body), unbracketed(body.replace(/:\d+$/, ''))];
      const hide = /^DNS:\S/i.test(body) || candidates.some((c) => isIP(c) !== 0 || (c !== '' && name(c) === relay));
      return hide ? `the SMTP server${end}` : word;
    })
    .join('');
}

/**
 * The replies of RFC 4954 about logging in (530 required, 534 mechanism too weak, 535 refused, 538 TLS needed for
 * it): about the session, even when they answer MAIL FROM (a server that wants a login, given none).
 */
const LOGIN_REPLIES = new Set([530, 534, 535, 538]);

/**
 * Only a refusal of the message itself is for good: a 5xx (but 503, a bad sequence of commands: the session's
 * state, and the login replies) to MAIL FROM, RCPT TO or DATA, which nodemailer reports as EENVELOPE or EMESSAGE;
 * the same message would be refused again. Everything else is about the session, not the message, and is
 * retried: no reply at all (refused, reset, timed out, DNS), a failed or impossible login (EAUTH, ENOAUTH: a
 * password being rotated must not fail every alert in flight), TLS (ETLS: STARTTLS refused), a greeting or EHLO
 * refused (EPROTOCOL, ECONNECTION), and any 4xx (temporary by definition, RFC 5321).
 */
function verdictOfSmtpError(err: SmtpError): 'retry' | 'permanent' {
  const aboutMessage = err.code === 'EENVELOPE' || err.code === 'EMESSAGE';
  const code = err.responseCode;
  if (!aboutMessage || code === undefined || code === 503 || LOGIN_REPLIES.has(code)) return 'retry';
  return code >= 500 && code < 600 ? 'permanent' : 'retry';
}

export interface EmailOptions {
  timeoutMs: number;
  stop?: AbortSignal;
}

/**
 * One e-mail to the channel's recipients through the server's SMTP server, within `timeoutMs` in all. Never
 * throws for what the SMTP server or the network did: that is the result. Throws AttemptAbortedError when
 * `stop` fires.
 */
export async function sendEmail(
  mailer: Mailer | undefined,
  channel: { channelId: string; url: string },
  content: AlertContent,
  options: EmailOptions,
): Promise<AttemptResult> {
  const started = performance.now();
  const result = (verdict: AttemptResult['verdict'], error: string | null): AttemptResult => ({
    statusCode: null,
    error,
    durationMs: Math.round(performance.now() - started),
    retryAfterMs: null,
    verdict,
  });
  // Another server of the same database may have the settings this one lacks, or this one may get them at its
  // next start: retried, not failed.
  if (!mailer) return result('retry', SMTP_NOT_CONFIGURED);
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.stop ? AbortSignal.any([timeout, options.stop]) : timeout;
  const message = emailMessage(content);
  const headers: Record<string, string> = { 'X-Pingmon-Event': content.event };
  if (content.alertId !== null) headers['X-Pingmon-Alert-Id'] = content.alertId;
  if (content.monitorId !== null) headers['X-Pingmon-Monitor-Id'] = content.monitorId;
  try {
    const info = await mailer.transport.sendMail({
      from: mailer.from,
      to: recipientsOf(channel.url),
      ...message,
      headers,
      // Every attempt of one alert has the same Message-ID: a mail client can drop a duplicate by it.
      messageId: content.alertId === null ? undefined : `<${content.alertId}.${channel.channelId}@${mailer.domain}>`,
      signal,
    });
    // Refused for some recipients only: the others have it, and a retry would send it to them again.
    const refused = info.rejected.map(String);
    return result('delivered', refused.length > 0 ? `not accepted for ${refused.join(', ')}` : null);
  } catch (err) {
    if (options.stop?.aborted) throw new AttemptAbortedError('the server is stopping', { cause: err });
    if (timeout.aborted) return result('retry', `no answer within ${options.timeoutMs} ms`);
    const { response, message: said } = err as SmtpError;
    const error = oneLine(withoutRelay(response ? `SMTP ${response}` : said, mailer.host));
    return result(verdictOfSmtpError(err as SmtpError), error);
  }
}
