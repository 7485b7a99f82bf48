import type { ServerRoute } from '@hapi/hapi';
import type { ChannelKindList } from '@pingmon/sdk/wire';
import { CHANNEL_TYPES, kindOf } from '../alerts/channels/index.js';
import { describeKind } from '../alerts/channels/describe.js';
import { ChannelKindList as ChannelKindListSchema, replies } from './responses.js';

/** What each kind of channel needs (its URL, secret and options): the dashboard's channel form is made from it. */
export function channelKindRoutes(): ServerRoute[] {
  // The kinds never change while the server runs.
  const list: ChannelKindList = { kinds: CHANNEL_TYPES.map((type) => describeKind(kindOf(type))) };
  return [
    {
      method: 'GET',
      path: '/channel-kinds',
      options: {
        id: 'listChannelKinds',
        plugins: { access: 'read' },
        description: 'What each kind of channel needs: its URL, secret and options',
        tags: ['channels'],
        response: replies({ 200: ChannelKindListSchema }),
      },
      handler: () => list,
    },
  ];
}
