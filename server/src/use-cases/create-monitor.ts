import { numberedSlug, slugify } from '@pingmon/sdk/wire';
import type { Plan } from '@pingmon/sdk/wire';
import { lockAccountPlan } from '../db/accounts.js';
import type { Database } from '../db/index.js';
import type { MonitorRecord, MonitorSettings } from '../db/monitors.js';
import { countMonitors, findMonitorId, findSlugsLike, insertMonitor } from '../db/monitors.js';
import type { TransactionSql } from '../db/sql.js';
import { newScheduling } from '../domain/monitor-settings.js';
import { newId } from '../ids.js';

export interface NewMonitor {
  name: string;
  /** Made from the name when not given (numbered when the account has it already). */
  slug?: string;
  settings: MonitorSettings;
}

export type CreateOutcome =
  | { kind: 'created'; monitor: MonitorRecord }
  | { kind: 'slug_taken'; slug: string }
  /** The account has as many monitors as its plan allows (`limit`). */
  | { kind: 'limit_reached'; plan: Plan; limit: number };

/**
 * Creates a monitor, within the most monitors the account's plan allows (`limits`, 0: no limit). A slug given and
 * taken is refused; one made from the name takes the next free number. Creations in one account take turns.
 */
export function createMonitor(
  db: Database,
  accountId: string,
  input: NewMonitor,
  now: number,
  limits: Readonly<Record<Plan, number>>,
): Promise<CreateOutcome> {
  return db.transaction(async (sql) => {
    const plan = await lockAccountPlan(sql, accountId);
    if (input.slug !== undefined && (await findMonitorId(sql, accountId, input.slug))) {
      return { kind: 'slug_taken', slug: input.slug };
    }
    const limit = plan === undefined ? 0 : limits[plan];
    if (limit > 0 && (await countMonitors(sql, accountId)) >= limit)
      return { kind: 'limit_reached', plan: plan!, limit };
    const made = { monitorId: newId('mon', now), accountId, name: input.name, createdAt: now };
    const monitor = { ...made, ...newScheduling(input.settings, now), snoozedUntil: null, hold: null };
    if (input.slug !== undefined) {
      const created = await insertMonitor(sql, { ...monitor, slug: input.slug });
      return created ? { kind: 'created', monitor: created } : { kind: 'slug_taken', slug: input.slug };
    }
    return { kind: 'created', monitor: await insertWithFreeSlug(sql, accountId, monitor, slugify(input.name)) };
  });
}

/**
 * Inserts `monitor` with `base`, or base-2, base-3…, the first its account does not have. A numbered slug cut to fit
 * may be taken without being base-n: each slug refused is remembered, and the next one tried.
 */
async function insertWithFreeSlug(
  sql: TransactionSql,
  accountId: string,
  monitor: Omit<MonitorRecord, 'slug' | 'lastOpenedAt'>,
  base: string,
): Promise<MonitorRecord> {
  const taken = await findSlugsLike(sql, accountId, base);
  for (;;) {
    const slug = taken.has(base) ? nextFree(base, taken) : base;
    const created = await insertMonitor(sql, { ...monitor, slug });
    if (created) return created;
    taken.add(slug);
  }
}

function nextFree(base: string, taken: ReadonlySet<string>): string {
  let n = 2;
  while (taken.has(numberedSlug(base, n))) n++;
  return numberedSlug(base, n);
}
