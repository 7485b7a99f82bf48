// Wire types of the pingmon HTTP API (/api/v1). The server builds its responses from these.

export type RunStatus = 'running' | 'success' | 'failed';
export type Plan = 'free' | 'pro' | 'business' | 'unlimited';
export type PingKind = 'start' | 'success' | 'fail';

/** Numeric metadata of a run: a flat object of finite numbers. */
export type Meta = Record<string, number>;

/** The data of every ping response (SPEC §2). */
export interface PingAck {
  received: boolean;
  monitorId: string;
  runId: string;
  status: RunStatus;
  /** ISO 8601 UTC with milliseconds. */
  timestamp: string;
}

export interface PingResponse {
  success: true;
  data: PingAck;
}

/** What every ping may carry besides its kind. */
interface PingBodyBase {
  runId?: string;
  /**
   * The host the job runs on (the wrapper and the SDK send os.hostname()), at most 255 characters: shown on the
   * run, and used to group the missed alerts of monitors whose last runs came from one host (docs/alerts.md).
   */
  host?: string;
}

export interface StartPingBody extends PingBodyBase {
  /** The time the ping stands for (ISO 8601), when it is sent late: at most 7 days old; see docs/api.md. */
  timestamp?: string;
}

export interface SuccessPingBody extends PingBodyBase {
  /** The time the ping stands for (ISO 8601), when it is sent late: at most 7 days old; see docs/api.md. */
  timestamp?: string;
  meta?: Meta;
}

export interface FailPingBody extends PingBodyBase {
  /** The time the ping stands for (ISO 8601), when it is sent late: at most 7 days old; see docs/api.md. */
  timestamp?: string;
  errorMessage?: string;
  meta?: Meta;
  logOutput?: string;
}

/** Every error response, on every endpoint (DESIGN §4). */
export interface ErrorBody {
  success: false;
  statusCode: number;
  error: string;
  code: string;
  message: string;
  /** Seconds to wait, on 429 and 503 responses. */
  retryAfter?: number;
}

export interface LogResult {
  hasLog: boolean;
  content: string | null;
}

export interface Run {
  runId: string;
  monitorId: string;
  status: RunStatus;
  startedAt: string;
  finishedAt: string | null;
  durationMs: number | null;
  meta: Meta;
  errorMessage: string | null;
  hasLog: boolean;
  /** A success whose meta matched alert rules (DESIGN §8): the run stays `success`. */
  silentFailure: boolean;
  /** The rules its meta matched when it finished; empty unless `silentFailure`. */
  matchedRules: MatchedRule[];
  /** The host of the ping that opened the run (`host` in the ping body); null when it sent none. */
  host: string | null;
}

export interface LastRun {
  runId: string;
  status: RunStatus;
  startedAt: string;
  finishedAt: string | null;
  durationMs: number | null;
  /** A success whose meta matched alert rules, as in `Run`. */
  silentFailure: boolean;
}

/** What became of a monitor's latest RECENT_RUNS runs (by `startedAt`, as the runs list orders them). */
export interface RecentRuns {
  /** How many runs that is, `running` ones included: RECENT_RUNS, or fewer while the monitor has fewer. */
  runs: number;
  /** How many of them failed. */
  failed: number;
  /** How many of them succeeded but matched alert rules (`silentFailure`). */
  silentFailures: number;
}

/**
 * When a monitor's job is expected to open a run (docs/schedules.md): a 5-field cron expression read in an
 * IANA timezone (UTC when omitted), or every so many seconds after the previous opening.
 */
export type Schedule = CronSchedule | EverySchedule;

export interface CronSchedule {
  cron: string;
  /** IANA name, e.g. Europe/Berlin; answered as UTC when it was omitted. */
  timezone?: string;
}

export interface EverySchedule {
  /** Seconds between two run openings. */
  every: number;
}

/**
 * Derived from the monitor's runs, schedule and incident: `new` no run yet and nothing expected yet; `up`;
 * `late` a run opening is due and its startGrace is running; `down` an incident is open; `running` a run is
 * open; `paused` it raises nothing until resumed.
 */
export type MonitorStatus = 'new' | 'up' | 'late' | 'down' | 'running' | 'paused';

/** What opened the monitor's current incident. */
export type IncidentCause = 'fail' | 'missed' | 'timed_out';

