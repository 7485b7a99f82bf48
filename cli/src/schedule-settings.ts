import { notADuration, parseDuration } from '@pingmon/sdk';
import type { Monitor, MonitorSettings, Schedule } from '@pingmon/sdk';

// A monitor's settings as the CLI's flags give them (docs/schedules.md): read the same way by `monitors create|update`
// (through oclif) and by `pingmon run` (whose bundle loads no oclif). Printing them is monitor-settings.ts's.

/** What the settings flags say, shown by both `monitors create` and `pingmon run --help`. */
export const SETTING_DESCRIPTIONS = {
  cron: "5-field cron expression of the job, e.g. '0 3 * * *' (quote it)",
  tz: 'IANA timezone the cron expression is read in, e.g. Europe/Berlin (default UTC)',
  every: 'instead of --cron: a run every DURATION, counted from the last run opening',
  grace: 'how late a run may start before it counts as missed (default 5m)',
  'max-runtime': 'how long a run may stay running before it is timed out (default: no limit)',
  'failure-threshold': 'failed, missed or timed-out runs in a row before the monitor is down (default 1)',
  'recovery-threshold': 'successful runs in a row that close an incident (default 1)',
} as const;

/** The flags `pingmon run` shares with `monitors create` (DESIGN §16). */
export type ScheduleFlag = keyof typeof SETTING_DESCRIPTIONS;

export class UsageError extends Error {}

/**
 * A settings duration: whole seconds above 0, as the API counts them; anything else is a UsageError naming the
 * flag and the forms (docs/cli.md#durations).
 */
export function settingSeconds(flag: string, input: string): number {
  const seconds = parseDuration(input);
  if (seconds !== undefined && seconds > 0 && Number.isInteger(seconds)) return seconds;
  const what = seconds === undefined ? '' : seconds <= 0 ? 'longer than 0' : 'of whole seconds';
  throw new UsageError(notADuration(`--${flag}`, input, what));
}

export interface SettingsFlags {
  cron?: string;
  tz?: string;
  every?: number;
  grace?: number;
  'max-runtime'?: number;
  'failure-threshold'?: number;
  'recovery-threshold'?: number;
  renotify?: number;
  'fail-alerts'?: MonitorSettings['failAlerts'];
}

/**
 * The settings the flags give. `current` is the monitor being changed: --cron alone keeps its timezone, --tz alone
 * its cron expression.
 */
export function settingsOf(flags: SettingsFlags, current?: Monitor): Partial<MonitorSettings> {
  const settings: Partial<MonitorSettings> = {};
  if (flags.cron !== undefined || flags.tz !== undefined) settings.schedule = cronSchedule(flags, current);
  if (flags.every !== undefined) settings.schedule = { every: flags.every };
  if (flags.grace !== undefined) settings.startGrace = flags.grace;
  if (flags['max-runtime'] !== undefined) settings.maxRuntime = flags['max-runtime'];
  if (flags['failure-threshold'] !== undefined) settings.failureThreshold = flags['failure-threshold'];
  if (flags['recovery-threshold'] !== undefined) settings.recoveryThreshold = flags['recovery-threshold'];
  if (flags.renotify !== undefined) settings.renotifyAfter = flags.renotify;
  if (flags['fail-alerts'] !== undefined) settings.failAlerts = flags['fail-alerts'];
  return settings;
}

function cronSchedule(flags: SettingsFlags, current?: Monitor): Schedule {
  const before = current?.schedule && 'cron' in current.schedule ? current.schedule : undefined;
  const cron = flags.cron ?? before?.cron;
  if (cron === undefined)
    throw new UsageError("--tz goes with a cron schedule: give --cron too, e.g. --cron '0 3 * * *'");
  const timezone = flags.tz ?? before?.timezone;
  return timezone === undefined ? { cron } : { cron, timezone };
}
