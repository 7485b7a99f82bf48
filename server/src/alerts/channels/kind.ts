import type Joi from 'joi';
import type { ChannelType } from '@pingmon/sdk/wire';
import type { AlertContent } from '../payloads.js';

// What each kind of channel (DESIGN §16) says about itself: how its settings are checked, and the request that tells
// it of an alert. One file per kind in this folder, listed in index.ts; delivery, retries, rate limits, secrets and
// PINGMON_CHANNELS_PUBLIC_ONLY are the same for every kind and live elsewhere.

/** A channel as its kind sends to it. */
export interface ChannelTarget {
  channelId: string;
  type: ChannelType;
  /** The URL the user gave, or the kind's `url.default` (the vendor's API). */
  url: string;
  /** The kind's credential (a routing key, a bot token), never shown again once given. */
  secret: string | null;
  /** The kind's own settings, as its `options` schema left them (a Telegram chat id, a template's body). */
  options: Record<string, unknown>;
}

export interface OutgoingRequest {
  method: 'POST' | 'PUT';
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface SendContext {
  /** The time of the attempt, in seconds (a webhook's signature). */
  nowSeconds: number;
  /**
   * The same for every attempt of one message and different for each message (an alert, each of its repeats): a
   * vendor's idempotency key (Matrix's transaction id).
   */
  messageKey: string;
}

/** What every kind says about itself. */
interface KindBase {
  type: ChannelType;
  /** Its name in messages and forms: "PagerDuty", "Microsoft Teams". */
  label: string;
  url: {
    /** The URL's own check, where it is not an http(s) URL (an e-mail channel's mailto: recipients). */
    schema?: Joi.StringSchema;
    /** The vendor's API, used when the channel gives no URL (given, it replaces it: a proxy, a test receiver). */
    default?: string;
    /** Shown in the API's and the form's help: what URL to give and where the user finds it. */
    describe: string;
  };
  secret: {
    need: 'required' | 'optional' | 'none';
    /** What the secret is: "the integration's routing key (Events API v2)". */
    describe?: string;
  };
  /** The kind's options, checked at create and update time; messages say what to give. */
  options?: Joi.ObjectSchema;
  /** Opened and closed in the vendor's tool by the incident's alerts (incidentKey), not only messaged. */
  incidents?: boolean;
  /**
   * Re-sent at this interval while its incident is open, unless the channel sets its own (Alertmanager forgets an
   * alert not re-sent within its resolve_timeout).
   */
  repeatEverySeconds?: number;
  /** The options as the API shows them, where some may be credentials (a template's header values): else as stored. */
  shownOptions?(options: Record<string, unknown>): Record<string, unknown>;
  /** A check no schema can make (a template that cannot render): the reason, or null. */
  check?(channel: ChannelTarget): string | null;
}

/** A kind told over HTTP: every kind but e-mail. */
export interface HttpChannelKind extends KindBase {
  request(channel: ChannelTarget, content: AlertContent, context: SendContext): OutgoingRequest;
}

/** E-mail, sent through the server's SMTP server (alerts/email.ts). */
export interface MailChannelKind extends KindBase {
  type: 'email';
  request?: undefined;
}

export type ChannelKind = HttpChannelKind | MailChannelKind;
