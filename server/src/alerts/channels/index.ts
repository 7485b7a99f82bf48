import type { ChannelType } from '@pingmon/sdk/wire';
import { discord, email, slack, webhook } from './chat-webhooks.js';
import type { ChannelKind } from './kind.js';
import { googlechat } from './googlechat.js';
import { matrix } from './matrix.js';
import { mattermost } from './mattermost.js';
import { msteams } from './msteams.js';
import { ntfy } from './ntfy.js';
import { pushover } from './pushover.js';
import { rocketchat } from './rocketchat.js';
import { telegram } from './telegram.js';
import { template } from './template.js';
import { alertmanager } from './alertmanager.js';
import { opsgenie } from './opsgenie.js';
import { pagerduty } from './pagerduty.js';

/** Every kind of channel, by type (DESIGN §16). */
const KINDS: ReadonlyMap<ChannelType, ChannelKind> = new Map(
  [
    slack,
    discord,
    webhook,
    email,
    template,
    alertmanager,
    pagerduty,
    opsgenie,
    msteams,
    googlechat,
    mattermost,
    rocketchat,
    telegram,
    ntfy,
    pushover,
    matrix,
  ].map((kind) => [kind.type, kind]),
);

export const CHANNEL_TYPES: readonly ChannelType[] = [...KINDS.keys()];

export function kindOf(type: ChannelType): ChannelKind {
  const kind = KINDS.get(type);
  if (!kind) throw new Error(`no channel kind "${type}"`);
  return kind;
}
