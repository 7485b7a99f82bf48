// Written by server/scripts/wire-types.mjs from the joi schemas of the server: do not edit.

import type {
  AlertEvent,
  ChannelType,
  DeliveryState,
  FailAlerts,
  IncidentCause,
  IncidentEnd,
  KeyScope,
  MonitorStatus,
  Plan,
  Role,
  RuleOp,
  RunStatus,
} from './types.js';

export interface AcceptInviteRequest {
  token: string;
  password: string;
}

export interface Account {
  accountId: string;
  plan: Plan;
  /** ISO 8601 UTC with milliseconds */
  createdAt: string;
}

export interface Alert {
  alertId: string;
  event: AlertEvent;
  monitorId: string;
  monitorName: string;
  /** The run it is about; null for missed and still_down alerts */
  runId: string | null;
  /** The run's status when raised, or the monitor's for missed, still_down and recovered */
  status: 'running' | 'success' | 'failed' | 'down' | 'late' | 'up' | 'new' | 'paused';
  /** The expected run opening a missed alert is about */
  expectedAt: string | null;
  /** Missed alerts: when the monitor's last run started */
  lastRunAt: string | null;
  /** Missed alerts: that run's status */
  lastRunStatus: RunStatus | null;
  errorMessage: string | null;
  /** The first 500 characters of the run's log (fail alerts) */
  logSnippet: string | null;
  /** The log's last lines, at most 500 characters (fail alerts) */
  logTail: string | null;
  /** Fail alerts: how many failed runs in a row before it failed the same way (0: a new failure) */
  repeats: number | null;
  /** Numeric metadata: a flat object of finite numbers */
  meta: Meta;
  matchedRules: MatchedRule[];
  /** A missed alert: the host of the monitor's last run */
  host: string | null;
  /** Sent in one message with other monitors of its host: the alert whose deliveries carried it */
  groupId: string | null;
  /** ISO 8601 UTC with milliseconds */
  createdAt: string;
  /** One per channel it was queued for when raised */
  deliveries: AlertDelivery[];
}

export interface AlertDelivery {
  channelId: string;
  channelName: string;
  channelType: ChannelType;
  state: DeliveryState;
  /** Attempts made (or started) so far */
  attemptCount: number;
  /** When the next attempt is due; null unless pending */
  nextAttemptAt: string | null;
  /** ISO 8601 UTC with milliseconds */
  deliveredAt: string | null;
  lastError: string | null;
  attempts: DeliveryAttempt[];
}

export interface AlertList {
  alerts: Alert[];
  /** Pass as ?cursor= for the next page; null on the last page */
  nextCursor: string | null;
}

export interface AlertRaisedEvent {
  kind: 'alert';
  /** When it happened */
  at: string;
  alertId: string;
  event: AlertEvent;
  runId: string | null;
  errorMessage: string | null;
  /** Sent in one message with others (GET /alerts): the deliveries are those of the message */
  groupId: string | null;
  deliveries: AlertDelivery[];
}

export interface ApiKey {
  keyId: string;
  name: string;
  /** The first characters of the key, to tell keys apart */
  prefix: string;
  /** ping: pings only; read: reads the API; write: changes it too */
  scope: KeyScope;
  /** Whether its pings may create and update monitors (a ping's monitor settings) */
  provision: boolean;
  /** The monitors the key is limited to; null: every monitor of the account */
  monitorIds: string[] | null;
  /** ISO 8601 UTC with milliseconds */
  createdAt: string;
  /** When it was last used, to the minute; null: never */
  lastUsedAt: string | null;
  /** ISO 8601 UTC with milliseconds */
  revokedAt: string | null;
}

export interface ApiKeyList {
  apiKeys: ApiKey[];
  /** Pass as ?cursor= for the next page; null on the last page */
  nextCursor: string | null;
}

export interface AuditActor {
  /** A signed-in user, or an API key */
  type: 'user' | 'api_key';
  /** The user's id, or the API key's */
  id: string;
  /** The user's e-mail, or the API key's prefix */
  name: string;
}

export interface AuditChange {
  field: string;
  /** The value before; secrets shown as "[masked]" */
  from: unknown;
  /** The value after; secrets shown as "[masked]" */
  to: unknown;
}

export interface AuditEntry {
  entryId: string;
  /** ISO 8601 UTC with milliseconds */
  at: string;
  actor: AuditActor;
  /** The client address the change came from */
  address: string;
  /** What was done, e.g. monitor.paused (docs/api.md#audit-trail) */
  action: string;
  target: AuditTarget | null;
  /** The monitor the entry is about, if any */
  monitorId: string | null;
  /** The fields an edit changed; null for other actions */
  changes: AuditChange[] | null;
}

export interface AuditEntryList {
  entries: AuditEntry[];
  /** Pass as ?cursor= for the next page; null on the last page */
  nextCursor: string | null;
}

export interface AuditTarget {
  /** monitor, rule, channel, api_key, maintenance_window or user */
  type: string;
  id: string;
  /** Its name when the change was made */
  name: string | null;
}

