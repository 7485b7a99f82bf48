import { stringify } from 'yaml';
import { formatDuration, formatRule, MONITOR_DEFAULTS } from '@pingmon/sdk/wire';
import type { MonitorSettings } from '@pingmon/sdk/wire';
import type { Current } from './plan.js';

// `pingmon monitors export`: the account's monitors, rules and channel routing as a file that `pingmon apply`
// reads back unchanged. Settings at their default are left out (apply gives a missing setting its default).

export type ExportFormat = 'yaml' | 'json';

const DURATIONS = new Set<keyof MonitorSettings>(['startGrace', 'maxRuntime', 'renotifyAfter']);

/** The file's content as plain data, monitors by slug, channels by name. */
export function exportData(current: Current): Record<string, unknown> {
  const slugOf = new Map(current.monitors.map((m) => [m.monitorId, m.slug]));
  const monitors = [...current.monitors]
    .sort((a, b) => (a.slug < b.slug ? -1 : 1))
    .map((m) => {
      const entry: Record<string, unknown> = { slug: m.slug, name: m.name };
      const { schedule } = m.settings;
      if (schedule) entry.schedule = 'every' in schedule ? { every: formatDuration(schedule.every) } : schedule;
      for (const key of Object.keys(MONITOR_DEFAULTS) as Array<keyof MonitorSettings>) {
        const value = m.settings[key];
        if (key === 'schedule' || JSON.stringify(value) === JSON.stringify(MONITOR_DEFAULTS[key])) continue;
        entry[key] = DURATIONS.has(key) ? (value === null ? 'none' : formatDuration(value as number)) : value;
      }
      if (m.rules.length > 0) entry.rules = m.rules.map(formatRule);
      return entry;
    });
  const channels = current.channels.map((c) => ({
    name: c.name,
    type: c.type,
    monitors: c.monitorIds === null ? 'all' : c.monitorIds.map((id) => slugOf.get(id) ?? id).sort(),
    enabled: c.enabled,
  }));
  return { version: 1, monitors, channels };
}

/** The file as text: YAML with a header saying what it is, or JSON. */
export function exportText(current: Current, format: ExportFormat): string {
  const data = exportData(current);
  if (format === 'json') return `${JSON.stringify(data, null, 2)}\n`;
  const header =
    '# pingmon monitors, their rules and channel routing (pingmon monitors export).\n' +
    '# Apply with: pingmon apply -f FILE [--dry-run] [--prune] (docs/cli.md#monitors-as-code).\n' +
    '# Channel URLs and secrets are not in this file: channels are matched by name.\n';
  return header + stringify(data, { lineWidth: 0 });
}
