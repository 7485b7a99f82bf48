import type { MonitorStatus } from '@pingmon/sdk/wire';
import { clean, formatDuration } from '@pingmon/sdk/wire';
import type { Schedule } from '@pingmon/sdk/wire';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * "2026-11-22 04:37:35" in the browser's timezone; to the millisecond when `exact` (the run detail, whose
 * duration a short run shows in milliseconds too).
 */
export function when(iso: string | null, exact = false): string {
  if (!iso) return '—';
  const d = new Date(iso);
  const text =
    `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ` +
    `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  return exact ? `${text}.${pad(d.getMilliseconds(), 3)}` : text;
}

/**
 * A name someone typed (a monitor's, a channel's, an API key's; a rule's metric) as one line of plain text, cleaned
 * as logs are: in the page and in a confirmation dialog, no escape sequence, control character or bidi override.
 */
export function nameText(name: string): string {
  return clean(name).replace(/\s+/g, ' ');
}

/** "cron 0 3 * * * (Europe/Berlin)", "every 1h", "no schedule" */
export function scheduleText(schedule: Schedule | null): string {
  if (schedule === null) return 'no schedule';
  if ('every' in schedule) return `every ${formatDuration(schedule.every)}`;
  return `cron ${schedule.cron} (${schedule.timezone ?? 'UTC'})`;
}

/** What each monitor status means, for the badge's tooltip. */
export const STATUS_HELP: Readonly<Record<MonitorStatus, string>> = {
  new: 'No run yet, and none expected yet',
  up: 'Its last run succeeded, or nothing is due',
  late: 'A run is due and its start grace is running',
  down: 'An incident is open: failed, missed or timed-out runs',
  running: 'A run has started and not ended yet',
  paused: 'Paused: raises nothing',
};