export interface Channel {
  channelId: string;
  name: string;
  type: ChannelType;
  /** Masked to its origin and "/…"; an e-mail channel's mailto: URL is shown whole */
  url: string;
  hasSecret: boolean;
  /** The kind's own settings (docs/alerts.md); the secret is never among them */
  options: Record<string, unknown>;
  /** Seconds between repeats; null: the kind's own */
  repeatEvery: number | null;
  /** Seconds before an open incident reaches it */
  escalateAfter: number | null;
  /** null: every monitor of the account */
  monitorIds: string[] | null;
  enabled: boolean;
  /** ISO 8601 UTC with milliseconds */
  createdAt: string;
}

export interface ChannelKindInfo {
  type: ChannelType;
  /** Its name in forms and messages: "PagerDuty", "Microsoft Teams" */
  label: string;
  url: ChannelKindUrl;
  secret: ChannelKindSecret;
  options: ChannelKindOption[];
  /** Seconds between repeats of an open incident's alert by default */
  repeatEvery: number | null;
  /** Opens and closes an incident in the vendor's tool, not only messages */
  incidents: boolean;
}

export interface ChannelKindList {
  kinds: ChannelKindInfo[];
}

export interface ChannelKindOption {
  /** Its key in the channel's "options" */
  name: string;
  /** integer: a whole number; object: a JSON object */
  type: 'string' | 'number' | 'integer' | 'boolean' | 'object';
  required: boolean;
  /** The values it takes; null: any */
  values: Array<string | number | boolean> | null;
  /** What it is when left out, where the kind says */
  default?: string | number | boolean;
  /** The most characters a string takes; null: no limit of its own */
  maxLength: number | null;
  /** What to give and where to find it */
  describe: string | null;
  /** A value it takes */
  example?: unknown;
}

export interface ChannelKindSecret {
  need: 'required' | 'optional' | 'none';
  /** What the secret is; null when the kind takes none */
  describe: string | null;
}

export interface ChannelKindUrl {
  /** The vendor's API, used when the channel gives no URL */
  default: string | null;
  /** What URL to give and where to find it */
  describe: string;
}

export interface ChannelList {
  channels: Channel[];
  /** Pass as ?cursor= for the next page; null on the last page */
  nextCursor: string | null;
}

export interface ChannelPreview {
  /** Why the template cannot render, as creating the channel would refuse it; null: it renders */
  problem: string | null;
  /** One request per sample alert; empty when there is a problem */
  previews: TemplatePreview[];
}

/** A template channel's url and options, as POST /channels would take them; nothing is stored or sent */
export interface ChannelPreviewRequest {
  /** template: the one kind whose requests the user writes */
  type: ChannelType;
  /** Optional: checked as on creation when given */
  url?: string;
  /** The template's body, contentType, method and headers */
  options?: Record<string, unknown>;
}

export interface ChannelTestResult {
  delivered: boolean;
  /** The receiver's HTTP status; null without one (e-mail too) */
  statusCode: number | null;
  /** What went wrong (or the SMTP server's reply); null on success */
  error: string | null;
  durationMs: number;
}

export interface CliCode {
  /** For the CLI to trade, with its verifier, at POST /auth/cli/token */
  code: string;
  expiresInSeconds: number;
}

export interface CliTokenRequest {
  code: string;
  verifier: string;
  /** What signs in, shown with the session (e.g. "pingmon CLI on db-1") */
  device?: string;
}

export interface CreateApiKeyRequest {
  name?: string;
  /** ping (the default): pings only; read: reads the management API; write: changes it too */
  scope?: KeyScope;
  /** Ping keys only. false: a ping-only key, whose pings never create or change a monitor */
  provision?: boolean;
  /** The monitors (ids or slugs) the key is limited to; left out or null: every monitor */
  monitorIds?: string[] | null;
}

export interface CreateChannelRequest {
  name?: string;
  type: ChannelType;
  /** http(s) for most; e-mail: mailto:ops@example.com,b@example.com; left out: the vendor API (PagerDuty…) */
  url?: string;
  /** The kind's credential (a routing key, a bot token, a webhook's signing secret); never shown again */
  secret?: string;
  /** The kind's own settings (docs/alerts.md): a Telegram chatId, a Matrix roomId, a template's body */
  options?: Record<string, unknown>;
  /** Seconds between repeats of an open incident's alert; null: the kind's own (Alertmanager: 60), else none */
  repeatEvery?: number | null;
  /** Seconds an incident must stay open before this channel is told of it (escalation); null: at once */
  escalateAfter?: number | null;
  /** Left out or null: every monitor of the account */
  monitorIds?: string[] | null;
  enabled?: boolean;
}

export interface CreateCliCodeRequest {
  /** base64url(SHA-256(verifier)) of the CLI asking */
  challenge: string;
}

