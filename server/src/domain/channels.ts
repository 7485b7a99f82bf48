import type { ChannelType } from '@pingmon/sdk/wire';

/** A channel as the server holds it: its URL and secret in full. */
export interface ChannelRecord {
  channelId: string;
  accountId: string;
  name: string;
  type: ChannelType;
  url: string;
  secret: string | null;
  /** The kind's own settings (alerts/channels/<type>.ts). */
  options: Record<string, unknown>;
  /** Seconds between repeats of an open incident's alert; null: the kind's default (none for most). */
  repeatEvery: number | null;
  /** Seconds an incident must stay open before this channel is told of it; null: at once. */
  escalateAfter: number | null;
  /** null: every monitor of the account. */
  monitorIds: string[] | null;
  enabled: boolean;
  createdAt: number;
}

/** An e-mail channel's URL: "mailto:" and its recipients, separated by commas. */
export const MAILTO = 'mailto:';

/** At most this many recipients per e-mail channel: a team's list, not a mailing list. */
export const MAX_RECIPIENTS = 20;

/**
 * The addresses of an e-mail channel's URL ("mailto:a@example.com, b@example.com", any case of "mailto:"), each
 * trimmed. An empty one is kept, for the check of a new URL to refuse: a stored URL has none.
 */
export function recipientsOf(url: string): string[] {
  return url
    .slice(MAILTO.length)
    .split(',')
    .map((address) => address.trim());
}

/**
 * A webhook URL is a credential (whoever has a Slack or Discord webhook URL can post to it), so it is
 * shown as its origin only: "https://hooks.slack.com/…". An e-mail channel's recipients are shown whole: an
 * address lets nobody send anything through pingmon, and the team needs to see who gets the alerts.
 */
export function maskUrl(url: string): string {
  if (url.startsWith(MAILTO)) return url;
  try {
    return `${new URL(url).origin}/…`;
  } catch {
    return '…';
  }
}

/** Tests one channel may send per window: enough to get a URL right, too few to make the server a request relay. */
export const CHANNEL_TESTS_PER_WINDOW = 5;
export const CHANNEL_TEST_WINDOW_MS = 60_000;

/** A channel's tests in its current window, this one included. */
export interface ChannelTests {
  count: number;
  windowStartedAt: number;
}

export type ChannelTestDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Whether a channel's test may go, or how many seconds until its window ends. */
export function channelTestDecision(tests: ChannelTests, now: number): ChannelTestDecision {
  if (tests.count <= CHANNEL_TESTS_PER_WINDOW) return { allowed: true };
  const waitMs = tests.windowStartedAt + CHANNEL_TEST_WINDOW_MS - now;
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
}
