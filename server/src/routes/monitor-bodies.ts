import Joi from 'joi';
import type { Schedule } from '@pingmon/sdk/wire';
import { FAIL_ALERTS, SLUG_PATTERN, SLUG_RULE } from '@pingmon/sdk/wire';
import type { MonitorSettings } from '../domain/monitor-settings.js';
import { checkSchedule, MAX_EVERY_SECONDS } from '../domain/schedule.js';

// A monitor's name, slug and settings as POST /monitors, PATCH /monitors/:monitorId and a ping's `monitor` give
// them: one schema, one wording of a refusal, one check of the schedule.

const name = Joi.string().trim().min(1).max(200);
const slug = Joi.string()
  .pattern(SLUG_PATTERN)
  .messages({ '*': `slug must be ${SLUG_RULE}, such as "nightly-backup" (got {{#value}})` })
  .description('Made from the name when left out (numbered when the account has it); a new one replaces the old');

const DAY = 86_400;
const MAX_SECONDS = 31 * DAY;

function seconds(field: string, least: number, most: number): Joi.NumberSchema {
  return Joi.number()
    .integer()
    .min(least)
    .max(most)
    .messages({ '*': `${field} must be a whole number of seconds from ${least} to ${most} (got {{#value}})` });
}

function threshold(field: string): Joi.NumberSchema {
  return Joi.number()
    .integer()
    .min(1)
    .max(100)
    .messages({ '*': `${field} must be a whole number from 1 to 100 (got {{#value}})` });
}

// Braces escaped: joi reads {…} in a message as a template.
const SCHEDULE_FORM =
  'schedule must be \\{"cron": "0 3 * * *", "timezone": "Europe/Berlin"}, \\{"every": 3600} or null';

// Unknown keys are refused here, not dropped: a misspelt "tz" would otherwise leave a schedule in UTC unseen.
const schedule = Joi.object({
  cron: Joi.string().max(200).messages({ '*': 'schedule.cron must be text such as "0 3 * * *"' }),
  timezone: Joi.string()
    .max(64)
    .messages({ '*': 'schedule.timezone must be an IANA name such as "Europe/Berlin"' })
    .description('IANA name, e.g. Europe/Berlin; UTC when left out'),
  every: seconds('schedule.every', 1, MAX_EVERY_SECONDS).description('Seconds between two run openings'),
})
  .id('Schedule')
  .description('A schedule as a create or an update gives it (docs/schedules.md); null: none')
  .xor('cron', 'every')
  .without('every', 'timezone')
  .prefs({ stripUnknown: false })
  .allow(null)
  .messages({
    'object.base': `${SCHEDULE_FORM}.`,
    'object.xor': `${SCHEDULE_FORM}: give cron or every, not both.`,
    'object.missing': `${SCHEDULE_FORM}: give cron or every.`,
    'object.without': 'schedule.timezone goes with cron only: an every schedule counts from the last run opening.',
    'object.unknown': `{{#label}} is not a schedule field; ${SCHEDULE_FORM}.`,
  });

/** The settings of docs/schedules.md, as a create or an update gives them. */
const SETTINGS = {
  schedule,
  startGrace: seconds('startGrace', 1, MAX_SECONDS).description(
    'Seconds a run opening may come after its expected time before it counts as missed',
  ),
  maxRuntime: seconds('maxRuntime', 1, MAX_SECONDS)
    .allow(null)
    .description('Seconds a run may stay running before it is finished as failed (timed out); null: no limit'),
  failureThreshold: threshold('failureThreshold').description(
    'Consecutive failed, missed or timed-out runs before the monitor is down',
  ),
  recoveryThreshold: threshold('recoveryThreshold').description('Consecutive successes that close an incident'),
  renotifyAfter: seconds('renotifyAfter', 60, MAX_SECONDS)
    .allow(null)
    .description('While down, a reminder every so many seconds; null: none'),
  failAlerts: Joi.string()
    .valid(...FAIL_ALERTS)
    .meta({ type: 'FailAlerts' })
    .messages({
      '*': 'failAlerts must be "every" (each failed run alerts) or "first" (only the one that opens an incident)',
    })
    .description('`every` failed run alerts (default), or only the `first` of an incident'),
  paused: Joi.boolean()
    .messages({ '*': 'paused must be true or false' })
    .description('A paused monitor raises no alert (docs/schedules.md says what its pings do)'),
};

