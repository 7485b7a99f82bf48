import type { FailAlerts, Monitor, Schedule, UpdateMonitorRequest } from '@pingmon/sdk/wire';
import { formatDuration, MONITOR_DEFAULTS, parseDuration } from '@pingmon/sdk/wire';
import type { ApiError } from '../api.js';

// The monitor form's values as typed (text), read into the API's body, and the API's refusals put back on the
// field they name. Durations are typed in the CLI's grammar (90s, 10m, 1h30m, 2d) or as seconds.

export type ScheduleKind = 'none' | 'cron' | 'every';

export interface MonitorDraft {
  name: string;
  slug: string;
  kind: ScheduleKind;
  cron: string;
  timezone: string;
  every: string;
  startGrace: string;
  maxRuntime: string;
  failureThreshold: string;
  recoveryThreshold: string;
  renotifyAfter: string;
  failAlerts: FailAlerts;
  paused: boolean;
}

/** The fields an error can name, the longer names first ("schedule.cron" before "schedule"). */
export type FieldName = (typeof FIELDS)[number];
export const FIELDS = [
  'schedule.cron',
  'schedule.timezone',
  'schedule.every',
  'schedule',
  'startGrace',
  'maxRuntime',
  'failureThreshold',
  'recoveryThreshold',
  'renotifyAfter',
  'failAlerts',
  'paused',
  'snoozedUntil',
  'name',
  'slug',
] as const;

export type FieldErrors = Partial<Record<FieldName, string>>;

const seconds = (value: number | null) => (value === null ? '' : formatDuration(value));

/** The browser's own timezone: a schedule typed in the browser is most often meant in it. */
export function browserTimezone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export function draftOf(m: Monitor | undefined): MonitorDraft {
  const s = m?.schedule ?? null;
  const settings = m ?? MONITOR_DEFAULTS;
  return {
    name: m?.name ?? '',
    slug: m?.slug ?? '',
    kind: s === null ? 'none' : 'cron' in s ? 'cron' : 'every',
    cron: s && 'cron' in s ? s.cron : '0 3 * * *',
    timezone: s && 'cron' in s ? s.timezone : browserTimezone(),
    every: s && 'every' in s ? formatDuration(s.every) : '1h',
    startGrace: formatDuration(settings.startGrace),
    maxRuntime: seconds(settings.maxRuntime),
    failureThreshold: String(settings.failureThreshold),
    recoveryThreshold: String(settings.recoveryThreshold),
    renotifyAfter: seconds(settings.renotifyAfter),
    failAlerts: settings.failAlerts,
    paused: settings.paused,
  };
}

const DURATION = 'a duration such as 90s, 10m, 1h30m or 2d, or a number of seconds';

/** A duration typed, in seconds: null when left empty and `optional`, a message when it cannot be read. */
export function readDuration(text: string, optional: boolean): number | null | { error: string } {
  if (text.trim() === '') return optional ? null : { error: `Type ${DURATION}.` };
  return parseDuration(text) ?? { error: `"${text.trim()}" is not ${DURATION}.` };
}

/** The schedule as typed, or undefined while an `every` cannot be read (its error is readDuration's). */
export function scheduleOf(d: Pick<MonitorDraft, 'kind' | 'cron' | 'timezone' | 'every'>): Schedule | null | undefined {
  if (d.kind === 'none') return null;
  if (d.kind === 'cron') return { cron: d.cron.trim(), timezone: d.timezone.trim() || 'UTC' };
  const every = readDuration(d.every, false);
  return typeof every === 'number' ? { every } : undefined;
}

/** The whole body the draft says, or the errors of the fields that cannot be read. */
export function bodyOf(
  d: MonitorDraft,
): { body: Required<Omit<UpdateMonitorRequest, 'snoozedUntil'>> } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const duration = (field: FieldName, text: string, optional: boolean) => {
    const value = readDuration(text, optional);
    if (value !== null && typeof value === 'object') errors[field] = value.error;
    return typeof value === 'number' ? value : null;
  };
  const schedule = scheduleOf(d);
  if (schedule === undefined) duration('schedule.every', d.every, false);
  const body = {
    name: d.name.trim(),
    slug: d.slug.trim(),
    schedule: schedule ?? null,
    startGrace: duration('startGrace', d.startGrace, false) ?? 0,
    maxRuntime: duration('maxRuntime', d.maxRuntime, true),
    failureThreshold: Number(d.failureThreshold),
    recoveryThreshold: Number(d.recoveryThreshold),
    renotifyAfter: duration('renotifyAfter', d.renotifyAfter, true),
    failAlerts: d.failAlerts,
    paused: d.paused,
  };
  return Object.keys(errors).length > 0 ? { errors } : { body };
}

/** Of `body`, what differs from the monitor as saved: an edit sends only what it changes. */
export function changesOf(body: object, saved: Monitor): UpdateMonitorRequest {
  const changes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (JSON.stringify(value) !== JSON.stringify(saved[key as keyof Monitor])) changes[key] = value;
  }
  return changes as UpdateMonitorRequest;
}

/** The field a refusal names (its message starts with it, as the API's messages do), if any. */
export function fieldOf(error: ApiError): FieldName | undefined {
  if (error.code === 'slug_taken') return 'slug';
  if (error.code === 'invalid_snooze') return 'snoozedUntil';
  const text = error.message.replace(/^"/, '');
  return FIELDS.find((field) => text.startsWith(field) && !/[\w.]/.test(text.charAt(field.length)));
}
