import cronstrue from 'cronstrue';
import { formatDuration } from '@pingmon/sdk/wire';
import type { StoredSchedule } from './schedule.js';

// A schedule in words, for a person checking what they typed (POST /schedules/preview). cronstrue's main entry is
// English alone: its other locales are a separate entry, never loaded here.

/** "At 03:00, every day"; "Every 1h30m after the last run started". */
export function describeSchedule(schedule: StoredSchedule): string {
  if ('every' in schedule) return `Every ${formatDuration(schedule.every)} after the last run started`;
  try {
    return cronstrue.toString(schedule.cron, { use24HourTimeFormat: true, verbose: true });
  } catch {
    // cron-parser reads a few forms cronstrue does not: the expression stays valid, said as it is.
    return `At the times of cron "${schedule.cron}"`;
  }
}
