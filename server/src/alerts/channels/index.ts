import type { ChannelType } from '@pingmon/sdk/wire';
import { discord, email, slack, webhook } from './chat-webhooks.js';
import type { ChannelKind } from './kind.js';
import { template } from './template.js';
import { alertmanager } from './alertmanager.js';
import { opsgenie } from './opsgenie.js';
import { pagerduty } from './pagerduty.js';

/** Every kind of channel, by type (DESIGN §16). */
const KINDS: ReadonlyMap<ChannelType, ChannelKind> = new Map(
  [slack, discord, webhook, email, template, alertmanager, pagerduty, opsgenie].map((kind) => [kind.type, kind]),
);

export const CHANNEL_TYPES: readonly ChannelType[] = [...KINDS.keys()];

export function kindOf(type: ChannelType): ChannelKind {
  const kind = KINDS.get(type);
  if (!kind) throw new Error(`no channel kind "${type}"`);
  return kind;
}
