import Joi from 'joi';
import type { RouteOptionsResponse } from '@hapi/hapi';
import { FAIL_ALERTS, KEY_SCOPES, MONITOR_STATUSES, PLANS, RECENT_RUNS, ROLES, RULE_OPS } from '@pingmon/sdk/wire';
import type { AlertEvent, DeliveryState, IncidentCause, IncidentEnd, RunStatus } from '@pingmon/sdk/wire';
import type { Dialect } from '../db/sql.js';
import { CHANNEL_TYPES } from '../alerts/channels/index.js';

// What the API answers: the OpenAPI document and the SDK's types are made from these, and the tests check every
// answer against them. Objects are closed; a schema with an id is a named component and type.

/**
 * A route's responses. `sample: 0` keeps hapi from validating any of them at request time: the schemas
 * describe, the tests check, and the pings stay as fast as without them.
 */
export function replies(status: Record<number, Joi.Schema | false>, errors: number[] = []): RouteOptionsResponse {
  const withErrors: Record<number, Joi.Schema | false> = { ...status };
  for (const code of errors) withErrors[code] = ErrorBody;
  return { status: withErrors, sample: 0 };
}

/** Every member of a string union, checked complete by the compiler (a missing key does not compile). */
function every<T extends string>(members: Record<T, true>): T[] {
  return Object.keys(members) as T[];
}

const RUN_STATUSES = every<RunStatus>({ running: true, success: true, failed: true });
const INCIDENT_CAUSES = every<IncidentCause>({ fail: true, missed: true, timed_out: true });
const DELIVERY_STATES = every<DeliveryState>({ pending: true, delivered: true, failed: true, skipped: true });
const ALERT_EVENTS = every<AlertEvent>({
  fail: true,
  silent_failure: true,
  timed_out: true,
  missed: true,
  still_down: true,
  recovered: true,
});
const INCIDENT_ENDS = every<IncidentEnd>({ recovered: true, resumed: true });
const DIALECTS = every<Dialect>({ sqlite: true, postgres: true });

/** An object answered by the API: every key required unless marked optional, and no other key. */
function shape(id: string, keys: Joi.PartialSchemaMap): Joi.ObjectSchema {
  return Joi.object(keys).prefs({ presence: 'required' }).id(id);
}

/** `schema` or null. (joi-to-json turns an alternatives' allow(null) into "must be null", and an id'd allow(null) into
 * a component that is always nullable: a null alternative says it right.) */
function orNull(schema: Joi.Schema): Joi.AlternativesSchema {
  return Joi.alternatives().try(schema, Joi.valid(null));
}

/** One of `values`; `type` names the SDK's union of them, which the generated wire types use. */
const oneOf = (values: readonly string[], type?: string) => {
  const schema = Joi.string().valid(...values);
  return type ? schema.meta({ type }) : schema;
};
const time = Joi.string().isoDate().description('ISO 8601 UTC with milliseconds');
const timeOrNull = time.allow(null);
const count = Joi.number().integer().min(0);
const durationMs = count.allow(null);
const nextCursor = Joi.string().allow(null).description('Pass as ?cursor= for the next page; null on the last page');
// Keys are left open here (pattern): meta is whatever numbers the job reported.
const Meta = Joi.object()
  .pattern(/^/, Joi.number())
  .id('Meta')
  .description('Numeric metadata: a flat object of finite numbers');

export const ErrorBody = shape('ErrorBody', {
  success: Joi.valid(false),
  statusCode: Joi.number().integer().min(400).max(599),
  error: Joi.string(),
  code: Joi.string().description('Stable machine code, e.g. rate_limited (docs/api.md#error-codes)'),
  message: Joi.string(),
  retryAfter: Joi.number().integer().min(0).optional().description('Seconds to wait, on 429 and 503 responses'),
});

export const Health = shape('Health', { status: Joi.valid('ok'), database: oneOf(DIALECTS) });