export interface Incident {
  openedAt: string;
  cause: IncidentCause;
  /** Failed and timed-out runs since it opened, the run that opened it included. */
  failedRuns: number;
  /** Expected runs that did not start since it opened, the ones that opened it included. */
  missedRuns: number;
}

/**
 * Which failed runs send a `fail` (or `timed_out`) alert: `every` one that counts towards the monitor being down
 * (SPEC §6's default), or only the `first`, the one that opens an incident; later ones are counted on the incident
 * and named in its reminders and its recovery.
 */
export type FailAlerts = 'every' | 'first';

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

export interface Monitor extends MonitorSettings {
  monitorId: string;
  name: string;
  createdAt: string;
  /** The most recently started run, or null before the first ping. */
  lastRun: LastRun | null;
  recentRuns: RecentRuns;
  status: MonitorStatus;
  /** When the next run opening is expected (a scheduled monitor that is not paused), else null. */
  nextExpectedAt: string | null;
  /** The open incident (status `down`), else null. */
  incident: Incident | null;
  /** Only when asked for (GET /monitors?history=N): the latest N runs, newest first, for a chart. */
  history?: RunPoint[];
  /** Until when the monitor is snoozed: it raises no alert until then (docs/schedules.md); null when it is not. */
  snoozedUntil: string | null;
}

/** One run as a monitor's history draws it: how it ended and how long it took. */
export interface RunPoint {
  runId: string;
  status: RunStatus;
  startedAt: string;
  durationMs: number | null;
  silentFailure: boolean;
}

/** One expected run opening, in UTC and in the schedule's timezone. */
export interface ExpectedTime {
  /** ISO 8601 UTC. */
  at: string;
  /** The same instant as local time with its offset, e.g. 2027-03-28T03:00:00+02:00. */
  local: string;
  /** The zone's abbreviation at that instant, e.g. CEST (or an offset such as GMT+5 where it has none). */
  zone: string;
}

/** The answer of GET /monitors/:monitorId/expected: the next expected run openings. */
export interface ExpectedTimes {
  timezone: string;
  times: ExpectedTime[];
}

export interface MonitorList {
  monitors: Monitor[];
  nextCursor: string | null;
}

export interface RunList {
  runs: Run[];
  nextCursor: string | null;
}

export interface UpdateMonitorRequest extends Partial<MonitorSettings> {
  /** ISO 8601: snooze until then (in the future, within a year); null: end the snooze. */
  snoozedUntil?: string | null;
  name?: string;
}

/**
 * A maintenance window (docs/schedules.md#snooze-and-maintenance-windows): from each time `cron` names in
 * `timezone`, for `duration` seconds, the monitors it covers raise no alert.
 */
