import type { PingSettings } from '@pingmon/sdk';
import { UsageError, settingSeconds, settingsOf } from '../schedule-settings.js';
import type { SettingsFlags } from '../schedule-settings.js';
import type { ReadFlags } from './flags.js';

/**
 * The monitor's settings the flags give (--cron, --every, --tz, --grace, --max-runtime, --failure-threshold,
 * --recovery-threshold), read as `monitors create` reads them, to send with the start; undefined when none is
 * given. Only what the server cannot judge is checked here (a duration or a number that cannot be read, --tz
 * without --cron): that flag is left out with a warning and the job runs, as for every flag about reporting.
 */
export function monitorSettings(flags: ReadFlags, warnings: string[]): PingSettings | undefined {
  const { values } = flags;
  let given: SettingsFlags = { cron: values.cron, tz: values.tz };
  const ignore = (message: string) => warnings.push(`${message}: ignored`);
  for (const name of ['every', 'grace', 'max-runtime'] as const) {
    const value = values[name];
    if (value === undefined) continue;
    try {
      given[name] = settingSeconds(name, value);
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      ignore(err.message);
    }
  }
  for (const name of ['failure-threshold', 'recovery-threshold'] as const) {
    const value = values[name];
    if (value === undefined) continue;
    // The range is the server's to say; a word that is no whole number cannot be sent at all.
    if (/^\s*-?\d+\s*$/.test(value)) given[name] = Number(value);
    else ignore(`--${name} must be a whole number such as 2 (got "${value}")`);
  }
  if (given.every !== undefined && given.cron !== undefined) {
    warnings.push('--cron and --every are two kinds of schedule: both ignored (give one of them)');
    given = { ...given, cron: undefined, tz: undefined, every: undefined };
  }
  let settings: PingSettings;
  try {
    settings = settingsOf(given);
  } catch (err) {
    // --tz without --cron.
    if (!(err instanceof UsageError)) throw err;
    ignore(err.message);
    settings = settingsOf({ ...given, tz: undefined });
  }
  return Object.keys(settings).length === 0 ? undefined : settings;
}