export const PingResponse = shape('PingResponse', {
  success: Joi.valid(true),
  data: shape('PingAck', {
    received: Joi.boolean(),
    monitorId: Joi.string(),
    runId: Joi.string(),
    status: oneOf(RUN_STATUSES, 'RunStatus'),
    timestamp: time,
  }),
});

const role = oneOf(ROLES, 'Role');
export const User = shape('User', {
  userId: Joi.string(),
  email: Joi.string(),
  role: role.description('owner, admin, member or viewer (docs/api.md#roles)'),
  createdAt: time,
});
export const UserList = shape('UserList', {
  users: Joi.array().items(User),
  nextCursor: nextCursor.description('Always null: every user of the account is listed at once'),
});
export const Invite = shape('Invite', {
  inviteId: Joi.string(),
  email: Joi.string(),
  role,
  invitedBy: Joi.string().allow(null).description('The user who invited; null once that user is removed'),
  createdAt: time,
  expiresAt: time,
});
export const InviteList = shape('InviteList', {
  invites: Joi.array().items(Invite).description('Pending invites: neither accepted, revoked nor expired'),
  nextCursor: nextCursor.description('Always null: every pending invite is listed at once'),
});
export const CreatedInvite = Invite.keys({
  url: Joi.string().description('The one-time link to accept the invite: shown this once, and mailed when SMTP is set'),
  emailed: Joi.boolean().description('Whether the link was mailed to the address (SMTP set, and the mail accepted)'),
}).id('CreatedInvite');
export const InviteInfo = shape('InviteInfo', {
  email: Joi.string(),
  role,
  expiresAt: time,
});
const Account = shape('Account', { accountId: Joi.string(), plan: oneOf(PLANS, 'Plan'), createdAt: time });
const SecondFactorStatus = shape('SecondFactorStatus', {
  enabled: Joi.boolean().description('Whether signing in asks for a code (a pending enrolment does not count)'),
  recoveryCodesLeft: count.description('Recovery codes not used yet'),
});
export const MeResponse = shape('MeResponse', { user: User, account: Account, secondFactor: SecondFactorStatus });
export const SignInMethods = shape('SignInMethods', {
  password: Joi.boolean().description('Whether users may sign in with their e-mail and password'),
  provider: orNull(
    shape('SignInProvider', {
      name: Joi.string().description("The identity provider's name, for its sign-in button"),
      start: Joi.string().description('Where a browser starts signing in through it'),
    }),
  ).description('The identity provider users may sign in through; null: none'),
});
export const CliCode = shape('CliCode', {
  code: Joi.string().description('For the CLI to trade, with its verifier, at POST /auth/cli/token'),
  expiresInSeconds: count,
});
export const SessionResponse = shape('SessionResponse', { expiresAt: time, user: User, account: Account });
export const LoginResponse = shape('LoginResponse', {
  token: Joi.string(),
  expiresAt: time,
  user: User,
  account: Account,
});

export const UserSession = shape('UserSession', {
  sessionId: Joi.string(),
  createdAt: time.description('When it was signed in'),
  expiresAt: time,
  lastUsedAt: timeOrNull.description('Its last request, to the minute; null when none since the sign-in'),
  address: Joi.string().allow(null).description("The client's address at sign-in"),
  userAgent: Joi.string().allow(null).description("The client's User-Agent at sign-in (its first 256 characters)"),
  current: Joi.boolean().description('The session of the request that listed them'),
});
export const SessionList = shape('SessionList', { sessions: Joi.array().items(UserSession) });
export const EndedSessions = shape('EndedSessions', { ended: count.description('How many sessions ended') });
export const SecondFactorEnrolment = shape('SecondFactorEnrolment', {
  secret: Joi.string().description('The TOTP secret in base32, to type into an authenticator app'),
  uri: Joi.string().description('The same as an otpauth:// URI, for a QR code'),
});
export const RecoveryCodes = shape('RecoveryCodes', {
  recoveryCodes: Joi.array().items(Joi.string()).description('Ten single-use codes, shown only now'),
});

