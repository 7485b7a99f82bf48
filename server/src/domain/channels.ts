import type { ChannelType } from '@pingmon/sdk/wire';

/** A channel as the server holds it: its URL and secret in full. */
export interface ChannelRecord {
  channelId: string;
  accountId: string;
  name: string;
  type: ChannelType;
  url: string;
  secret: string | null;
  /** null: every monitor of the account. */
  monitorIds: string[] | null;
  enabled: boolean;
  createdAt: number;
}

export const CHANNEL_TYPES: readonly ChannelType[] = ['slack', 'discord', 'webhook'];

/**
 * A webhook URL is a credential (whoever has a Slack or Discord webhook URL can post to it), so it is
 * shown as its origin only: "https://hooks.slack.com/…".
 */
export function maskUrl(url: string): string {
  try {
    return `${new URL(url).origin}/…`;
  } catch {
    return '…';
  }
}