export interface CreateMaintenanceWindowRequest {
  cron: string;
  /** IANA name; UTC when left out */
  timezone?: string;
  /** Seconds, 60 to 2,678,400 (31 days) */
  duration: number;
  /** Left out or null: every monitor of the account */
  monitorIds?: string[] | null;
}

export interface CreateMonitorRequest {
  name: string;
  /** Made from the name when left out (numbered when the account has it); a new one replaces the old */
  slug?: string;
  /** A schedule as a create or an update gives it (docs/schedules.md); null: none */
  schedule?: Schedule | null;
  /** Seconds a run opening may come after its expected time before it counts as missed */
  startGrace?: number;
  /** Seconds a run may stay running before it is finished as failed (timed out); null: no limit */
  maxRuntime?: number | null;
  /** Consecutive failed, missed or timed-out runs before the monitor is down */
  failureThreshold?: number;
  /** Consecutive successes that close an incident */
  recoveryThreshold?: number;
  /** While down, a reminder every so many seconds; null: none */
  renotifyAfter?: number | null;
  /** `every` failed run alerts (default), or only the `first` of an incident */
  failAlerts?: FailAlerts;
  /** A paused monitor raises no alert (docs/schedules.md says what its pings do) */
  paused?: boolean;
}

export interface CreateRuleRequest {
  metric: string;
  op: RuleOp;
  value: number;
  baseline?: {
    runs: number;
    minRuns?: number;
  } | null;
  window?: {
    runs: number;
    atLeast: number;
  } | null;
}

export interface CreatedApiKey {
  keyId: string;
  name: string;
  /** The first characters of the key, to tell keys apart */
  prefix: string;
  /** ping: pings only; read: reads the API; write: changes it too */
  scope: KeyScope;
  /** Whether its pings may create and update monitors (a ping's monitor settings) */
  provision: boolean;
  /** The monitors the key is limited to; null: every monitor of the account */
  monitorIds: string[] | null;
  /** ISO 8601 UTC with milliseconds */
  createdAt: string;
  /** When it was last used, to the minute; null: never */
  lastUsedAt: string | null;
  /** ISO 8601 UTC with milliseconds */
  revokedAt: string | null;
  /** Shown this once only */
  key: string;
}

export interface CreatedInvite {
  inviteId: string;
  email: string;
  role: Role;
  /** The user who invited; null once that user is removed */
  invitedBy: string | null;
  /** ISO 8601 UTC with milliseconds */
  createdAt: string;
  /** ISO 8601 UTC with milliseconds */
  expiresAt: string;
  /** The one-time link to accept the invite: shown this once, and mailed when SMTP is set */
  url: string;
  /** Whether the link was mailed to the address (SMTP set, and the mail accepted) */
  emailed: boolean;
}

export interface DeliveryAttempt {
  attempt: number;
  /** ISO 8601 UTC with milliseconds */
  at: string;
  /** The receiver's HTTP status; null without one (e-mail too) */
  statusCode: number | null;
  /** What went wrong (or the SMTP server's reply); null on success */
  error: string | null;
  durationMs: number;
}

export interface EndedSessions {
  /** How many sessions ended */
  ended: number;
}

export interface ErrorBody {
  success: false;
  statusCode: number;
  error: string;
  /** Stable machine code, e.g. rate_limited (docs/api.md#error-codes) */
  code: string;
  message: string;
  /** Seconds to wait, on 429 and 503 responses */
  retryAfter?: number;
}

export interface EverySchedule {
  /** Seconds between two run openings */
  every: number;
}

export interface ExpectedTime {
  /** ISO 8601 UTC with milliseconds */
  at: string;
  /** The same instant as local time with its offset, e.g. 2027-03-28T03:00:00+02:00 */
  local: string;
  /** The zone's abbreviation at that instant, e.g. CEST, or an offset */
  zone: string;
}

export interface ExpectedTimes {
  timezone: string;
  times: ExpectedTime[];
}

export interface FailPingBody {
  /** Your own id for the run, e.g. a UUID */
  runId?: string | null;
  /** The time the ping stands for, when sent late (at most 7 days old) */
  timestamp?: string | null;
  /** The job's host (os.hostname()): shown on the run, groups one host's missed alerts */
  host?: string | null;
  /** Creates the monitor of an unknown slug, or updates the fields that differ (docs/api.md) */
  monitor?: PingMonitorSettings | null;
  /** Numeric metadata: a flat object of finite numbers */
  meta?: Record<string, number> | null;
  /** How many secrets the client replaced with [redacted] before sending; stored on the run */
  redactions?: number | null;
  /** Its first 500 characters are kept */
  errorMessage?: string | null;
  /** Its first 10000 characters are kept */
  logOutput?: string | null;
}

export interface FailureSeen {
  /** The first start among the monitor's kept runs with this fingerprint */
  firstSeenAt: string;
  /** How many of its kept runs have it, this one included */
  count: number;
}

export interface Health {
  status: 'ok';
  database: 'sqlite' | 'postgres';
}