export const RuleBaseline = shape('RuleBaseline', {
  runs: count.description('The median of the metric over the successful runs before the one judged, this many'),
  minRuns: count.description('No verdict while fewer of those runs report the metric'),
})
  .allow(null)
  .description('Compare with `value` × the median of the runs before (null: with `value` itself)');
export const RuleWindow = shape('RuleWindow', {
  runs: count.description('The last this many successful runs, the one judged included'),
  atLeast: count.description('In how many of them the condition must hold (the one judged among them)'),
})
  .allow(null)
  .description('Match when the condition held in `atLeast` of the last `runs` successes (null: on one run)');

const ruleKeys = {
  metric: Joi.string(),
  op: oneOf(RULE_OPS, 'RuleOp'),
  value: Joi.number(),
  baseline: RuleBaseline,
  window: RuleWindow,
};

const MatchedRule = shape('MatchedRule', {
  ruleId: Joi.string(),
  ...ruleKeys,
  actual: Joi.number(),
  median: Joi.number().allow(null).description("The baseline's median when the run was judged (null: no baseline)"),
});

const runKeys = {
  runId: Joi.string(),
  monitorId: Joi.string(),
  status: oneOf(RUN_STATUSES, 'RunStatus'),
  startedAt: time,
  finishedAt: timeOrNull,
  durationMs,
  meta: Meta,
  errorMessage: Joi.string().allow(null),
  hasLog: Joi.boolean(),
  silentFailure: Joi.boolean().description('A success whose meta matched alert rules: the run stays success'),
  matchedRules: Joi.array().items(MatchedRule).description('The rules its meta matched; empty unless silentFailure'),
  host: Joi.string().allow(null).description('The host of the ping that opened the run; null when it sent none'),
  fingerprint: Joi.string()
    .allow(null)
    .description("A failed run's failure fingerprint (docs/alerts.md#failure-fingerprints); null unless failed"),
  redactions: count.description(
    'How many secrets the wrapper or the SDK replaced with [redacted] before the run left its host (0: none)',
  ),
};
export const Run = shape('Run', runKeys);
export const RunDetail = shape('RunDetail', {
  ...runKeys,
  failure: orNull(
    shape('FailureSeen', {
      firstSeenAt: time.description("The first start among the monitor's kept runs with this fingerprint"),
      count: count.description('How many of its kept runs have it, this one included'),
    }),
  ).description('A failed run: its failure as the monitor has seen it; null unless failed'),
});
export const RunList = shape('RunList', { runs: Joi.array().items(Run), nextCursor });
export const LogResult = shape('LogResult', { hasLog: Joi.boolean(), content: Joi.string().allow(null) });
const offset = Joi.number().integer().min(0);
export const RunOutput = shape('RunOutput', {
  runId: Joi.string(),
  status: oneOf(RUN_STATUSES, 'RunStatus'),
  running: Joi.boolean().description('False once the run has ended: its log (GET …/log) is then the one to show'),
  text: Joi.string().allow('').description('The live output from `from` to `next`; at most 65,536 characters'),
  from: offset.description('Where `text` starts; past the `after` asked for when older output is no longer kept'),
  next: offset.description('The `after` of the next call: the offset past the last character the server holds'),
});
export const OutputAck = shape('OutputAck', {
  runId: Joi.string(),
  next: offset.description('The offset past the last character the server holds for the run'),
});

// As answered: a cron schedule always names its timezone (UTC when none was given).
const Schedule = Joi.alternatives()
  .try(
    shape('MonitorCronSchedule', { cron: Joi.string(), timezone: Joi.string() }),
    shape('EverySchedule', { every: Joi.number().integer().min(1).description('Seconds between two run openings') }),
  )
  .id('MonitorSchedule');

