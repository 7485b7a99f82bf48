import type { Channel, ChannelTestResult } from '@pingmon/sdk';
import { duration } from './output.js';

/** "every monitor", "mon_a, mon_b", "no monitor" */
export function channelScope(channel: Pick<Channel, 'monitorIds'>): string {
  if (channel.monitorIds === null) return 'every monitor';
  return channel.monitorIds.length === 0 ? 'no monitor' : channel.monitorIds.join(', ');
}

/** "webhook", "webhook, signed" */
export function channelKind(channel: Pick<Channel, 'type' | 'hasSecret'>): string {
  return channel.hasSecret ? `${channel.type}, signed` : channel.type;
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