/** What POST /schedules/preview reads (routes/previews.ts): a monitor's schedule and start grace, checked alike. */
export const SCHEDULE_FIELDS = { schedule: SETTINGS.schedule, startGrace: SETTINGS.startGrace };

const SNOOZE_FORM = 'snoozedUntil must be an ISO 8601 time such as "2027-03-27T14:00:00Z", or null to end the snooze';

/** Until when the monitor is snoozed (docs/schedules.md#snooze-and-maintenance-windows); null: not snoozed. */
const snoozedUntil = Joi.date()
  .iso()
  .allow(null)
  .messages({ '*': SNOOZE_FORM })
  .description('ISO 8601: snooze until then (in the future, within a year); null: end the snooze');

/** Every setting required: what a monitor has once created (the defaults of docs/schedules.md fill the gaps). */
export const SETTINGS_BODY = Joi.object(SETTINGS).prefs({ presence: 'required' });

export const CREATE_MONITOR_BODY = Joi.object({ name: name.required(), slug, ...SETTINGS }).options({
  stripUnknown: true,
});

// At least one known field: a body of nothing we know (a form-encoded JSON string, say) changes nothing silently
// otherwise.
export const UPDATE_MONITOR_BODY = Joi.object({ name, slug, ...SETTINGS, snoozedUntil })
  .min(1)
  .options({ stripUnknown: true });

/** A ping's `monitor` (docs/api.md#monitor-settings-in-a-ping): a create's fields, its slug the ping's path. */
export const PING_MONITOR_BODY = Joi.object({ name, ...SETTINGS })
  .options({ stripUnknown: true })
  .allow(null)
  .id('PingMonitorSettings')
  .description('Creates the monitor of an unknown slug, or updates the fields that differ (docs/api.md)');

export interface SettingsRefusal {
  code: 'invalid_schedule' | 'invalid_snooze' | 'invalid_request';
  message: string;
}

/**
 * How a body is refused: a failure of a schedule setting is `invalid_schedule`; of the snooze, `invalid_snooze`; of
 * anything else (the name, the slug), `invalid_request`. The message names the field.
 */
export function monitorRefusal(err: Joi.ValidationError): SettingsRefusal {
  const field = String(err.details[0]?.path[0] ?? '');
  if (field === 'snoozedUntil') return { code: 'invalid_snooze', message: `${SNOOZE_FORM}.` };
  const message = `${err.message}.`.replace(/\.\.$/, '.');
  return { code: field in SETTINGS ? 'invalid_schedule' : 'invalid_request', message };
}

export type GivenSettings = Partial<Omit<MonitorSettings, 'schedule'>> & { schedule?: Schedule | null };

/** The settings given (as joi passed them), their schedule checked by domain/schedule.ts (cron fields, timezone). */
export function settingsGiven(
  payload: GivenSettings,
): { ok: true; settings: Partial<MonitorSettings> } | { ok: false; refusal: SettingsRefusal } {
  const { schedule: given, ...rest } = payload;
  const settings: Partial<MonitorSettings> = {};
  for (const key of Object.keys(SETTINGS) as Array<keyof typeof SETTINGS>) {
    if (key !== 'schedule' && rest[key] !== undefined) Object.assign(settings, { [key]: rest[key] });
  }
  if (given === null) settings.schedule = null;
  else if (given !== undefined) {
    const result = checkSchedule(given);
    if ('error' in result) return { ok: false, refusal: { code: 'invalid_schedule', message: result.error } };
    settings.schedule = result.schedule;
  }
  return { ok: true, settings };
}
