import { END_OF_LOG, details, endOfLog, fit, fitEnd, footer, headline } from '../payloads.js';
import type { AlertContent } from '../payloads.js';
import type { SendContext } from './kind.js';

// What the on-call kinds (alertmanager, pagerduty, opsgenie) share: which incident in the tool an alert belongs to,
// and the alert as plain text.

/**
 * The key of the tool's incident: the same for every alert of one pingmon incident (its `recovered` closes it);
 * an alert outside one stands alone (its id), and each test message opens one of its own.
 */
export function incidentKeyOf(c: AlertContent, context: SendContext): string {
  return c.incidentKey ?? c.alertId ?? `pingmon-test-${context.messageKey}`;
}

/** Alerts of an incident page at its level; so does a test, which shows how they arrive. */
export function atIncidentLevel(c: AlertContent): boolean {
  return c.event === 'test' || (c.incidentKey ?? null) !== null;
}

/** The headline and the first detail, without its bullet: a tool's one-line title. */
export function titleLine(c: AlertContent): string {
  const first = details(c)[0]?.replace(/^• /, '');
  return first === undefined ? headline(c) : `${headline(c)}: ${first}`;
}

/**
 * The details, the log's first characters and its end, and the footer, as plain text of at most `max` characters:
 * the snippet gives way first, then the end of the log (from its start: its last line is the cause), then the details.
 */
export function plainBody(c: AlertContent, max: number): string {
  let head = details(c).join('\n');
  let snippet = (c.logSnippet ?? '').replace(/\n+$/, '');
  let end = endOfLog(c) ?? '';
  const foot = footer(c);
  const text = () =>
    [head, snippet && `Log (its first 500 characters):\n${snippet}`, end && `${END_OF_LOG}\n${end}`, foot ?? '']
      .filter(Boolean)
      .join('\n\n');
  const over = () => text().length - max;
  if (over() > 0) snippet = fit(snippet, Math.max(0, snippet.length - over()));
  if (snippet === '…') snippet = '';
  if (over() > 0) end = fitEnd(end, Math.max(0, end.length - over()));
  if (end === '…') end = '';
  if (over() > 0) head = fit(head, Math.max(1, head.length - over()));
  return fit(text(), max);
}
