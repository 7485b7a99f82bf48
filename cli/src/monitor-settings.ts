import { Flags } from '@oclif/core';
import { formatDuration } from '@pingmon/sdk';
import { FAIL_ALERTS } from '@pingmon/sdk/wire';
import type { ExpectedTime, Monitor, MonitorStatus, Schedule } from '@pingmon/sdk';
import { durationFlag } from './duration-flag.js';
import { plural, when } from './output.js';
import { SETTING_DESCRIPTIONS } from './schedule-settings.js';

// The schedule settings' flags of `pingmon monitors create|update` (docs/schedules.md; read by schedule-settings.ts),
// and how monitors' statuses and schedules are printed by the commands and `pingmon browse`.

/** The flags both commands take. */
export const settingsFlags = {
  cron: Flags.string({ description: SETTING_DESCRIPTIONS.cron, helpValue: 'EXPR', exclusive: ['every'] }),
  tz: Flags.string({ description: SETTING_DESCRIPTIONS.tz, helpValue: 'ZONE' }),
  every: durationFlag({ description: SETTING_DESCRIPTIONS.every, exclusive: ['cron', 'tz'] }),
  grace: durationFlag({ description: SETTING_DESCRIPTIONS.grace }),
  'max-runtime': durationFlag({ description: SETTING_DESCRIPTIONS['max-runtime'] }),
  'failure-threshold': Flags.integer({ description: SETTING_DESCRIPTIONS['failure-threshold'], min: 1, max: 100 }),
  'recovery-threshold': Flags.integer({ description: SETTING_DESCRIPTIONS['recovery-threshold'], min: 1, max: 100 }),
  renotify: durationFlag({ description: 'while down, a reminder every DURATION (default: none)' }),
  'fail-alerts': Flags.option({
    description:
      'which failed runs alert: every one (default), or only the first, that opens an incident (the rest are ' +
      'counted and named in reminders and in the recovery)',
    options: FAIL_ALERTS,
  })(),
};

/** A monitor's status as a symbol and a word, readable without colour. */
export const MONITOR_STATUS: Record<MonitorStatus, { symbol: string; word: string }> = {
  down: { symbol: '✗', word: 'down' },
  late: { symbol: '!', word: 'late' },
  running: { symbol: '●', word: 'running' },
  up: { symbol: '✓', word: 'up' },
  new: { symbol: '·', word: 'new' },
  paused: { symbol: '-', word: 'paused' },
};

export function monitorStatusText(status: MonitorStatus): string {
  const { symbol, word } = MONITOR_STATUS[status];
  return `${symbol} ${word}`;
}

/** "0 3 * * * (Europe/Berlin)", "every 1h", "none". */
export function scheduleText(schedule: Schedule | null): string {
  if (schedule === null) return 'none';
  if ('every' in schedule) return `every ${formatDuration(schedule.every)}`;
  return `${schedule.cron} (${schedule.timezone ?? 'UTC'})`;
}

const CAUSES = { fail: 'a run failed', missed: 'a run did not start', timed_out: 'a run timed out' } as const;

/** "✗ down since 2027-03-28 01:05:02 (a run failed; 3 failed runs so far)", "! late, snoozed until …", … */
export function statusLine(monitor: Monitor): string {
  const text = monitorStatusText(monitor.status);
  const { incident } = monitor;
  const snoozed = monitor.snoozedUntil === null ? '' : `, snoozed until ${when(monitor.snoozedUntil)} UTC`;
  if (monitor.status === 'down' && incident) {
    const counts = [
      ...(incident.failedRuns > 0 ? [plural(incident.failedRuns, 'failed run')] : []),
      ...(incident.missedRuns > 0 ? [plural(incident.missedRuns, 'missed run')] : []),
    ];
    // The run that opened it alone is what the cause already says.
    const more = incident.failedRuns + incident.missedRuns > 1 ? `; ${counts.join(', ')} so far` : '';
    return `${text} since ${when(incident.openedAt)} (${CAUSES[incident.cause]}${more})${snoozed}`;
  }
  return text + snoozed;
}

/** The settings in lines of "label  value", for `monitors show`. */
export function settingsLines(monitor: Monitor): Array<[string, string]> {
  const runtime = monitor.maxRuntime === null ? 'no limit' : formatDuration(monitor.maxRuntime);
  return [
    ['schedule', scheduleText(monitor.schedule)],
    ['grace', `${formatDuration(monitor.startGrace)} (a run may start this late)`],
    ['max runtime', runtime],
    [
      'thresholds',
      `down after ${plural(monitor.failureThreshold, 'failure')} in a row, ` +
        `up after ${monitor.recoveryThreshold} success${monitor.recoveryThreshold === 1 ? '' : 'es'}`,
    ],
    [
      'reminders',
      monitor.renotifyAfter === null ? 'none' : `every ${formatDuration(monitor.renotifyAfter)} while down`,
    ],
    [
      'fail alerts',
      monitor.failAlerts === 'first'
        ? 'first: only the failed run that opens an incident alerts'
        : 'every: each failed run alerts',
    ],
  ];
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** "Sun 2027-03-28 03:00 CEST (01:00 UTC)": the local time first, as the job's crontab reads it. */
export function expectedText(time: ExpectedTime, timezone: string): string {
  const day = WEEKDAYS[new Date(`${time.local.slice(0, 10)}T00:00:00Z`).getUTCDay()];
  const local = `${day} ${time.local.slice(0, 10)} ${time.local.slice(11, 16)}`;
  const utc = time.at.slice(11, 16);
  return timezone === 'UTC' ? `${local} UTC` : `${local} ${time.zone} (${utc} UTC)`;
}