export interface Incident {
  /** ISO 8601 UTC with milliseconds */
  openedAt: string;
  cause: IncidentCause;
  /** Failed and timed-out runs since it opened, the opening one included */
  failedRuns: number;
  /** Expected runs that did not start since it opened */
  missedRuns: number;
}

export interface IncidentClosedEvent {
  kind: 'incident_closed';
  /** When it happened */
  at: string;
  cause: IncidentCause;
  /** ISO 8601 UTC with milliseconds */
  openedAt: string;
  failedRuns: number;
  missedRuns: number;
  /** recovered: successes closed it; resumed: the monitor was resumed */
  reason: IncidentEnd;
  /** The success that closed it; null on resume */
  runId: string | null;
}

export interface IncidentOpenedEvent {
  kind: 'incident_opened';
  /** When it happened */
  at: string;
  cause: IncidentCause;
  /** The run that opened it; null when missed runs did */
  runId: string | null;
}

export interface Invite {
  inviteId: string;
  email: string;
  role: Role;
  /** The user who invited; null once that user is removed */
  invitedBy: string | null;
  /** ISO 8601 UTC with milliseconds */
  createdAt: string;
  /** ISO 8601 UTC with milliseconds */
  expiresAt: string;
}

export interface InviteInfo {
  email: string;
  role: Role;
  /** ISO 8601 UTC with milliseconds */
  expiresAt: string;
}

export interface InviteList {
  /** Pending invites: neither accepted, revoked nor expired */
  invites: Invite[];
  /** Always null: every pending invite is listed at once */
  nextCursor: string | null;
}

export interface InviteTokenRequest {
  token: string;
}

export interface InviteUserRequest {
  email: string;
  role: Role;
}

export interface LastRun {
  runId: string;
  status: RunStatus;
  /** ISO 8601 UTC with milliseconds */
  startedAt: string;
  /** ISO 8601 UTC with milliseconds */
  finishedAt: string | null;
  durationMs: number | null;
  silentFailure: boolean;
}

export interface ListAlertsQuery {
  /** Items per page, 1 to 200; 50 unless given */
  limit?: number;
  /** The previous page's nextCursor */
  cursor?: string;
  monitorId?: string;
}

export interface ListAuditQuery {
  /** Items per page, 1 to 200; 50 unless given */
  limit?: number;
  /** The previous page's nextCursor */
  cursor?: string;
  /** Only the entries of this user (id or e-mail) or API key (id or prefix) */
  actor?: string;
  /** Only this action (monitor.paused), or every action of a kind (monitor) */
  action?: string;
  /** Only the entries about this monitor (id or slug): its own and its rules */
  monitor?: string;
  /** Only the entries from this time on (ISO 8601) */
  since?: string;
}

export interface ListEventsQuery {
  /** Items per page, 1 to 200; 50 unless given */
  limit?: number;
  /** The previous page's nextCursor */
  cursor?: string;
  /** Only events of these kinds, comma-separated: kind=missed,timed_out (docs/api.md#events) */
  kind?: string;
}

export interface ListRunsQuery {
  /** Items per page, 1 to 200; 50 unless given */
  limit?: number;
  /** The previous page's nextCursor */
  cursor?: string;
  status?: RunStatus;
  /** Only the failed runs with this fingerprint (a run's `fingerprint`) */
  fingerprint?: string;
}

export interface LogResult {
  hasLog: boolean;
  content: string | null;
}

export interface LoginRequest {
  email: string;
  password: string;
  /** The code of your second factor (or a recovery code), when you have one */
  code?: string;
}

export interface LoginResponse {
  token: string;
  /** ISO 8601 UTC with milliseconds */
  expiresAt: string;
  user: User;
  account: Account;
}

export interface MaintenanceWindow {
  windowId: string;
  cron: string;
  timezone: string;
  /** Seconds */
  duration: number;
  /** null: every monitor of the account */
  monitorIds: string[] | null;
  /** While the window is on: when it ends */
  activeUntil: string | null;
  /** ISO 8601 UTC with milliseconds */
  nextStartAt: string;
  /** ISO 8601 UTC with milliseconds */
  createdAt: string;
}

export interface MaintenanceWindowList {
  maintenanceWindows: MaintenanceWindow[];
  /** Pass as ?cursor= for the next page; null on the last page */
  nextCursor: string | null;
}

export interface MatchedRule {
  ruleId: string;
  metric: string;
  op: RuleOp;
  value: number;
  /** Compare with `value` × the median of the runs before (null: with `value` itself) */
  baseline: RuleBaseline | null;
  /** Match when the condition held in `atLeast` of the last `runs` successes (null: on one run) */
  window: RuleWindow | null;
  actual: number;
  /** The baseline's median when the run was judged (null: no baseline) */
  median: number | null;
}

export interface MeResponse {
  user: User;
  account: Account;
  secondFactor: SecondFactorStatus;
}

/** Numeric metadata: a flat object of finite numbers */
export type Meta = Record<string, number>;