export const Monitor = shape('Monitor', {
  monitorId: Joi.string(),
  slug: Joi.string().description('Unique in the account; accepted wherever the monitor id is (docs/api.md#slugs)'),
  name: Joi.string(),
  createdAt: time,
  lastRun: orNull(
    shape('LastRun', {
      runId: Joi.string(),
      status: oneOf(RUN_STATUSES, 'RunStatus'),
      startedAt: time,
      finishedAt: timeOrNull,
      durationMs,
      silentFailure: Joi.boolean(),
    }),
  ),
  recentRuns: shape('RecentRuns', {
    runs: count.description(`How many of its latest runs are counted (running ones included): at most ${RECENT_RUNS}`),
    failed: count,
    silentFailures: count.description('Succeeded but matched alert rules'),
  }),
  status: oneOf(MONITOR_STATUSES, 'MonitorStatus').description(
    'Derived from its runs, schedule and incident: new, up, late, down, running or paused',
  ),
  nextExpectedAt: timeOrNull.description('When the next run opening is expected (scheduled, not paused)'),
  incident: orNull(
    shape('Incident', {
      openedAt: time,
      cause: oneOf(INCIDENT_CAUSES, 'IncidentCause'),
      failedRuns: count.description('Failed and timed-out runs since it opened, the opening one included'),
      missedRuns: count.description('Expected runs that did not start since it opened'),
    }),
  ),
  schedule: orNull(Schedule).description('null: no schedule, the monitor knows only what its job tells it'),
  startGrace: count.description('Seconds a run opening may come after its expected time before it is missed'),
  maxRuntime: count.allow(null).description('Seconds a run may stay running before it times out; null: no limit'),
  failureThreshold: count.description('Consecutive failed, missed or timed-out runs before the monitor is down'),
  recoveryThreshold: count.description('Consecutive successes that close an incident'),
  renotifyAfter: count.allow(null).description('While down, a reminder every so many seconds; null: none'),
  failAlerts: oneOf(FAIL_ALERTS, 'FailAlerts').description(
    'every: each failed run alerts; first: only the one opening an incident',
  ),
  paused: Joi.boolean().description('A paused monitor raises no alert'),
  snoozedUntil: timeOrNull.description('It raises no alert until then; null when not snoozed'),
  scheduleHint: orNull(
    shape('ScheduleHint', {
      kind: oneOf(['offset', 'rhythm']).description(
        'offset: runs open a whole number of hours off the schedule (a timezone mistake); rhythm: at another interval',
      ),
      message: Joi.string().description('Says what was seen and what to check'),
      runs: count.description('How many of the latest run openings were compared'),
      offsetMinutes: Joi.number()
        .integer()
        .allow(null)
        .description('offset: minutes the latest run opened after (negative: before) its expected time'),
      timezone: Joi.string().allow(null).description('offset: a timezone that would explain the openings, if any'),
      observedEvery: count.allow(null).description('rhythm: seconds between run openings, as seen'),
      expectedEvery: count.allow(null).description('rhythm: seconds between expected openings'),
    }),
  )
    .optional()
    .description(
      'Answered for one monitor (not in lists): what its latest runs say about its schedule; null: nothing to say',
    ),
  history: Joi.array()
    .items(
      shape('RunPoint', {
        runId: Joi.string(),
        status: oneOf(RUN_STATUSES, 'RunStatus'),
        startedAt: time,
        durationMs,
        silentFailure: Joi.boolean(),
      }),
    )
    .optional()
    .description('Only with ?history=N: the latest N runs, newest first'),
});
export const MonitorList = shape('MonitorList', { monitors: Joi.array().items(Monitor), nextCursor });
export const ExpectedTimes = shape('ExpectedTimes', {
  timezone: Joi.string(),
  times: Joi.array().items(
    shape('ExpectedTime', {
      at: time,
      local: Joi.string().description('The same instant as local time with its offset, e.g. 2027-03-28T03:00:00+02:00'),
      zone: Joi.string().description("The zone's abbreviation at that instant, e.g. CEST, or an offset"),
    }),
  ),
});

