import type { ChannelRecord } from '../domain/channels.js';
import type { AttemptResult } from '../domain/delivery.js';
import type { SendOptions } from './deliver.js';
import { send } from './deliver.js';
import type { Mailer } from './email.js';
import { sendEmail } from './email.js';
import type { AlertContent } from './payloads.js';
import { kindOf } from './channels/index.js';

export interface AttemptOptions extends SendOptions {
  /** The server's SMTP transport, for e-mail channels; undefined when it has none. */
  mailer: Mailer | undefined;
}

/**
 * One attempt to tell a channel of an alert (or a test): an e-mail through the server's SMTP server, or a POST
 * the request its kind makes (signed at `now`, for a webhook with a secret). PINGMON_CHANNELS_PUBLIC_ONLY is about the
 * hosts users name: an e-mail goes to the operator's own SMTP server, whatever its address.
 */
export function attemptChannel(
  channel: ChannelRecord,
  content: AlertContent,
  now: number,
  /** The same for each attempt of one message (a vendor's idempotency key). */
  messageKey: string,
  options: AttemptOptions,
): Promise<AttemptResult> {
  const { request } = kindOf(channel.type);
  if (!request) return sendEmail(options.mailer, channel, content, options);
  return send(request(channel, content, { nowSeconds: Math.floor(now / 1000), messageKey }), options);
}