export interface MissedEvent {
  kind: 'missed';
  /** When pingmon found the expected run had not started (its deadline, or just after) */
  at: string;
  /** The first expected run opening that did not come */
  expectedAt: string;
  /** Expected run openings in a row that did not come, found at once (usually 1) */
  count: number;
  /** Of those, expected while snoozed or in a maintenance window: not counted */
  quietCount: number;
}

export interface Monitor {
  monitorId: string;
  /** Unique in the account; accepted wherever the monitor id is (docs/api.md#slugs) */
  slug: string;
  name: string;
  /** ISO 8601 UTC with milliseconds */
  createdAt: string;
  lastRun: LastRun | null;
  recentRuns: RecentRuns;
  /** Derived from its runs, schedule and incident: new, up, late, down, running or paused */
  status: MonitorStatus;
  /** When the next run opening is expected (scheduled, not paused) */
  nextExpectedAt: string | null;
  incident: Incident | null;
  /** null: no schedule, the monitor knows only what its job tells it */
  schedule: MonitorSchedule | null;
  /** Seconds a run opening may come after its expected time before it is missed */
  startGrace: number;
  /** Seconds a run may stay running before it times out; null: no limit */
  maxRuntime: number | null;
  /** Consecutive failed, missed or timed-out runs before the monitor is down */
  failureThreshold: number;
  /** Consecutive successes that close an incident */
  recoveryThreshold: number;
  /** While down, a reminder every so many seconds; null: none */
  renotifyAfter: number | null;
  /** every: each failed run alerts; first: only the one opening an incident */
  failAlerts: FailAlerts;
  /** A paused monitor raises no alert */
  paused: boolean;
  /** It raises no alert until then; null when not snoozed */
  snoozedUntil: string | null;
  /** Answered for one monitor (not in lists): what its latest runs say about its schedule; null: nothing to say */
  scheduleHint?: ScheduleHint | null;
  /** Only with ?history=N: the latest N runs, newest first */
  history?: RunPoint[];
}

export interface MonitorCronSchedule {
  cron: string;
  timezone: string;
}

export type MonitorEvent =
  | RunEvent
  | MissedEvent
  | TimedOutEvent
  | IncidentOpenedEvent
  | IncidentClosedEvent
  | AlertRaisedEvent
  | SnoozedEvent
  | PausedEvent;

export interface MonitorEventList {
  /** Newest first */
  events: MonitorEvent[];
  /** Pass as ?cursor= for the next page; null on the last page */
  nextCursor: string | null;
}

export interface MonitorList {
  monitors: Monitor[];
  /** Pass as ?cursor= for the next page; null on the last page */
  nextCursor: string | null;
}

export type MonitorSchedule = MonitorCronSchedule | EverySchedule;

export interface MonitorSettings {
  /** A schedule as a create or an update gives it (docs/schedules.md); null: none */
  schedule: Schedule | null;
  /** Seconds a run opening may come after its expected time before it counts as missed */
  startGrace: number;
  /** Seconds a run may stay running before it is finished as failed (timed out); null: no limit */
  maxRuntime: number | null;
  /** Consecutive failed, missed or timed-out runs before the monitor is down */
  failureThreshold: number;
  /** Consecutive successes that close an incident */
  recoveryThreshold: number;
  /** While down, a reminder every so many seconds; null: none */
  renotifyAfter: number | null;
  /** `every` failed run alerts (default), or only the `first` of an incident */
  failAlerts: FailAlerts;
  /** A paused monitor raises no alert (docs/schedules.md says what its pings do) */
  paused: boolean;
}

export interface OutputAck {
  runId: string;
  /** The offset past the last character the server holds for the run */
  next: number;
}

export interface OutputChunkBody {
  /** The run's id, as its start ping sent it */
  runId: string;
  /** Where `text` starts in the job's output, in characters (UTF-16 units) since the job started */
  offset: number;
  /** The output from `offset` on, at most 65536 characters */
  text: string;
}

export interface PageQuery {
  /** Items per page, 1 to 200; 50 unless given */
  limit?: number;
  /** The previous page's nextCursor */
  cursor?: string;
}

export interface PausedEvent {
  kind: 'paused' | 'resumed';
  /** When it happened */
  at: string;
}

export interface PingAck {
  received: boolean;
  monitorId: string;
  runId: string;
  status: RunStatus;
  /** ISO 8601 UTC with milliseconds */
  timestamp: string;
}

/** Creates the monitor of an unknown slug, or updates the fields that differ (docs/api.md) */
export interface PingMonitorSettings {
  name?: string;
  /** A schedule as a create or an update gives it (docs/schedules.md); null: none */
  schedule?: Schedule | null;
  /** Seconds a run opening may come after its expected time before it counts as missed */
  startGrace?: number;
  /** Seconds a run may stay running before it is finished as failed (timed out); null: no limit */
  maxRuntime?: number | null;
  /** Consecutive failed, missed or timed-out runs before the monitor is down */
  failureThreshold?: number;
  /** Consecutive successes that close an incident */
  recoveryThreshold?: number;
  /** While down, a reminder every so many seconds; null: none */
  renotifyAfter?: number | null;
  /** `every` failed run alerts (default), or only the `first` of an incident */
  failAlerts?: FailAlerts;
  /** A paused monitor raises no alert (docs/schedules.md says what its pings do) */
  paused?: boolean;
}