export interface MaintenanceWindow {
  windowId: string;
  cron: string;
  timezone: string;
  /** Seconds. */
  duration: number;
  /** The monitors it covers; null: every monitor of the account. */
  monitorIds: string[] | null;
  /** While it is on: when it ends; else null. */
  activeUntil: string | null;
  /** When it next begins. */
  nextStartAt: string;
  createdAt: string;
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

export interface MaintenanceWindowList {
  maintenanceWindows: MaintenanceWindow[];
  nextCursor: string | null;
}

export interface ApiKey {
  keyId: string;
  name: string;
  /** The first characters of the key, to tell keys apart. */
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
}

/** A key as answered once, at creation: the only time `key` is shown. */
export interface CreatedApiKey extends ApiKey {
  key: string;
}

export interface ApiKeyList {
  apiKeys: ApiKey[];
  nextCursor: string | null;
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

export interface User {
  userId: string;
  email: string;
  createdAt: string;
}

export interface Account {
  accountId: string;
  plan: Plan;
  createdAt: string;
}

export interface LoginRequest {
  email: string;
  password: string;
}

export interface LoginResponse {
  token: string;
  expiresAt: string;
  user: User;
  account: Account;
}

/** What signing in to the dashboard answers (POST /api/v1/auth/session): the token stays in its cookie. */
export type SessionResponse = Omit<LoginResponse, 'token'>;

export interface MeResponse {
  user: User;
  account: Account;
}

export interface CreateMonitorRequest extends Partial<MonitorSettings> {
  name: string;
}

// Alerts (DESIGN §8): rules, channels, alerts and their deliveries.

export type RuleOp = 'lt' | 'lte' | 'gt' | 'gte' | 'eq' | 'neq';

/** An alert rule of a monitor: matches a success ping whose `meta[metric] <op> value`. */
export interface Rule {
  ruleId: string;
  monitorId: string;
  metric: string;
  op: RuleOp;
  value: number;
  createdAt: string;
}

export interface CreateRuleRequest {
  metric: string;
  op: RuleOp;
  value: number;
}

export interface RuleList {
  rules: Rule[];
  nextCursor: string | null;
}

/** A rule as it matched a run, with the value the run reported. */
export interface MatchedRule {
  ruleId: string;
  metric: string;
  op: RuleOp;
  value: number;
  actual: number;
}

export type ChannelType = 'slack' | 'discord' | 'webhook' | 'email';

/**
 * A notification channel. `url` is masked (origin and "/…"), except an e-mail channel's `mailto:` URL, shown whole;
 * a secret is never shown.
 */
export interface Channel {
  channelId: string;
  name: string;
  type: ChannelType;
  url: string;
  hasSecret: boolean;
  /** The monitors whose alerts go to this channel; null for every monitor of the account. */
  monitorIds: string[] | null;
  enabled: boolean;
  createdAt: string;
}

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

export interface ChannelList {
  channels: Channel[];
  nextCursor: string | null;
}

/** The outcome of one attempt to a channel: an HTTP request, or an e-mail handed to the SMTP server. */
export interface DeliveryAttempt {
  /** 1 for the first attempt. */
  attempt: number;
  at: string;
  /** The receiver's HTTP status; null when no answer came (network error, timeout), and always for e-mail. */
  statusCode: number | null;
  /**
   * What went wrong: a network error, the start of the receiver's answer, or the SMTP server's reply ("SMTP 451 …");
   * null on success (an e-mail refused for some of its recipients only is delivered, and says which here).
   */
  error: string | null;
  durationMs: number;
}

/** The answer of POST /channels/:channelId/test. */
export interface ChannelTestResult {
  delivered: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/**
 * `fail` and `silent_failure` are about one run; `timed_out` a run finished as failed for running past maxRuntime;
 * `missed` no run opened by its expected time + startGrace; `still_down` a reminder (renotifyAfter);
 * `recovered` an incident closed.
 */
export type AlertEvent = 'fail' | 'silent_failure' | 'timed_out' | 'missed' | 'still_down' | 'recovered';
export type DeliveryState = 'pending' | 'delivered' | 'failed';

export interface AlertDelivery {
  channelId: string;
  channelName: string;
  channelType: ChannelType;
  state: DeliveryState;
  /** Attempts made (or started) so far. */
  attemptCount: number;
  /** When the next attempt is due; null unless pending. */
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  lastError: string | null;
  attempts: DeliveryAttempt[];
}

export interface Alert {
  alertId: string;
  event: AlertEvent;
  monitorId: string;
  monitorName: string;
  /** The run it is about; null for missed and still_down alerts (no run). */
  runId: string | null;
  /**
   * The run's status when the alert was raised (failed; success for a silent failure), or the monitor's for
   * missed, still_down (down) and recovered (up).
   */
  status: RunStatus | MonitorStatus;
  /** The expected run opening a missed alert is about, else null. */
  expectedAt: string | null;
  /** Missed alerts: when the monitor's last run started (null if it never ran), else null. */
  lastRunAt: string | null;
  /** Missed alerts: that run's status (null if it never ran or is no longer kept), else null. */
  lastRunStatus: RunStatus | null;
  errorMessage: string | null;
  /** The first 500 characters of the run's log (fail alerts of runs with a log), else null. */
  logSnippet: string | null;
  /** The log's last lines, at most 500 characters (fail alerts of runs with a log), else null. */
  logTail: string | null;
  meta: Meta;
  matchedRules: MatchedRule[];
  /** A missed alert: the host the monitor's last run came from, when it sent one; else null. */
  host: string | null;
  /**
   * A missed alert sent in one message with those of other monitors whose last runs came from the same host: the
   * id of the alert whose deliveries carried that message (this one's own id for that alert); else null.
   */
  groupId: string | null;
  createdAt: string;
  /** One per channel the alert was queued for when it was raised. */
  deliveries: AlertDelivery[];
}

export interface AlertList {
  alerts: Alert[];
  nextCursor: string | null;
}

export interface ListAlertsQuery {
  monitorId?: string;
  limit?: number;
  cursor?: string;
}
