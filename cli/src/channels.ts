import { formatDuration } from '@pingmon/sdk';
import type { Channel, ChannelTestResult } from '@pingmon/sdk';
import { duration } from './output.js';

/** "every monitor", "mon_a, mon_b", "no monitor" */
export function channelScope(channel: Pick<Channel, 'monitorIds'>): string {
  if (channel.monitorIds === null) return 'every monitor';
  return channel.monitorIds.length === 0 ? 'no monitor' : channel.monitorIds.join(', ');
}

/** "webhook", "webhook, signed": a webhook's or template's secret signs; other kinds' secrets are credentials. */
export function channelKind(channel: Pick<Channel, 'type' | 'hasSecret'>): string {
  const signs = channel.type === 'webhook' || channel.type === 'template';
  return signs && channel.hasSecret ? `${channel.type}, signed` : channel.type;
}

/**
 * Its kind's options and its timing, briefly: "chatId=-1001234567890, repeat every 10m", "body=(312 characters),
 * headers={Authorization=…}, escalate after 15m"; "" when it has none.
 */
export function channelSettings(channel: Pick<Channel, 'options' | 'repeatEvery' | 'escalateAfter'>): string {
  const parts = Object.entries(channel.options).map(([key, value]) => `${key}=${brief(value)}`);
  if (channel.repeatEvery !== null) parts.push(`repeat every ${formatDuration(channel.repeatEvery)}`);
  if (channel.escalateAfter !== null) parts.push(`escalate after ${formatDuration(channel.escalateAfter)}`);
  return parts.join(', ');
}

function brief(value: unknown): string {
  if (typeof value === 'string')
    return value.length > 40 || value.includes('\n') ? `(${value.length} characters)` : value;
  if (Array.isArray(value)) return `[${value.map(brief).join(', ')}]`;
  if (typeof value === 'object' && value !== null)
    return `{${Object.entries(value)
      .map(([key, inner]) => `${key}=${brief(inner)}`)
      .join(', ')}}`;
  return String(value);
}

/** The recipients of an e-mail channel: --to ops@example.com --to oncall@example.com */
export function mailtoUrl(addresses: string[]): string {
  return `mailto:${addresses.join(',')}`;
}

/**
 * "HTTP 200 in 12ms", "HTTP 503 in 3ms: busy", "connect ECONNREFUSED 127.0.0.1:9 (after 2ms)",
 * "sent in 40ms" (an e-mail the SMTP server accepted)
 */
export function testOutcome(result: ChannelTestResult): string {
  if (result.statusCode === null && result.delivered)
    return `sent in ${duration(result.durationMs)}${result.error ? `, ${result.error}` : ''}`;
  if (result.statusCode === null) return `${result.error ?? 'no answer'} (after ${duration(result.durationMs)})`;
  const detail = result.error?.replace(/^HTTP \d+:\s*/, '');
  return `HTTP ${result.statusCode} in ${duration(result.durationMs)}${detail ? `: ${detail}` : ''}`;
}