// The previews of a schedule and of a rule (routes/previews.ts), for a person checking what they type.
export const SchedulePreview = shape('SchedulePreview', {
  description: Joi.string().description('The schedule in words, e.g. "At 03:00, every day"'),
  timezone: Joi.string().description("The schedule's timezone; UTC for an every schedule"),
  expected: Joi.array().items(
    shape('PreviewTime', {
      at: time,
      local: Joi.string().description('The same instant as local time with its offset, e.g. 2027-03-28T03:00:00+02:00'),
      zone: Joi.string().description("The zone's abbreviation at that instant, e.g. CEST, or an offset"),
      missedAt: time.description('When a run not opened by then is missed: at + startGrace'),
    }),
  ),
});
export const RulePreview = shape('RulePreview', {
  description: Joi.string().description('The rule in words'),
  expression: Joi.string().description('The rule as `pingmon rules add` takes it'),
  checked: count.description('Successful runs replayed: the latest ones, at most `runs`'),
  withoutMetric: count.description('Of those, how many do not report the metric (a rule never matches them)'),
  matches: Joi.array()
    .items(
      shape('RulePreviewMatch', {
        runId: Joi.string(),
        startedAt: time,
        actual: Joi.number(),
        median: Joi.number().allow(null).description("The baseline's median then (null: no baseline)"),
      }),
    )
    .description('The runs it would have matched, newest first, with the value each reported'),
});

export const MaintenanceWindow = shape('MaintenanceWindow', {
  windowId: Joi.string(),
  cron: Joi.string(),
  timezone: Joi.string(),
  duration: count.description('Seconds'),
  monitorIds: Joi.array().items(Joi.string()).allow(null).description('null: every monitor of the account'),
  activeUntil: timeOrNull.description('While the window is on: when it ends'),
  nextStartAt: time,
  createdAt: time,
});
export const MaintenanceWindowList = shape('MaintenanceWindowList', {
  maintenanceWindows: Joi.array().items(MaintenanceWindow),
  nextCursor,
});

const PublicMonitor = shape('PublicMonitor', {
  monitorId: Joi.string(),
  slug: Joi.string(),
  name: Joi.string().description('Shown on the page and in its badges'),
  svgBadgePath: Joi.string()
    .allow(null)
    .description("Its badge as SVG, under the server's address; null while the page has no slug"),
  jsonBadgePath: Joi.string()
    .allow(null)
    .description("Its badge as shields.io endpoint JSON, under the server's address; null while the page has no slug"),
});
export const StatusPage = shape('StatusPage', {
  slug: Joi.string().allow(null).description("The account's slug: the page is at /status/<slug>; null: no page"),
  title: Joi.string().allow(null).description("The page's heading; null: the slug"),
  showErrorMessages: Joi.boolean().description("Whether a down public monitor shows its last run's error message"),
  path: Joi.string().allow(null).description("/status/<slug>, under the server's address; null while there is no slug"),
  monitors: Joi.array().items(PublicMonitor).description('The public monitors, in their order on the page'),
  updatedAt: timeOrNull.description('When the page was last set; null: never'),
});

export const ApiKey = shape('ApiKey', {
  keyId: Joi.string(),
  name: Joi.string(),
  prefix: Joi.string().description('The first characters of the key, to tell keys apart'),
  scope: oneOf(KEY_SCOPES, 'KeyScope').description('ping: pings only; read: reads the API; write: changes it too'),
  provision: Joi.boolean().description("Whether its pings may create and update monitors (a ping's monitor settings)"),
  monitorIds: Joi.array()
    .items(Joi.string())
    .allow(null)
    .description('The monitors the key is limited to; null: every monitor of the account'),
  createdAt: time,
  lastUsedAt: timeOrNull.description('When it was last used, to the minute; null: never'),
  revokedAt: timeOrNull,
});
export const ApiKeyList = shape('ApiKeyList', { apiKeys: Joi.array().items(ApiKey), nextCursor });
export const CreatedApiKey = ApiKey.keys({ key: Joi.string().description('Shown this once only') }).id('CreatedApiKey');

