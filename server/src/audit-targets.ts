import { formatRule } from '@pingmon/sdk/wire';
import { kindOf } from './alerts/channels/index.js';
import type { AuditChange } from './db/audit-entries.js';
import { findApiKey } from './db/api-keys.js';
import { findChannel } from './db/channels.js';
import { listPendingInvites } from './db/invites.js';
import { listMaintenanceWindows } from './db/maintenance-windows.js';
import type { MonitorRecord } from './db/monitors.js';
import { findMonitor } from './db/monitors.js';
import { listRules } from './db/rules.js';
import type { Sql } from './db/sql.js';
import { findUser } from './db/users.js';
import { maskUrl } from './domain/channels.js';
import type { ChannelRecord } from './domain/channels.js';
import { iso } from './presenter.js';

/** A target as an audit entry sees it: its name, its monitor, and the fields an edit may change. */
export interface Seen {
  name: string | null;
  monitorId: string | null;
  /** The fields as stored, compared to tell what changed. */
  fields: Record<string, unknown>;
  /** The same fields as an entry shows them: secrets masked. */
  shown: Record<string, unknown>;
}

/** What an entry may be about; its id is the path parameter, or the created thing's field, `idName`. */
export interface TargetKind {
  idName: string;
  /** The target of the account, when it exists; `params`: the request's path parameters (a rule's monitor). */
  find(sql: Sql, accountId: string, id: string, params: Record<string, string>): Promise<Seen | undefined>;
}

export const MASKED = '[masked]';

export function seenMonitor(monitor: MonitorRecord): Seen {
  const { name, slug, schedule, startGrace, maxRuntime, failureThreshold, recoveryThreshold } = monitor;
  const fields = {
    name,
    slug,
    schedule,
    startGrace,
    maxRuntime,
    failureThreshold,
    recoveryThreshold,
    renotifyAfter: monitor.renotifyAfter,
    failAlerts: monitor.failAlerts,
    paused: monitor.paused,
    snoozedUntil: monitor.snoozedUntil === null ? null : iso(monitor.snoozedUntil),
  };
  return { name, monitorId: monitor.monitorId, fields, shown: fields };
}

function seenChannel(channel: ChannelRecord): Seen {
  const { name, type, url, secret, options, repeatEvery, escalateAfter, monitorIds, enabled } = channel;
  const fields = { name, type, url, secret, options, repeatEvery, escalateAfter, monitorIds, enabled };
  const shown = {
    ...fields,
    url: maskUrl(url),
    secret: secret === null ? null : MASKED,
    options: kindOf(type).shownOptions?.(options) ?? options,
  };
  return { name, monitorId: null, fields, shown };
}

function named(name: string | null, monitorId: string | null = null): Seen {
  return { name, monitorId, fields: {}, shown: {} };
}

export type TargetType = 'monitor' | 'rule' | 'channel' | 'api_key' | 'maintenance_window' | 'user' | 'invite';

export const TARGETS: Record<TargetType, TargetKind> = {
  monitor: {
    idName: 'monitorId',
    find: async (sql, accountId, id) => {
      const monitor = await findMonitor(sql, accountId, id);
      return monitor && seenMonitor(monitor);
    },
  },
  rule: {
    idName: 'ruleId',
    find: async (sql, accountId, id, params) => {
      const rule = (await listRules(sql, accountId, params.monitorId ?? '')).find((r) => r.ruleId === id);
      return rule && named(formatRule(rule), rule.monitorId);
    },
  },
  channel: {
    idName: 'channelId',
    find: async (sql, accountId, id) => {
      const channel = await findChannel(sql, accountId, id);
      return channel && seenChannel(channel);
    },
  },
  api_key: {
    idName: 'keyId',
    find: async (sql, accountId, id) => {
      const key = await findApiKey(sql, accountId, id);
      return key && named(`${key.name} (${key.prefix}…)`);
    },
  },
  maintenance_window: {
    idName: 'windowId',
    find: async (sql, accountId, id) => {
      const window = (await listMaintenanceWindows(sql, accountId)).find((w) => w.windowId === id);
      return window && named(`${window.cron} ${window.timezone}, ${window.durationMs / 1000} s`);
    },
  },
  user: {
    idName: 'userId',
    find: async (sql, accountId, id) => {
      const user = await findUser(sql, accountId, id);
      return user && { name: user.email, monitorId: null, fields: { role: user.role }, shown: { role: user.role } };
    },
  },
  invite: {
    idName: 'inviteId',
    find: async (sql, accountId, id) => {
      // Expired ones too (now = 0): the entry names the invite it is about whatever the clock says.
      const invite = (await listPendingInvites(sql, accountId, 0)).find((i) => i.inviteId === id);
      return invite && named(`${invite.email} (${invite.role})`);
    },
  },
};

/** The fields that differ between two sightings of a target, as shown (secrets masked). */
export function changesOf(before: Seen, after: Seen): AuditChange[] {
  return Object.keys(after.fields)
    .filter((field) => JSON.stringify(before.fields[field]) !== JSON.stringify(after.fields[field]))
    .map((field) => ({ field, from: before.shown[field] ?? null, to: after.shown[field] ?? null }));
}
