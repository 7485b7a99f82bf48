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
  .messages({ '*': `slug must be ${SLUG_RULE}, such as "nightly-backup" (got {{#value}})` });

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
  timezone: Joi.string().max(64).messages({ '*': 'schedule.timezone must be an IANA name such as "Europe/Berlin"' }),
  every: seconds('schedule.every', 1, MAX_EVERY_SECONDS),
})
  .xor('cron', 'every')
  .without('every', 'timezone')
  .prefs({ stripUnknown: false })
  .allow(null)
  .meta({ type: 'Schedule' })
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
  startGrace: seconds('startGrace', 1, MAX_SECONDS),
  maxRuntime: seconds('maxRuntime', 1, MAX_SECONDS).allow(null),
  failureThreshold: threshold('failureThreshold'),
  recoveryThreshold: threshold('recoveryThreshold'),
  renotifyAfter: seconds('renotifyAfter', 60, MAX_SECONDS).allow(null),
  failAlerts: Joi.string()
    .valid(...FAIL_ALERTS)
    .messages({
      '*': 'failAlerts must be "every" (each failed run alerts) or "first" (only the one that opens an incident)',
    }),
  paused: Joi.boolean().messages({ '*': 'paused must be true or false' }),
};

const SNOOZE_FORM = 'snoozedUntil must be an ISO 8601 time such as "2027-03-27T14:00:00Z", or null to end the snooze';

/** Until when the monitor is snoozed (docs/schedules.md#snooze-and-maintenance-windows); null: not snoozed. */
const snoozedUntil = Joi.date().iso().allow(null).messages({ '*': SNOOZE_FORM });

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