export const Rule = shape('Rule', {
  ruleId: Joi.string(),
  monitorId: Joi.string(),
  ...ruleKeys,
  expression: Joi.string().description('The rule as `pingmon rules add` takes it: `durationMs > 3 × median(20)`'),
  description: Joi.string().description('The rule in words'),
  createdAt: time,
});
export const RuleList = shape('RuleList', { rules: Joi.array().items(Rule), nextCursor });

export const Channel = shape('Channel', {
  channelId: Joi.string(),
  name: Joi.string(),
  type: oneOf(CHANNEL_TYPES, 'ChannelType'),
  url: Joi.string().description('Masked to its origin and "/…"; an e-mail channel\'s mailto: URL is shown whole'),
  hasSecret: Joi.boolean(),
  options: Joi.object()
    .unknown(true)
    .description("The kind's own settings (docs/alerts.md); the secret is never among them"),
  repeatEvery: Joi.number().integer().allow(null).description("Seconds between repeats; null: the kind's own"),
  escalateAfter: Joi.number().integer().allow(null).description('Seconds before an open incident reaches it'),
  monitorIds: Joi.array().items(Joi.string()).allow(null).description('null: every monitor of the account'),
  enabled: Joi.boolean(),
  createdAt: time,
});
export const ChannelList = shape('ChannelList', { channels: Joi.array().items(Channel), nextCursor });
const OPTION_TYPES = ['string', 'number', 'integer', 'boolean', 'object'];
const optionValue = Joi.alternatives().try(Joi.string(), Joi.number(), Joi.boolean());
export const ChannelKindList = shape('ChannelKindList', {
  kinds: Joi.array().items(
    shape('ChannelKindInfo', {
      type: oneOf(CHANNEL_TYPES, 'ChannelType'),
      label: Joi.string().description('Its name in forms and messages: "PagerDuty", "Microsoft Teams"'),
      url: shape('ChannelKindUrl', {
        default: Joi.string().allow(null).description("The vendor's API, used when the channel gives no URL"),
        describe: Joi.string().description('What URL to give and where to find it'),
      }),
      secret: shape('ChannelKindSecret', {
        need: oneOf(['required', 'optional', 'none']),
        describe: Joi.string().allow(null).description('What the secret is; null when the kind takes none'),
      }),
      options: Joi.array().items(
        shape('ChannelKindOption', {
          name: Joi.string().description('Its key in the channel\'s "options"'),
          type: oneOf(OPTION_TYPES).description('integer: a whole number; object: a JSON object'),
          required: Joi.boolean(),
          values: Joi.array().items(optionValue).allow(null).description('The values it takes; null: any'),
          default: optionValue.optional().description('What it is when left out, where the kind says'),
          maxLength: count.allow(null).description('The most characters a string takes; null: no limit of its own'),
          describe: Joi.string().allow(null).description('What to give and where to find it'),
          example: Joi.any().optional().description('A value it takes'),
        }),
      ),
      repeatEvery: count.allow(null).description("Seconds between repeats of an open incident's alert by default"),
      incidents: Joi.boolean().description("Opens and closes an incident in the vendor's tool, not only messages"),
    }),
  ),
});
const attempt = {
  statusCode: Joi.number()
    .integer()
    .allow(null)
    .description("The receiver's HTTP status; null without one (e-mail too)"),
  error: Joi.string().allow(null).description("What went wrong (or the SMTP server's reply); null on success"),
  durationMs: count,
};
export const ChannelTestResult = shape('ChannelTestResult', { delivered: Joi.boolean(), ...attempt });
// A template channel's requests as they would be sent (POST /channels/preview), for a person writing one.
export const ChannelPreview = shape('ChannelPreview', {
  problem: Joi.string()
    .allow(null)
    .description('Why the template cannot render, as creating the channel would refuse it; null: it renders'),
  previews: Joi.array()
    .items(
      shape('TemplatePreview', {
        sample: Joi.string().description('The sample alert: its event, or missed_group (a missed alert of several)'),
        event: oneOf([...ALERT_EVENTS, 'test']),
        method: oneOf(['POST', 'PUT']),
        headers: Joi.object()
          .pattern(/^/, Joi.string())
          .description("Names in lower case: the template's, content-type and user-agent (not a signature)"),
        body: Joi.string(),
      }),
    )
    .description('One request per sample alert; empty when there is a problem'),
});

