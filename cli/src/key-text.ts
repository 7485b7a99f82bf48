import type { ApiKey } from '@pingmon/sdk';
import { plural } from './output.js';

/** What a key may do, in a few words: "ping-only", "read, 2 monitors". Written once for create and list. */
export function keyScopeText(key: Pick<ApiKey, 'scope' | 'provision' | 'monitorIds'>): string {
  const scope = key.scope === 'ping' ? (key.provision ? 'ping' : 'ping-only') : key.scope;
  return key.monitorIds === null ? scope : `${scope}, ${monitorsText(key.monitorIds)}`;
}

/** "every monitor", "1 monitor", "3 monitors". */
function monitorsText(monitorIds: readonly string[] | null): string {
  return monitorIds === null ? 'every monitor' : plural(monitorIds.length, 'monitor');
}
