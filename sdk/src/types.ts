// Wire types of the pingmon HTTP API (/api/v1). What it answers and the ping bodies are generated from the
// server's joi schemas (wire-types.ts); the unions they name and the management requests are written here.
import type { EverySchedule } from './wire-types.js';

export * from './wire-types.js';

export type RunStatus = 'running' | 'success' | 'failed';
export type Plan = 'free' | 'pro' | 'business' | 'unlimited';
export type PingKind = 'start' | 'success' | 'fail';

/**
 * Derived from the monitor's runs, schedule and incident: `new` no run yet and nothing expected yet; `up`;
 * `late` a run opening is due and its startGrace is running; `down` an incident is open; `running` a run is
 * open; `paused` it raises nothing until resumed.
 */
export type MonitorStatus = 'new' | 'up' | 'late' | 'down' | 'running' | 'paused';

/** What opened the monitor's current incident. */
export type IncidentCause = 'fail' | 'missed' | 'timed_out';

/**
 * Which failed runs send a `fail` (or `timed_out`) alert: `every` one that counts towards the monitor being down
 * (SPEC §6's default), or only the `first`, the one that opens an incident; later ones are counted on the incident
 * and named in its reminders and its recovery.
 */
export type FailAlerts = 'every' | 'first';

/** A schedule as a create or an update gives it (docs/schedules.md); a monitor answers a MonitorSchedule. */
export type Schedule = CronSchedule | EverySchedule;

export interface CronSchedule {
  cron: string;
  /** IANA name, e.g. Europe/Berlin; UTC when left out. */
  timezone?: string;
}

/** The settings of a monitor that a create or an update may give; the defaults are docs/schedules.md's. */
export interface MonitorSettings {
  /** null: no schedule (the monitor knows only what its job tells it). */
  schedule: Schedule | null;
  /** Seconds a run opening may come after its expected time before it counts as missed. */
  startGrace: number;
  /** Seconds a run may stay running before it is finished as failed (timed out); null: no limit. */
  maxRuntime: number | null;
  /** Consecutive failed, missed or timed-out runs before the monitor is down. */
  failureThreshold: number;
  /** Consecutive successes that close an incident. */
  recoveryThreshold: number;
  /** While down, a reminder every so many seconds; null: none. */
  renotifyAfter: number | null;
  /** `every` failed run alerts (default), or only the `first` of an incident. */
  failAlerts: FailAlerts;
  /** A paused monitor raises no alert (docs/schedules.md says what its pings do). */
  paused: boolean;
}

export interface UpdateMonitorRequest extends Partial<MonitorSettings> {
  /** ISO 8601: snooze until then (in the future, within a year); null: end the snooze. */
  snoozedUntil?: string | null;
  name?: string;
  /** A new slug (SLUG_PATTERN): the old one is then no longer accepted. */
  slug?: string;
}

export interface CreateMaintenanceWindowRequest {
  cron: string;
  /** IANA name; UTC when left out. */
  timezone?: string;
  /** Seconds, 60 to 2,678,400 (31 days). */
  duration: number;
  /** Left out or null: every monitor of the account. */
  monitorIds?: string[] | null;
}

export interface CreateApiKeyRequest {
  name: string;
}

export interface ListRunsQuery {
  status?: RunStatus;
  limit?: number;
  cursor?: string;
}

export interface PageQuery {
  limit?: number;
  cursor?: string;
}

export interface LoginRequest {
  email: string;
  password: string;
}

export interface CreateMonitorRequest extends Partial<MonitorSettings> {
  name: string;
  /** Made from the name when left out (numbered when the account has it already). */
  slug?: string;
}

// Alerts (DESIGN §8): rules, channels, alerts and their deliveries.

export type RuleOp = 'lt' | 'lte' | 'gt' | 'gte' | 'eq' | 'neq';

export interface CreateRuleRequest {
  metric: string;
  op: RuleOp;
  value: number;
}

export type ChannelType = 'slack' | 'discord' | 'webhook' | 'email';

export interface CreateChannelRequest {
  name?: string;
  type: ChannelType;
  /** http(s) for Slack, Discord and webhooks; for e-mail, its recipients: `mailto:ops@example.com,b@example.com`. */
  url: string;
  /** Webhook channels only: signs each payload (X-Pingmon-Signature). */
  secret?: string;
  monitorIds?: string[] | null;
  enabled?: boolean;
}

/** Every field optional, at least one given. `secret: null` removes the secret. The type cannot change. */
export interface UpdateChannelRequest {
  name?: string;
  url?: string;
  secret?: string | null;
  monitorIds?: string[] | null;
  enabled?: boolean;
}

/**
 * `fail` and `silent_failure` are about one run; `timed_out` a run finished as failed for running past maxRuntime;
 * `missed` no run opened by its expected time + startGrace; `still_down` a reminder (renotifyAfter);
 * `recovered` an incident closed.
 */
export type AlertEvent = 'fail' | 'silent_failure' | 'timed_out' | 'missed' | 'still_down' | 'recovered';
export type DeliveryState = 'pending' | 'delivered' | 'failed';

export interface ListAlertsQuery {
  monitorId?: string;
  limit?: number;
  cursor?: string;
}