const AlertDelivery = shape('AlertDelivery', {
  channelId: Joi.string(),
  channelName: Joi.string(),
  channelType: oneOf(CHANNEL_TYPES, 'ChannelType'),
  state: oneOf(DELIVERY_STATES, 'DeliveryState'),
  attemptCount: count.description('Attempts made (or started) so far'),
  nextAttemptAt: timeOrNull.description('When the next attempt is due; null unless pending'),
  deliveredAt: timeOrNull,
  lastError: Joi.string().allow(null),
  attempts: Joi.array().items(
    shape('DeliveryAttempt', { attempt: Joi.number().integer().min(1), at: time, ...attempt }),
  ),
});
export const AlertList = shape('AlertList', {
  alerts: Joi.array().items(
    shape('Alert', {
      alertId: Joi.string(),
      event: oneOf(ALERT_EVENTS, 'AlertEvent'),
      monitorId: Joi.string(),
      monitorName: Joi.string(),
      runId: Joi.string().allow(null).description('The run it is about; null for missed and still_down alerts'),
      status: oneOf([...new Set([...RUN_STATUSES, ...MONITOR_STATUSES])]).description(
        "The run's status when raised, or the monitor's for missed, still_down and recovered",
      ),
      expectedAt: timeOrNull.description('The expected run opening a missed alert is about'),
      lastRunAt: timeOrNull.description("Missed alerts: when the monitor's last run started"),
      lastRunStatus: oneOf(RUN_STATUSES, 'RunStatus').allow(null).description("Missed alerts: that run's status"),
      errorMessage: Joi.string().allow(null),
      logSnippet: Joi.string().allow(null).description("The first 500 characters of the run's log (fail alerts)"),
      logTail: Joi.string().allow(null).description("The log's last lines, at most 500 characters (fail alerts)"),
      repeats: count
        .allow(null)
        .description('Fail alerts: how many failed runs in a row before it failed the same way (0: a new failure)'),
      meta: Meta,
      matchedRules: Joi.array().items(MatchedRule),
      host: Joi.string().allow(null).description("A missed alert: the host of the monitor's last run"),
      groupId: Joi.string()
        .allow(null)
        .description('Sent in one message with other monitors of its host: the alert whose deliveries carried it'),
      createdAt: time,
      deliveries: Joi.array().items(AlertDelivery).description('One per channel it was queued for when raised'),
    }),
  ),
  nextCursor,
});

