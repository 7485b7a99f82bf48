// Words and symbols the server, the CLI and the dashboard must write alike: defined once, here.
import type {
  ChannelType,
  EventKind,
  FailAlerts,
  KeyScope,
  MonitorSettings,
  MonitorStatus,
  Plan,
  Role,
  RuleOp,
} from './types.js';

/** Every rule operator, in the order the docs and the CLI's messages list them. */
export const RULE_OPS: readonly RuleOp[] = ['lt', 'lte', 'gt', 'gte', 'eq', 'neq'];

/** How a rule's operator is written for people (docs/alerts.md): plain ASCII, as typed on a command line. */
export const RULE_OP_SYMBOLS: Readonly<Record<RuleOp, string>> = {
  lt: '<',
  lte: '<=',
  gt: '>',
  gte: '>=',
  eq: '==',
  neq: '!=',
};

/** A rule's operator in words (the dashboard's rule form, a rule preview's description). */
export const RULE_OP_WORDS: Readonly<Record<RuleOp, string>> = {
  lt: 'less than',
  lte: 'at most',
  gt: 'more than',
  gte: 'at least',
  eq: 'equal to',
  neq: 'other than',
};

/** The error codes of a request whose user token is missing, expired or refused: logging in again is the way out. */
export const LOGIN_ERROR_CODES: ReadonlySet<string> = new Set([
  'token_expired',
  'invalid_token',
  'session_ended',
  'missing_token',
  'user_token_required',
]);

/**
 * The error codes of a request the caller's role or key refuses (docs/api.md#roles): signing in again does not help,
 * another role or another key does.
 */
export const ACCESS_ERROR_CODES: ReadonlySet<string> = new Set(['forbidden_role', 'key_scope', 'key_monitors']);

/** The roles, from the one that may do the most. */
export const ROLES: readonly Role[] = ['owner', 'admin', 'member', 'viewer'];

/** The scopes of API keys: `ping` is the default, and every key made before scopes has it. */
export const KEY_SCOPES: readonly KeyScope[] = ['ping', 'read', 'write'];

/** The plans, from the longest minimum interval between a monitor's runs to none (DESIGN §5). */
export const PLANS: readonly Plan[] = ['free', 'pro', 'business', 'unlimited'];

/** Every monitor status, in the order of what needs attention first. */
export const MONITOR_STATUSES: readonly MonitorStatus[] = ['down', 'late', 'running', 'up', 'new', 'paused'];

/** Every kind of a monitor's timeline event (GET /monitors/:monitorId/events), in the order a run's story goes. */
export const EVENT_KINDS: readonly EventKind[] = [
  'run_started',
  'run_succeeded',
  'run_failed',
  'missed',
  'timed_out',
  'incident_opened',
  'incident_closed',
  'alert',
  'snoozed',
  'paused',
  'resumed',
];

/** Every kind of channel (DESIGN §16), in the order docs/alerts.md lists them. */
export const CHANNEL_TYPES: readonly ChannelType[] = [
  'slack',
  'discord',
  'webhook',
  'email',
  'template',
  'alertmanager',
  'pagerduty',
  'opsgenie',
  'msteams',
  'googlechat',
  'mattermost',
  'rocketchat',
  'telegram',
  'ntfy',
  'pushover',
  'matrix',
];

/** A monitor's `failAlerts` settings (docs/alerts.md#one-alert-per-problem), the default first. */
export const FAIL_ALERTS: readonly FailAlerts[] = ['every', 'first'];

/** A monitor's settings when none are given (docs/schedules.md#settings). */
export const MONITOR_DEFAULTS: Readonly<MonitorSettings> = {
  schedule: null,
  startGrace: 300,
  maxRuntime: null,
  failureThreshold: 1,
  recoveryThreshold: 1,
  renotifyAfter: null,
  failAlerts: 'every',
  paused: false,
};
