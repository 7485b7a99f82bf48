import { isSlug } from '@pingmon/sdk/wire';
import type { Plan } from '@pingmon/sdk/wire';
import type { ApiKeyGrant } from '../db/api-keys.js';
import type { Database } from '../db/index.js';
import type { MonitorRecord } from '../db/monitors.js';
import { findMonitor, findMonitorId } from '../db/monitors.js';
import type { PingSettings } from '../domain/monitor-settings.js';
import { changedSettings, DEFAULT_SETTINGS, nothingChanged } from '../domain/monitor-settings.js';
import { createMonitor } from './create-monitor.js';
import { updateMonitor } from './update-monitor.js';

export type ProvisionOutcome =
  /** The monitor as the ping's settings say, made or changed as needed (`change`: which): the ping goes to it. */
  | { kind: 'ready'; monitorId: string; change?: ProvisionChange }
  /** An id the account does not have: only a slug makes a monitor. */
  | { kind: 'not_found' }
  /** The key may not make or change monitors, and the settings would. */
  | { kind: 'refused' }
  | { kind: 'limit_reached'; plan: Plan; limit: number };

/** What a ping's settings did to its monitor, for the audit trail. */
export type ProvisionChange =
  { kind: 'created'; monitor: MonitorRecord } | { kind: 'updated'; before: MonitorRecord; after: MonitorRecord };

/**
 * Makes the monitor a ping names (`ref`: an id, or a slug routes/monitor-refs.ts found no monitor for) as its
 * settings say: an unknown slug is created with them, a known monitor updated where they differ (only the fields
 * given), nothing written when nothing differs. Pings arriving together for a new slug make one monitor: creations
 * take turns (createMonitor), and those that find it made update it as the first did, which changes nothing.
 */
export async function provisionMonitor(
  db: Database,
  grant: ApiKeyGrant,
  ref: string,
  given: PingSettings,
  now: number,
  limits: Readonly<Record<Plan, number>>,
): Promise<ProvisionOutcome> {
  if (!isSlug(ref)) return update(db, grant, ref, given, now);
  if (!grant.provision) return { kind: 'refused' };
  const settings = { ...DEFAULT_SETTINGS, ...given.settings };
  const created = await createMonitor(
    db,
    grant.accountId,
    { name: given.name ?? ref, slug: ref, settings },
    now,
    limits,
  );
  if (created.kind === 'created') {
    return {
      kind: 'ready',
      monitorId: created.monitor.monitorId,
      change: { kind: 'created', monitor: created.monitor },
    };
  }
  if (created.kind === 'limit_reached') return created;
  const monitorId = await findMonitorId(db.sql, grant.accountId, ref);
  return monitorId === undefined ? { kind: 'not_found' } : update(db, grant, monitorId, given, now);
}

async function update(
  db: Database,
  grant: ApiKeyGrant,
  monitorId: string,
  given: PingSettings,
  now: number,
): Promise<ProvisionOutcome> {
  const current = await findMonitor(db.sql, grant.accountId, monitorId);
  if (!current) return { kind: 'not_found' };
  const changes = changedSettings(current, given);
  if (nothingChanged(changes)) return { kind: 'ready', monitorId };
  if (!grant.provision) return { kind: 'refused' };
  const updated = await updateMonitor(db, grant.accountId, monitorId, changes, now);
  if (updated.kind !== 'updated') return { kind: 'not_found' };
  return { kind: 'ready', monitorId, change: { kind: 'updated', before: current, after: updated.monitor } };
}