// A monitor's timeline (docs/api.md#events): one object per kind, told apart by `kind`.
const eventAt = time.description('When it happened');
const MonitorEvent = Joi.alternatives()
  .try(
    shape('RunEvent', {
      kind: oneOf(['run_started', 'run_succeeded', 'run_failed']),
      at: eventAt.description('When the run started (run_started) or finished'),
      runId: Joi.string(),
      status: oneOf(RUN_STATUSES, 'RunStatus').description("The run's status now (a started run may have finished)"),
      durationMs,
      errorMessage: Joi.string().allow(null).description("The first line of the run's error message"),
      silentFailure: Joi.boolean(),
      host: Joi.string().allow(null),
    }),
    shape('MissedEvent', {
      kind: Joi.valid('missed'),
      at: eventAt.description('When pingmon found the expected run had not started (its deadline, or just after)'),
      expectedAt: time.description('The first expected run opening that did not come'),
      count: count.description('Expected run openings in a row that did not come, found at once (usually 1)'),
      quietCount: count.description('Of those, expected while snoozed or in a maintenance window: not counted'),
    }),
    shape('TimedOutEvent', {
      kind: Joi.valid('timed_out'),
      at: eventAt,
      runId: Joi.string().description('The run, finished as failed (a run_failed at the same time)'),
      maxRuntime: count.description('Seconds it was allowed'),
    }),
    shape('IncidentOpenedEvent', {
      kind: Joi.valid('incident_opened'),
      at: eventAt,
      cause: oneOf(INCIDENT_CAUSES, 'IncidentCause'),
      runId: Joi.string().allow(null).description('The run that opened it; null when missed runs did'),
    }),
    shape('IncidentClosedEvent', {
      kind: Joi.valid('incident_closed'),
      at: eventAt,
      cause: oneOf(INCIDENT_CAUSES, 'IncidentCause'),
      openedAt: time,
      failedRuns: count,
      missedRuns: count,
      reason: oneOf(INCIDENT_ENDS, 'IncidentEnd').description(
        'recovered: successes closed it; resumed: the monitor was resumed',
      ),
      runId: Joi.string().allow(null).description('The success that closed it; null on resume'),
    }),
    shape('AlertRaisedEvent', {
      kind: Joi.valid('alert'),
      at: eventAt,
      alertId: Joi.string(),
      event: oneOf(ALERT_EVENTS, 'AlertEvent'),
      runId: Joi.string().allow(null),
      errorMessage: Joi.string().allow(null),
      groupId: Joi.string()
        .allow(null)
        .description('Sent in one message with others (GET /alerts): the deliveries are those of the message'),
      deliveries: Joi.array().items(AlertDelivery),
    }),
    shape('SnoozedEvent', {
      kind: Joi.valid('snoozed'),
      at: eventAt,
      until: timeOrNull.description('Until when; null: the snooze was ended early'),
    }),
    shape('PausedEvent', { kind: oneOf(['paused', 'resumed']), at: eventAt }),
  )
  .id('MonitorEvent');
export const MonitorEventList = shape('MonitorEventList', {
  events: Joi.array().items(MonitorEvent).description('Newest first'),
  nextCursor,
});

const AuditActor = shape('AuditActor', {
  type: Joi.valid('user', 'api_key').description('A signed-in user, or an API key'),
  id: Joi.string().description("The user's id, or the API key's"),
  name: Joi.string().description("The user's e-mail, or the API key's prefix"),
});
const AuditTarget = shape('AuditTarget', {
  type: Joi.string().description('monitor, rule, channel, api_key, maintenance_window or user'),
  id: Joi.string(),
  name: Joi.string().allow(null).description('Its name when the change was made'),
});
const AuditChange = shape('AuditChange', {
  field: Joi.string(),
  from: Joi.any().description('The value before; secrets shown as "[masked]"'),
  to: Joi.any().description('The value after; secrets shown as "[masked]"'),
});
export const AuditEntry = shape('AuditEntry', {
  entryId: Joi.string(),
  at: time,
  actor: AuditActor,
  address: Joi.string().description('The client address the change came from'),
  action: Joi.string().description('What was done, e.g. monitor.paused (docs/api.md#audit-trail)'),
  target: orNull(AuditTarget),
  monitorId: Joi.string().allow(null).description('The monitor the entry is about, if any'),
  changes: orNull(Joi.array().items(AuditChange)).description('The fields an edit changed; null for other actions'),
});
export const AuditEntryList = shape('AuditEntryList', { entries: Joi.array().items(AuditEntry), nextCursor });