export interface PingResponse {
  success: true;
  data: PingAck;
}

export interface PreviewTime {
  /** ISO 8601 UTC with milliseconds */
  at: string;
  /** The same instant as local time with its offset, e.g. 2027-03-28T03:00:00+02:00 */
  local: string;
  /** The zone's abbreviation at that instant, e.g. CEST, or an offset */
  zone: string;
  /** When a run not opened by then is missed: at + startGrace */
  missedAt: string;
}

export interface PublicMonitor {
  monitorId: string;
  slug: string;
  /** Shown on the page and in its badges */
  name: string;
  /** Its badge as SVG, under the server's address; null while the page has no slug */
  svgBadgePath: string | null;
  /** Its badge as shields.io endpoint JSON, under the server's address; null while the page has no slug */
  jsonBadgePath: string | null;
}

export interface RecentRuns {
  /** How many of its latest runs are counted (running ones included): at most 20 */
  runs: number;
  failed: number;
  /** Succeeded but matched alert rules */
  silentFailures: number;
}

export interface RecoveryCodes {
  /** Ten single-use codes, shown only now */
  recoveryCodes: string[];
}

export interface Rule {
  ruleId: string;
  monitorId: string;
  metric: string;
  op: RuleOp;
  value: number;
  /** Compare with `value` × the median of the runs before (null: with `value` itself) */
  baseline: RuleBaseline | null;
  /** Match when the condition held in `atLeast` of the last `runs` successes (null: on one run) */
  window: RuleWindow | null;
  /** The rule as `pingmon rules add` takes it: `durationMs > 3 × median(20)` */
  expression: string;
  /** The rule in words */
  description: string;
  /** ISO 8601 UTC with milliseconds */
  createdAt: string;
}

/** Compare with `value` × the median of the runs before (null: with `value` itself) */
export interface RuleBaseline {
  /** The median of the metric over the successful runs before the one judged, this many */
  runs: number;
  /** No verdict while fewer of those runs report the metric */
  minRuns: number;
}

export interface RuleList {
  rules: Rule[];
  /** Pass as ?cursor= for the next page; null on the last page */
  nextCursor: string | null;
}

export interface RulePreview {
  /** The rule in words */
  description: string;
  /** The rule as `pingmon rules add` takes it */
  expression: string;
  /** Successful runs replayed: the latest ones, at most `runs` */
  checked: number;
  /** Of those, how many do not report the metric (a rule never matches them) */
  withoutMetric: number;
  /** The runs it would have matched, newest first, with the value each reported */
  matches: RulePreviewMatch[];
}

export interface RulePreviewMatch {
  runId: string;
  /** ISO 8601 UTC with milliseconds */
  startedAt: string;
  actual: number;
  /** The baseline's median then (null: no baseline) */
  median: number | null;
}

export interface RulePreviewQuery {
  /** How many of the latest successful runs to replay; 20 unless given */
  runs?: number;
}

/** Match when the condition held in `atLeast` of the last `runs` successes (null: on one run) */
export interface RuleWindow {
  /** The last this many successful runs, the one judged included */
  runs: number;
  /** In how many of them the condition must hold (the one judged among them) */
  atLeast: number;
}

export interface Run {
  runId: string;
  monitorId: string;
  status: RunStatus;
  /** ISO 8601 UTC with milliseconds */
  startedAt: string;
  /** ISO 8601 UTC with milliseconds */
  finishedAt: string | null;
  durationMs: number | null;
  /** Numeric metadata: a flat object of finite numbers */
  meta: Meta;
  errorMessage: string | null;
  hasLog: boolean;
  /** A success whose meta matched alert rules: the run stays success */
  silentFailure: boolean;
  /** The rules its meta matched; empty unless silentFailure */
  matchedRules: MatchedRule[];
  /** The host of the ping that opened the run; null when it sent none */
  host: string | null;
  /** A failed run's failure fingerprint (docs/alerts.md#failure-fingerprints); null unless failed */
  fingerprint: string | null;
  /** How many secrets the wrapper or the SDK replaced with [redacted] before the run left its host (0: none) */
  redactions: number;
}

