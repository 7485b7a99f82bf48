import type { ChannelChanges } from '../db/channels.js';
import { insertChannel, updateChannel } from '../db/channels.js';
import type { Database } from '../db/index.js';
import type { ChannelRecord } from '../domain/channels.js';

// A channel and its links to the monitors it is restricted to are written together: an id that is not the
// account's monitor throws UnknownMonitorsError and leaves nothing behind.

export async function addChannel(db: Database, channel: ChannelRecord): Promise<void> {
  await db.transaction((sql) => insertChannel(sql, channel));
}

/** False when the account has no such channel. */
export async function changeChannel(
  db: Database,
  accountId: string,
  channelId: string,
  changes: ChannelChanges,
): Promise<boolean> {
  return db.transaction((sql) => updateChannel(sql, accountId, channelId, changes));
}
