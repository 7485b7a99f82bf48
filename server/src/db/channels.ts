import type { ChannelType } from '@pingmon/sdk/wire';
import type { ChannelRecord, ChannelTests } from '../domain/channels.js';
import { ms } from './index.js';
import type { Sql, TransactionSql } from './sql.js';
import { marks } from './sql.js';

interface ChannelRow {
  id: string;
  account_id: string;
  name: string;
  type: ChannelType;
  url: string;
  secret: string | null;
  options: string;
  repeat_every: number | null;
  escalate_after: number | null;
  restricted: boolean | number;
  enabled: boolean | number;
  created_at: number | string;
}

const COLUMNS =
  'id, account_id, name, type, url, secret, options, repeat_every, escalate_after, restricted, enabled, created_at';

function toRecord(row: ChannelRow, monitors: Map<string, string[]>): ChannelRecord {
  return {
    channelId: row.id,
    accountId: row.account_id,
    name: row.name,
    type: row.type,
    url: row.url,
    secret: row.secret,
    options: JSON.parse(row.options) as Record<string, unknown>,
    repeatEvery: row.repeat_every,
    escalateAfter: row.escalate_after,
    monitorIds: row.restricted ? (monitors.get(row.id) ?? []) : null,
    enabled: Boolean(row.enabled),
    createdAt: ms(row.created_at),
  };
}

async function withMonitors(sql: Sql, rows: ChannelRow[]): Promise<ChannelRecord[]> {
  const restricted = rows.filter((r) => r.restricted).map((r) => r.id);
  const monitors = new Map<string, string[]>();
  if (restricted.length > 0) {
    const links = await sql.rows<{ channel_id: string; monitor_id: string }>(
      `select channel_id, monitor_id from channel_monitors ` +
        `where channel_id in (${marks(restricted)}) order by monitor_id`,
      restricted,
    );
    for (const link of links)
      monitors.set(link.channel_id, [...(monitors.get(link.channel_id) ?? []), link.monitor_id]);
  }
  return rows.map((row) => toRecord(row, monitors));
}

/** Every channel of the account, newest first. */
export async function listChannels(sql: Sql, accountId: string): Promise<ChannelRecord[]> {
  const rows = await sql.rows<ChannelRow>(
    `select ${COLUMNS} from channels where account_id = ? order by created_at desc, id desc`,
    [accountId],
  );
  return withMonitors(sql, rows);
}

export async function findChannel(sql: Sql, accountId: string, channelId: string): Promise<ChannelRecord | undefined> {
  const rows = await sql.rows<ChannelRow>(`select ${COLUMNS} from channels where id = ? and account_id = ?`, [
    channelId,
    accountId,
  ]);
  return (await withMonitors(sql, rows))[0];
}

/** Monitor ids given for a restriction that are not the account's. */
export class UnknownMonitorsError extends Error {
  constructor(readonly monitorIds: string[]) {
    super(`unknown monitors: ${monitorIds.join(', ')}`);
  }
}

/**
 * Restricts a channel to `monitorIds` (or lifts the restriction with null). Links are made only to the
 * account's own monitors, in the caller's transaction; any other id throws UnknownMonitorsError, which
 * rolls the transaction back.
 */
async function restrict(
  sql: TransactionSql,
  channel: { channelId: string; accountId: string },
  monitorIds: string[] | null,
): Promise<void> {
  await sql.changes('delete from channel_monitors where channel_id = ?', [channel.channelId]);
  await sql.changes('update channels set restricted = ? where id = ?', [monitorIds !== null, channel.channelId]);
  if (monitorIds === null || monitorIds.length === 0) return;
  const owned = await sql.rows<{ id: string }>(
    `select id from monitors where account_id = ? and id in (${marks(monitorIds)})`,
    [channel.accountId, ...monitorIds],
  );
  const known = new Set(owned.map((m) => m.id));
  const unknown = monitorIds.filter((id) => !known.has(id));
  if (unknown.length > 0) throw new UnknownMonitorsError(unknown);
  for (const monitorId of monitorIds) {
    await sql.changes('insert into channel_monitors (channel_id, monitor_id) values (?, ?)', [
      channel.channelId,
      monitorId,
    ]);
  }
}

