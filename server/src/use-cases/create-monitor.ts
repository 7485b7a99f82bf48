import { numberedSlug, slugify } from '@pingmon/sdk/wire';
import type { Database } from '../db/index.js';
import type { MonitorRecord, MonitorSettings } from '../db/monitors.js';
import { findSlugsLike, insertMonitor } from '../db/monitors.js';
import { newScheduling } from '../domain/monitor-settings.js';
import { newId } from '../ids.js';

export interface NewMonitor {
  name: string;
  /** Made from the name when not given (numbered when the account has it already). */
  slug?: string;
  settings: MonitorSettings;
}

export type CreateOutcome = { kind: 'created'; monitor: MonitorRecord } | { kind: 'slug_taken'; slug: string };

/** Creates a monitor. A slug given and taken is refused; one made from the name takes the next free number. */
export async function createMonitor(
  db: Database,
  accountId: string,
  input: NewMonitor,
  now: number,
): Promise<CreateOutcome> {
  const made = { monitorId: newId('mon', now), accountId, name: input.name, createdAt: now };
  const monitor = { ...made, ...newScheduling(input.settings, now), snoozedUntil: null, hold: null };
  if (input.slug !== undefined) {
    const created = await insertMonitor(db.sql, { ...monitor, slug: input.slug });
    return created ? { kind: 'created', monitor: created } : { kind: 'slug_taken', slug: input.slug };
  }
  const base = slugify(input.name);
  // A numbered slug cut to fit may be taken without being base-n, and another create may take the free slug between
  // the read and the insert: each slug refused is remembered, and the next one tried.
  const taken = await findSlugsLike(db.sql, accountId, base);
  for (;;) {
    const slug = taken.has(base) ? nextFree(base, taken) : base;
    const created = await insertMonitor(db.sql, { ...monitor, slug });
    if (created) return { kind: 'created', monitor: created };
    taken.add(slug);
  }
}

function nextFree(base: string, taken: ReadonlySet<string>): string {
  let n = 2;
  while (taken.has(numberedSlug(base, n))) n++;
  return numberedSlug(base, n);
}