export interface RunDetail {
  runId: string;
  monitorId: string;
  status: RunStatus;
  /** ISO 8601 UTC with milliseconds */
  startedAt: string;
  /** ISO 8601 UTC with milliseconds */
  finishedAt: string | null;
  durationMs: number | null;
  /** Numeric metadata: a flat object of finite numbers */
  meta: Meta;
  errorMessage: string | null;
  hasLog: boolean;
  /** A success whose meta matched alert rules: the run stays success */
  silentFailure: boolean;
  /** The rules its meta matched; empty unless silentFailure */
  matchedRules: MatchedRule[];
  /** The host of the ping that opened the run; null when it sent none */
  host: string | null;
  /** A failed run's failure fingerprint (docs/alerts.md#failure-fingerprints); null unless failed */
  fingerprint: string | null;
  /** How many secrets the wrapper or the SDK replaced with [redacted] before the run left its host (0: none) */
  redactions: number;
  /** A failed run: its failure as the monitor has seen it; null unless failed */
  failure: FailureSeen | null;
}

export interface RunEvent {
  kind: 'run_started' | 'run_succeeded' | 'run_failed';
  /** When the run started (run_started) or finished */
  at: string;
  runId: string;
  /** The run's status now (a started run may have finished) */
  status: RunStatus;
  durationMs: number | null;
  /** The first line of the run's error message */
  errorMessage: string | null;
  silentFailure: boolean;
  host: string | null;
}

export interface RunList {
  runs: Run[];
  /** Pass as ?cursor= for the next page; null on the last page */
  nextCursor: string | null;
}

export interface RunOutput {
  runId: string;
  status: RunStatus;
  /** False once the run has ended: its log (GET …/log) is then the one to show */
  running: boolean;
  /** The live output from `from` to `next`; at most 65,536 characters */
  text: string;
  /** Where `text` starts; past the `after` asked for when older output is no longer kept */
  from: number;
  /** The `after` of the next call: the offset past the last character the server holds */
  next: number;
}

export interface RunOutputQuery {
  /** The offset to read from: 0, then the `next` of the last answer */
  after?: number;
}

export interface RunPoint {
  runId: string;
  status: RunStatus;
  /** ISO 8601 UTC with milliseconds */
  startedAt: string;
  durationMs: number | null;
  silentFailure: boolean;
}

/** A schedule as a create or an update gives it (docs/schedules.md); null: none */
export type Schedule =
  | {
      cron: string;
      /** IANA name, e.g. Europe/Berlin; UTC when left out */
      timezone?: string;
    }
  | {
      /** Seconds between two run openings */
      every: number;
    };

export interface ScheduleHint {
  /** offset: runs open a whole number of hours off the schedule (a timezone mistake); rhythm: at another interval */
  kind: 'offset' | 'rhythm';
  /** Says what was seen and what to check */
  message: string;
  /** How many of the latest run openings were compared */
  runs: number;
  /** offset: minutes the latest run opened after (negative: before) its expected time */
  offsetMinutes: number | null;
  /** offset: a timezone that would explain the openings, if any */
  timezone: string | null;
  /** rhythm: seconds between run openings, as seen */
  observedEvery: number | null;
  /** rhythm: seconds between expected openings */
  expectedEvery: number | null;
}

export interface SchedulePreview {
  /** The schedule in words, e.g. "At 03:00, every day" */
  description: string;
  /** The schedule's timezone; UTC for an every schedule */
  timezone: string;
  expected: PreviewTime[];
}

export interface SchedulePreviewRequest {
  /** A schedule as a create or an update gives it (docs/schedules.md); null: none */
  schedule: Schedule | null;
  /** Seconds a run opening may come after its expected time before it counts as missed */
  startGrace?: number;
  /** How many expected times; 5 unless given */
  count?: number;
}

export interface SecondFactorEnrolment {
  /** The TOTP secret in base32, to type into an authenticator app */
  secret: string;
  /** The same as an otpauth:// URI, for a QR code */
  uri: string;
}

export interface SecondFactorStatus {
  /** Whether signing in asks for a code (a pending enrolment does not count) */
  enabled: boolean;
  /** Recovery codes not used yet */
  recoveryCodesLeft: number;
}

export interface SessionList {
  sessions: UserSession[];
}

export interface SessionResponse {
  /** ISO 8601 UTC with milliseconds */
  expiresAt: string;
  user: User;
  account: Account;
}

export interface SetStatusPageRequest {
  /** The page is at /status/<slug>, its badges under /badge/<slug>/; null: no page */
  slug: string | null;
  /** The page's heading; left out or null: the slug */
  title?: string | null;
  /** The public monitors (ids or slugs), in their order on the page; the others stay private */
  monitorIds?: string[];
  /** Whether a public monitor that is down shows its last run's error message (default false) */
  showErrorMessages?: boolean;
}

export interface SignInMethods {
  /** Whether users may sign in with their e-mail and password */
  password: boolean;
  /** The identity provider users may sign in through; null: none */
  provider: SignInProvider | null;
}

export interface SignInProvider {
  /** The identity provider's name, for its sign-in button */
  name: string;
  /** Where a browser starts signing in through it */
  start: string;
}

export interface SnoozedEvent {
  kind: 'snoozed';
  /** When it happened */
  at: string;
  /** Until when; null: the snooze was ended early */
  until: string | null;
}