/** Inserts a channel with its monitor links; UnknownMonitorsError rolls the caller's transaction back. */
export async function insertChannel(sql: TransactionSql, channel: ChannelRecord): Promise<void> {
  await sql.changes(`insert into channels (${COLUMNS}) values (${marks(COLUMNS.split(', '))})`, [
    channel.channelId,
    channel.accountId,
    channel.name,
    channel.type,
    channel.url,
    channel.secret,
    JSON.stringify(channel.options),
    channel.repeatEvery,
    channel.escalateAfter,
    false,
    channel.enabled,
    channel.createdAt,
  ]);
  await restrict(sql, channel, channel.monitorIds);
}

export interface ChannelChanges {
  name?: string;
  url?: string;
  secret?: string | null;
  options?: Record<string, unknown>;
  repeatEvery?: number | null;
  escalateAfter?: number | null;
  monitorIds?: string[] | null;
  enabled?: boolean;
}

/** Changeable fields and their columns. */
const CHANGEABLE = {
  name: 'name',
  url: 'url',
  secret: 'secret',
  options: 'options',
  repeatEvery: 'repeat_every',
  escalateAfter: 'escalate_after',
  enabled: 'enabled',
} as const;

/** Applies the given changes to the account's channel; false when it has no such channel. */
export async function updateChannel(
  sql: TransactionSql,
  accountId: string,
  channelId: string,
  changes: ChannelChanges,
): Promise<boolean> {
  const [found] = await sql.rows('select 1 as found from channels where id = ? and account_id = ?', [
    channelId,
    accountId,
  ]);
  if (!found) return false;
  for (const [field, column] of Object.entries(CHANGEABLE)) {
    const value = changes[field as keyof typeof CHANGEABLE];
    const stored = typeof value === 'object' && value !== null ? JSON.stringify(value) : value;
    // Column names come from the fixed list above, never from the request.
    if (stored !== undefined) await sql.changes(`update channels set ${column} = ? where id = ?`, [stored, channelId]);
  }
  if (changes.monitorIds !== undefined) await restrict(sql, { channelId, accountId }, changes.monitorIds);
  return true;
}

/** Deletes the channel with its pending and past deliveries; false when the account has no such channel. */
export async function deleteChannel(sql: Sql, accountId: string, channelId: string): Promise<boolean> {
  return (await sql.changes('delete from channels where id = ? and account_id = ?', [channelId, accountId])) === 1;
}

// A window that has ended starts again with this test; SET reads the row as it was, in both dialects.
const COUNT_TEST = `update channels set
    tests_in_window = case when test_window_started_at is null or test_window_started_at <= ? then 1
      else tests_in_window + 1 end,
    test_window_started_at = case when test_window_started_at is null or test_window_started_at <= ? then ?
      else test_window_started_at end
  where id = ? and account_id = ?
  returning tests_in_window, test_window_started_at`;

/**
 * Counts one test of the account's channel and answers the count in the current window, in one statement:
 * concurrent tests each get their own number, so a burst cannot slip past the limit. Undefined when the
 * account has no such channel.
 */
export async function countChannelTest(
  sql: Sql,
  accountId: string,
  channelId: string,
  now: number,
  windowMs: number,
): Promise<ChannelTests | undefined> {
  const ended = now - windowMs;
  const [row] = await sql.rows<{ tests_in_window: number | string; test_window_started_at: number | string }>(
    COUNT_TEST,
    [ended, ended, now, channelId, accountId],
  );
  return row && { count: Number(row.tests_in_window), windowStartedAt: ms(row.test_window_started_at) };
}

/**
 * The channels with these ids, whatever their account: for the delivery worker. Their monitor lists only when
 * asked for (a grouped alert tells each channel of its own monitors); else a restricted channel's list is empty.
 */
export async function findChannelsById(
  sql: Sql,
  channelIds: readonly string[],
  options: { monitors?: boolean } = {},
): Promise<Map<string, ChannelRecord>> {
  const found = new Map<string, ChannelRecord>();
  if (channelIds.length === 0) return found;
  const rows = await sql.rows<ChannelRow>(
    `select ${COLUMNS} from channels where id in (${marks(channelIds)})`,
    channelIds,
  );
  const records = options.monitors ? await withMonitors(sql, rows) : rows.map((row) => toRecord(row, new Map()));
  for (const record of records) found.set(record.channelId, record);
  return found;
}
