// Wire types of the pingmon HTTP API (/api/v1): what it answers and reads is generated from the server's joi
// schemas (wire-types.ts); the unions they name are written here.
import type { ListEventsQuery, Schedule } from './wire-types.js';

export * from './wire-types.js';

export type RunStatus = 'running' | 'success' | 'failed';
export type Plan = 'free' | 'pro' | 'business' | 'unlimited';
export type PingKind = 'start' | 'success' | 'fail';

/**
 * What a user may do in their account (docs/api.md#roles): `owner` everything, `admin` everything but touch owners,
 * `member` monitors, rules, channels and maintenance windows, `viewer` read only (logs included).
 */
export type Role = 'owner' | 'admin' | 'member' | 'viewer';

/** What an API key may do: `ping` sends pings, `read` reads the management API, `write` changes it too. */
export type KeyScope = 'ping' | 'read' | 'write';

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

/** A schedule by cron expression, as a create or an update gives it. */
export type CronSchedule = Extract<Schedule, { cron: string }>;

// Alerts (DESIGN §8): rules, channels, alerts and their deliveries.

export type RuleOp = 'lt' | 'lte' | 'gt' | 'gte' | 'eq' | 'neq';

export type ChannelType =
  | 'slack'
  | 'discord'
  | 'webhook'
  | 'email'
  | 'alertmanager'
  | 'pagerduty'
  | 'opsgenie'
  | 'msteams'
  | 'googlechat'
  | 'mattermost'
  | 'rocketchat'
  | 'telegram'
  | 'ntfy'
  | 'pushover'
  | 'matrix'
  | 'template';

/**
 * `fail` and `silent_failure` are about one run; `timed_out` a run finished as failed for running past maxRuntime;
 * `missed` no run opened by its expected time + startGrace; `still_down` a reminder (renotifyAfter);
 * `recovered` an incident closed.
 */
export type AlertEvent = 'fail' | 'silent_failure' | 'timed_out' | 'missed' | 'still_down' | 'recovered';
export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'skipped';

/**
 * What a monitor's timeline (GET /monitors/:monitorId/events) holds: its runs starting and finishing, expected runs
 * that did not start (`missed`), runs that ran past maxRuntime (`timed_out`), incidents opened and closed, each
 * alert with its deliveries, and the monitor being snoozed, paused and resumed.
 */
export type EventKind =
  | 'run_started'
  | 'run_succeeded'
  | 'run_failed'
  | 'missed'
  | 'timed_out'
  | 'incident_opened'
  | 'incident_closed'
  | 'alert'
  | 'snoozed'
  | 'paused'
  | 'resumed';

/** Why an incident closed: a success brought the monitor back up (`recovered`), or it was resumed from a pause. */
export type IncidentEnd = 'recovered' | 'resumed';

/** The query of a timeline (Client.listEvents): `kind` is one kind or several (sent comma-separated). */
export type EventsQuery = Omit<ListEventsQuery, 'kind'> & { kind?: EventKind | readonly EventKind[] };