export interface StartPingBody {
  /** Your own id for the run, e.g. a UUID */
  runId?: string | null;
  /** The time the ping stands for, when sent late (at most 7 days old) */
  timestamp?: string | null;
  /** The job's host (os.hostname()): shown on the run, groups one host's missed alerts */
  host?: string | null;
  /** Creates the monitor of an unknown slug, or updates the fields that differ (docs/api.md) */
  monitor?: PingMonitorSettings | null;
}

export interface StatusPage {
  /** The account's slug: the page is at /status/<slug>; null: no page */
  slug: string | null;
  /** The page's heading; null: the slug */
  title: string | null;
  /** Whether a down public monitor shows its last run's error message */
  showErrorMessages: boolean;
  /** /status/<slug>, under the server's address; null while there is no slug */
  path: string | null;
  /** The public monitors, in their order on the page */
  monitors: PublicMonitor[];
  /** When the page was last set; null: never */
  updatedAt: string | null;
}

export interface SuccessPingBody {
  /** Your own id for the run, e.g. a UUID */
  runId?: string | null;
  /** The time the ping stands for, when sent late (at most 7 days old) */
  timestamp?: string | null;
  /** The job's host (os.hostname()): shown on the run, groups one host's missed alerts */
  host?: string | null;
  /** Creates the monitor of an unknown slug, or updates the fields that differ (docs/api.md) */
  monitor?: PingMonitorSettings | null;
  /** Numeric metadata: a flat object of finite numbers */
  meta?: Record<string, number> | null;
  /** How many secrets the client replaced with [redacted] before sending; stored on the run */
  redactions?: number | null;
}

export interface TemplatePreview {
  /** The sample alert: its event, or missed_group (a missed alert of several) */
  sample: string;
  event: 'fail' | 'silent_failure' | 'timed_out' | 'missed' | 'still_down' | 'recovered' | 'test';
  method: 'POST' | 'PUT';
  /** Names in lower case: the template's, content-type and user-agent (not a signature) */
  headers: Record<string, string>;
  body: string;
}

export interface TimedOutEvent {
  kind: 'timed_out';
  /** When it happened */
  at: string;
  /** The run, finished as failed (a run_failed at the same time) */
  runId: string;
  /** Seconds it was allowed */
  maxRuntime: number;
}

/** At least one field; secret: null removes the secret; options replace the old ones. The type cannot change */
export interface UpdateChannelRequest {
  name?: string;
  url?: string;
  secret?: string | null;
  /** The kind's own settings (docs/alerts.md): a Telegram chatId, a Matrix roomId, a template's body */
  options?: Record<string, unknown>;
  /** Seconds between repeats of an open incident's alert; null: the kind's own (Alertmanager: 60), else none */
  repeatEvery?: number | null;
  /** Seconds an incident must stay open before this channel is told of it (escalation); null: at once */
  escalateAfter?: number | null;
  /** Left out or null: every monitor of the account */
  monitorIds?: string[] | null;
  enabled?: boolean;
}

export interface UpdateMonitorRequest {
  name?: string;
  /** Made from the name when left out (numbered when the account has it); a new one replaces the old */
  slug?: string;
  /** A schedule as a create or an update gives it (docs/schedules.md); null: none */
  schedule?: Schedule | null;
  /** Seconds a run opening may come after its expected time before it counts as missed */
  startGrace?: number;
  /** Seconds a run may stay running before it is finished as failed (timed out); null: no limit */
  maxRuntime?: number | null;
  /** Consecutive failed, missed or timed-out runs before the monitor is down */
  failureThreshold?: number;
  /** Consecutive successes that close an incident */
  recoveryThreshold?: number;
  /** While down, a reminder every so many seconds; null: none */
  renotifyAfter?: number | null;
  /** `every` failed run alerts (default), or only the `first` of an incident */
  failAlerts?: FailAlerts;
  /** A paused monitor raises no alert (docs/schedules.md says what its pings do) */
  paused?: boolean;
  /** ISO 8601: snooze until then (in the future, within a year); null: end the snooze */
  snoozedUntil?: string | null;
}

export interface UpdateUserRequest {
  role: Role;
}

export interface User {
  userId: string;
  email: string;
  /** owner, admin, member or viewer (docs/api.md#roles) */
  role: Role;
  /** ISO 8601 UTC with milliseconds */
  createdAt: string;
}

export interface UserList {
  users: User[];
  /** Always null: every user of the account is listed at once */
  nextCursor: string | null;
}

export interface UserSession {
  sessionId: string;
  /** When it was signed in */
  createdAt: string;
  /** ISO 8601 UTC with milliseconds */
  expiresAt: string;
  /** Its last request, to the minute; null when none since the sign-in */
  lastUsedAt: string | null;
  /** The client's address at sign-in */
  address: string | null;
  /** The client's User-Agent at sign-in (its first 256 characters) */
  userAgent: string | null;
  /** The session of the request that listed them */
  current: boolean;
}
