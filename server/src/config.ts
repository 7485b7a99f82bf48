import { homedir } from 'node:os';
import { join } from 'node:path';
import Joi from 'joi';
import { DURATION_FORMS, LONGEST_TIMER_MS, notADuration, parseDuration, PLANS } from '@pingmon/sdk/wire';
import { ROLES } from '@pingmon/sdk/wire';
import type { Plan, Role } from '@pingmon/sdk/wire';

export interface Config {
  readonly host: string;
  readonly port: number;
  /** Reverse proxies (addresses or CIDR ranges) whose X-Forwarded-For names the client; empty: none. */
  readonly trustedProxies: readonly string[];
  /** Directory of the embedded SQLite database; unused with a PostgreSQL URL. */
  readonly dataDir: string;
  /** `postgres://…` to use PostgreSQL; undefined for embedded SQLite. */
  readonly databaseUrl: string | undefined;
  /** PostgreSQL schema to keep pingmon's tables in (created when missing). */
  readonly databaseSchema: string | undefined;
  /** Most PostgreSQL connections this process holds at once. */
  readonly databasePoolSize: number;
  /**
   * PostgreSQL ends a session of this process left idle inside a transaction this long. pingmon's transactions wait
   * on nothing but their own statements (but the migration lock's, which opts out); one that does is a process
   * frozen (stopped, swapped out) while holding row locks that every server's pings on those monitors wait for.
   */
  readonly databaseIdleInTransactionMs: number;
  /** HS256 secret for user tokens; generated once and stored in the database when unset. */
  readonly jwtSecret: string | undefined;
  readonly tokenTtlSeconds: number;
  readonly bodyLimitBytes: number;
  /** Minimum time between two run openings of one monitor, per plan. */
  readonly planIntervalsMs: Readonly<Record<Plan, number>>;
  /** The most monitors an account may have, per plan; 0: no limit. */
  readonly planMonitors: Readonly<Record<Plan, number>>;
  readonly apiKeyCacheMs: number;
  /** Monitors each server process keeps in memory between their pings, so as not to read them again; 0: none. */
  readonly monitorCacheSize: number;
  readonly logLevel: (typeof LOG_LEVELS)[number];
  /** `pretty`: short lines for a person; `json`: a JSON object a line, for journald, docker and log shippers. */
  readonly logFormat: (typeof LOG_FORMATS)[number];
  /** Colour the pretty lines: standard output is a terminal and NO_COLOR is not set. */
  readonly logColor: boolean;
  /** Time allowed for one HTTP attempt to deliver an alert (and for a channel test). */
  readonly alertTimeoutMs: number;
  /** Wait after an alert delivery's first failed attempt; doubled after each further one. */
  readonly alertRetryBaseMs: number;
  /** Attempts per alert and channel, the first one included. */
  readonly alertMaxAttempts: number;
  /** How often each server reads the alert outbox when nothing wakes it sooner. */
  readonly alertPollMs: number;
  /**
   * Channels may only reach public addresses: private, loopback and link-local ones are refused when a channel
   * is created or changed, and again when sending, after DNS resolution. Off for self-hosting; on for hosted use.
   */
  readonly channelsPublicOnly: boolean;
  /** Where users reach this server (no trailing slash): alerts link to the dashboard's pages under it. */
  readonly publicUrl: string | undefined;
  /** The SMTP server e-mail channels send through (smtp:// or smtps://, credentials included); undefined: no e-mail. */
  readonly smtpUrl: string | undefined;
  /** The From of alert e-mails: an address, or "Name <address>"; set whenever smtpUrl is. */
  readonly smtpFrom: string | undefined;
  /** How often each server looks for missed runs, timed-out runs and reminders that are due. */
  readonly sweepIntervalMs: number;
  /** How long runs and alerts are kept (from a run's start, an alert's creation); null keeps them for ever. */
  readonly retentionMs: number | null;
  /** How many of each monitor's newest runs are kept, at most; null for no limit. */
  readonly retentionRuns: number | null;
  /** How long audit trail entries are kept; null keeps them for ever. */
  readonly auditRetentionMs: number | null;
  /** How often each server deletes what retention no longer keeps, when the last pass finished its work. */
  readonly pruneIntervalMs: number;
  /** The server's clock (epoch ms) for pings, schedules and the sweeper: Date.now, or a test's own. */
  readonly clock: () => number;
  /** Serve GET /metrics in the Prometheus text format (docs/metrics.md); off: nothing is measured. */
  readonly metrics: boolean;
  /** The bearer token a scrape of /metrics must send; undefined lets any scrape in. */
  readonly metricsToken: string | undefined;
  /** Users may sign in with their e-mail and password; off, only through the identity provider. */
  readonly passwordSignIn: boolean;
  /** Sign-in through an OpenID Connect provider (docs/configuration.md#single-sign-on); undefined: none. */
  readonly oidc: OidcSettings | undefined;
}

/** The identity provider users may sign in through, and who among its users gets in, with which role. */
export interface OidcSettings {
  readonly issuer: string;
  readonly clientId: string;
  /** Undefined: a public client, which proves itself by PKCE alone. */
  readonly clientSecret: string | undefined;
  /** The provider's name on the sign-in button. */
  readonly name: string;
  /** The account (its id) new users join; undefined: the server's only account. */
  readonly account: string | undefined;
  readonly scopes: string;
  /** New users whose verified e-mail is in one of these domains get in, as `defaultRole`. */
  readonly allowedDomains: readonly string[];
  /** The claim listing the user's groups. */
  readonly groupsClaim: string;
  /**
   * Group → role: a user in a mapped group gets in with the highest role mapped; while any group is mapped, every
   * user's role is brought in step at each sign-in (`defaultRole` for one in no mapped group).
   */
  readonly roles: Readonly<Record<string, Role>>;
  readonly defaultRole: Role;
  /** Take an e-mail the provider does not say it verified (for providers that never say, and let no user choose). */
  readonly trustUnverifiedEmail: boolean;
}

export class ConfigError extends Error {}

const DEFAULT_PLAN_INTERVALS_MS: Readonly<Record<Plan, number>> = {
  free: 60_000,
  pro: 10_000,
  business: 1_000,
  unlimited: 0,
};

const DEFAULT_PLAN_MONITORS: Readonly<Record<Plan, number>> = {
  free: 100,
  pro: 1_000,
  business: 10_000,
  unlimited: 0,
};

const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
const LOG_FORMATS = ['pretty', 'json'] as const;

/** Settings a caller (CLI flags, tests) gives directly; they win over the environment. */
export type ConfigOverrides = Partial<{ -readonly [K in keyof Config]: Config[K] }>;

type Env = Record<string, string | undefined>;

/** The PINGMON_* variables once validated: converted and defaulted, durations still in seconds. */
interface Settings {
  PINGMON_HOST: string;
  PINGMON_PORT: number;
  PINGMON_TRUSTED_PROXIES: string[];
  PINGMON_DATA_DIR: string | undefined;
  PINGMON_DATABASE_URL: string | undefined;
  PINGMON_DATABASE_SCHEMA: string | undefined;
  PINGMON_DATABASE_POOL_SIZE: number;
  PINGMON_JWT_SECRET: string | undefined;
  PINGMON_TOKEN_TTL: number;
  PINGMON_BODY_LIMIT: number;
  PINGMON_PLAN_INTERVALS: Partial<Record<Plan, number>>;
  PINGMON_MONITOR_CACHE: number;
  PINGMON_PLAN_MONITORS: Partial<Record<Plan, number>>;
  PINGMON_LOG_LEVEL: Config['logLevel'];
  PINGMON_LOG_FORMAT: Config['logFormat'] | undefined;
  PINGMON_ALERT_TIMEOUT: number;
  PINGMON_ALERT_RETRY_BASE: number;
  PINGMON_ALERT_MAX_ATTEMPTS: number;
  PINGMON_CHANNELS_PUBLIC_ONLY: boolean;
  PINGMON_PUBLIC_URL: string | undefined;
  PINGMON_SMTP_URL: string | undefined;
  PINGMON_SMTP_FROM: string | undefined;
  PINGMON_SWEEP_INTERVAL: number;
  PINGMON_RETENTION_DAYS: number;
  PINGMON_RETENTION_RUNS: number;
  PINGMON_RETENTION_AUDIT_DAYS: number;
  PINGMON_PRUNE_INTERVAL: number;
  PINGMON_METRICS: boolean;
  PINGMON_METRICS_TOKEN: string | undefined;
  PINGMON_PASSWORD_SIGN_IN: boolean;
  PINGMON_OIDC_ISSUER: string | undefined;
  PINGMON_OIDC_CLIENT_ID: string | undefined;
  PINGMON_OIDC_CLIENT_SECRET: string | undefined;
  PINGMON_OIDC_NAME: string | undefined;
  PINGMON_OIDC_ACCOUNT: string | undefined;
  PINGMON_OIDC_SCOPES: string | undefined;
  PINGMON_OIDC_ALLOWED_DOMAINS: string[] | undefined;
  PINGMON_OIDC_GROUPS_CLAIM: string | undefined;
  PINGMON_OIDC_ROLES: Record<string, Role> | undefined;
  PINGMON_OIDC_DEFAULT_ROLE: Role | undefined;
  PINGMON_OIDC_TRUST_UNVERIFIED_EMAIL: boolean | undefined;
}

/**
 * Every failure of one setting gets one message: its name, what it must be, and the value as written
 * (`{{$NAME}}` reads the unconverted environment, which is the validation context).
 */
function mustBe(name: string, what: string, got = `{{$${name}}}`): Record<string, string> {
  return { '*': `${name} must be ${what} (got "${got}")` };
}

function port(name: string, got?: string): Joi.NumberSchema {
  return Joi.number()
    .integer()
    .min(0)
    .max(65535)
    .messages(mustBe(name, 'a port number from 0 to 65535', got));
}

const DURATIONS = {
  timer: { least: 0.001, what: 'longer than 0' },
  'timer or 0': { least: 0, what: '' },
  'whole seconds': { least: 1, what: 'of whole seconds above 0' },
} as const;

/**
 * A duration (docs/cli.md#durations), in seconds; a bare number is seconds, as these variables always took.
 * A timer's least value, 0.001, keeps it at least 1 ms once rounded, and it waits at most 24d (a longer wait
 * would fire at once). The token's lifetime is whole seconds and no timer.
 */
function duration(name: string, kind: keyof typeof DURATIONS): Joi.StringSchema {
  const { least, what } = DURATIONS[kind];
  const timer = kind !== 'whole seconds';
  return text
    .custom((value: string, helpers) => {
      const seconds = parseDuration(value);
      if (seconds === undefined || seconds < least) return helpers.error('any.invalid');
      const fits = timer ? seconds * 1_000 <= LONGEST_TIMER_MS : Number.isInteger(seconds);
      return fits ? seconds : helpers.error('any.invalid');
    })
    .messages({ '*': `${notADuration(name, `{{$${name}}}`, what)}${timer ? ', at most 24d' : ''}` });
}

function wholeNumber(name: string): Joi.NumberSchema {
  return Joi.number().integer().min(1).messages(mustBe(name, 'a positive whole number'));
}

/** A whole number to keep, or 0 to keep everything. */
function keepCount(name: string, what: string): Joi.NumberSchema {
  return Joi.number()
    .integer()
    .min(0)
    .messages(mustBe(name, `a whole number of ${what}, or 0 to keep everything`));
}

/** An empty variable counts as unset. */
const text = Joi.string().empty('');

/** A list of [plan, seconds] pairs, not an object: a key such as `__proto__` must be refused, not dropped. */
const planSeconds = Joi.array<Array<[Plan, number]>>().items(
  Joi.array().ordered(Joi.valid(...PLANS), Joi.string().custom(secondsOf)),
);

function secondsOf(value: string): number {
  const seconds = parseDuration(value);
  if (seconds === undefined) throw new Error('not a duration');
  return seconds;
}

/** "free=1m,pro=5s" (a bare number is seconds) names only the plans whose interval changes. */
const planIntervals = text
  .custom((value: string): Partial<Record<Plan, number>> => Object.fromEntries(Joi.attempt(pairs(value), planSeconds)))
  .messages({
    '*':
      `PINGMON_PLAN_INTERVALS must look like "free=1m,pro=10s" (plans: ${PLANS.join(', ')}; ` +
      `each ${DURATION_FORMS}), ` +
      'got "{{$PINGMON_PLAN_INTERVALS}}"',
  });

/** A list of [plan, count] pairs, as planSeconds. */
const planCounts = Joi.array<Array<[Plan, number]>>().items(
  Joi.array().ordered(Joi.valid(...PLANS), Joi.number().integer().min(0)),
);

/** "free=20,pro=500" names only the plans whose limit changes; 0 is no limit. */
const planMonitors = text
  .custom((value: string): Partial<Record<Plan, number>> => Object.fromEntries(Joi.attempt(pairs(value), planCounts)))
  .messages({
    '*':
      `PINGMON_PLAN_MONITORS must look like "free=20,pro=500" (plans: ${PLANS.join(', ')}; ` +
      'each a whole number of monitors, 0 for no limit), got "{{$PINGMON_PLAN_MONITORS}}"',
  });

/** "127.0.0.1, 10.0.0.0/8": IP addresses and CIDR ranges. */
const proxies = text
  .custom((value: string): string[] =>
    Joi.attempt(
      value.split(',').map((entry) => entry.trim()),
      Joi.array().items(Joi.string().ip({ version: ['ipv4', 'ipv6'], cidr: 'optional' })),
    ),
  )
  .messages(
    mustBe('PINGMON_TRUSTED_PROXIES', 'IP addresses or CIDR ranges separated by commas, e.g. "127.0.0.1,10.0.0.0/8"'),
  );

/** A setting of the identity provider: meaningless, so refused, without PINGMON_OIDC_ISSUER. */
function oidcSetting<T extends Joi.Schema>(name: string, schema: T): T {
  return schema.when('PINGMON_OIDC_ISSUER', { is: Joi.exist(), otherwise: Joi.forbidden() }).messages({
    'any.unknown':
      `${name} is set but PINGMON_OIDC_ISSUER is not: set the issuer to sign in through a provider, ` +
      `or unset ${name}`,
  }) as T;
}

/** A group name is anything before the last "="; "sre=admin, dev team=member". */
const groupRoles = text
  .custom((value: string): Record<string, Role> => {
    const entries = value.split(',').map((part) => {
      const at = part.lastIndexOf('=');
      const group = part.slice(0, at).trim();
      const role = part.slice(at + 1).trim();
      if (at < 1 || group === '' || !ROLES.includes(role as Role)) throw new Error('not group=role');
      return [group, role as Role] as const;
    });
    return Object.assign(Object.create(null) as Record<string, Role>, Object.fromEntries(entries));
  })
  .messages(
    mustBe(
      'PINGMON_OIDC_ROLES',
      `groups and roles like "pingmon-admins=admin,engineering=member" (roles: ${ROLES.join(', ')})`,
    ),
  );

const domains = text
  .custom((value: string): string[] =>
    Joi.attempt(
      value.split(',').map((entry) => entry.trim().toLowerCase().replace(/^@/, '')),
      Joi.array().items(Joi.string().domain({ tlds: false, minDomainSegments: 1 })),
    ),
  )
  .messages(
    mustBe('PINGMON_OIDC_ALLOWED_DOMAINS', 'e-mail domains separated by commas, e.g. "example.com,corp.example.com"'),
  );

// Checked in the order written: of several bad values, the message names the first.
const ENVIRONMENT = Joi.object<Settings>({
  PINGMON_HOST: text.default('127.0.0.1'),
  PINGMON_PORT: port('PINGMON_PORT').default(8080),
  PINGMON_TRUSTED_PROXIES: proxies.default([]),
  PINGMON_DATA_DIR: text,
  PINGMON_DATABASE_URL: text,
  PINGMON_DATABASE_SCHEMA: text,
  // Start-up holds two at once: the transaction with the migration lock, and knex's migration inside it.
  PINGMON_DATABASE_POOL_SIZE: Joi.number()
    .integer()
    .min(2)
    .messages(mustBe('PINGMON_DATABASE_POOL_SIZE', 'a whole number of 2 or more'))
    .default(10),
  PINGMON_JWT_SECRET: text,
  PINGMON_TOKEN_TTL: duration('PINGMON_TOKEN_TTL', 'whole seconds').default(86_400),
  PINGMON_BODY_LIMIT: wholeNumber('PINGMON_BODY_LIMIT').default(16 * 1024 * 1024),
  PINGMON_PLAN_INTERVALS: planIntervals.default({}),
  PINGMON_MONITOR_CACHE: Joi.number()
    .integer()
    .min(0)
    .messages(mustBe('PINGMON_MONITOR_CACHE', "a whole number of monitors, or 0 to read each ping's monitor"))
    .default(10_000),
  PINGMON_PLAN_MONITORS: planMonitors.default({}),
  PINGMON_LOG_LEVEL: Joi.string()
    .valid(...LOG_LEVELS)
    .default('info')
    .messages(mustBe('PINGMON_LOG_LEVEL', `one of ${LOG_LEVELS.join(', ')}`)),
  PINGMON_LOG_FORMAT: text
    .valid(...LOG_FORMATS)
    .messages(
      mustBe(
        'PINGMON_LOG_FORMAT',
        'pretty (lines for a person) or json (a JSON object a line), or unset: pretty on a terminal, json otherwise',
      ),
    ),
  PINGMON_ALERT_TIMEOUT: duration('PINGMON_ALERT_TIMEOUT', 'timer').default(10),
  PINGMON_ALERT_RETRY_BASE: duration('PINGMON_ALERT_RETRY_BASE', 'timer or 0').default(30),
  PINGMON_ALERT_MAX_ATTEMPTS: wholeNumber('PINGMON_ALERT_MAX_ATTEMPTS').default(8),
  PINGMON_CHANNELS_PUBLIC_ONLY: Joi.boolean()
    .truthy('1')
    .falsy('0')
    .empty('')
    .default(false)
    .messages(mustBe('PINGMON_CHANNELS_PUBLIC_ONLY', 'true, false, 1 or 0')),
  PINGMON_PUBLIC_URL: text
    .uri({ scheme: ['http', 'https'] })
    .replace(/\/+$/, '')
    .messages({
      '*': 'PINGMON_PUBLIC_URL must be the http(s) address users open pingmon at, e.g. https://pingmon.example.com',
    }),
  // Never quoted in a message: it holds the SMTP password.
  PINGMON_SMTP_URL: text.pattern(/^smtps?:\/\/[^/?#]+/i).messages({
    '*': 'PINGMON_SMTP_URL must be an smtp:// or smtps:// URL, e.g. smtps://user:password@smtp.example.com:465',
  }),
  PINGMON_SMTP_FROM: text
    .pattern(/^(?:[^<>@\s]+@[^<>@\s]+|[^<>]*<[^<>@\s]+@[^<>@\s]+>)$/)
    .when('PINGMON_SMTP_URL', { is: Joi.exist(), then: Joi.required(), otherwise: Joi.forbidden() })
    .messages({
      'string.pattern.base': mustBe('PINGMON_SMTP_FROM', 'an address or "Name <address>"')['*']!,
      'any.required':
        'PINGMON_SMTP_FROM must be set with PINGMON_SMTP_URL: the sender of alert e-mails, ' +
        'e.g. "pingmon <alerts@example.com>"',
      'any.unknown':
        'PINGMON_SMTP_FROM is set but PINGMON_SMTP_URL is not: set PINGMON_SMTP_URL to send e-mail, ' +
        'or unset PINGMON_SMTP_FROM',
    }),
  PINGMON_SWEEP_INTERVAL: duration('PINGMON_SWEEP_INTERVAL', 'timer').default(5),
  PINGMON_RETENTION_DAYS: keepCount('PINGMON_RETENTION_DAYS', 'days').default(90),
  PINGMON_RETENTION_RUNS: keepCount('PINGMON_RETENTION_RUNS', 'runs').default(10_000),
  PINGMON_RETENTION_AUDIT_DAYS: keepCount('PINGMON_RETENTION_AUDIT_DAYS', 'days').default(365),
  PINGMON_PRUNE_INTERVAL: duration('PINGMON_PRUNE_INTERVAL', 'timer').default(60),
  PINGMON_METRICS: Joi.boolean()
    .truthy('1')
    .falsy('0')
    .empty('')
    .default(false)
    .messages(mustBe('PINGMON_METRICS', 'true, false, 1 or 0')),
  // A token without metrics protects nothing: most likely PINGMON_METRICS was forgotten. Never quoted: a secret.
  // A scrape sends it as `Authorization: Bearer <token>`, which ends at the first blank: one could never match.
  PINGMON_METRICS_TOKEN: text
    .pattern(/^\S+$/)
    .when('PINGMON_METRICS', { is: true, otherwise: Joi.forbidden() })
    .messages({
      'string.pattern.base':
        'PINGMON_METRICS_TOKEN must not contain spaces or other blanks: a scrape sends it as ' +
        '"Authorization: Bearer <token>", which ends at the first one (make one with: openssl rand -hex 32)',
      'any.unknown':
        'PINGMON_METRICS_TOKEN is set but metrics are off: set PINGMON_METRICS=true to serve /metrics ' +
        'behind this token, or unset PINGMON_METRICS_TOKEN',
    }),
  PINGMON_PASSWORD_SIGN_IN: Joi.boolean()
    .truthy('1')
    .falsy('0')
    .empty('')
    .default(true)
    .messages(mustBe('PINGMON_PASSWORD_SIGN_IN', 'true, false, 1 or 0')),
  PINGMON_OIDC_ISSUER: text
    .uri({ scheme: ['http', 'https'] })
    .messages(
      mustBe('PINGMON_OIDC_ISSUER', "the identity provider's issuer URL, e.g. https://login.example.com/realms/acme"),
    ),
  // Never quoted in a message: the secret.
  PINGMON_OIDC_CLIENT_ID: oidcSetting('PINGMON_OIDC_CLIENT_ID', text)
    .when('PINGMON_OIDC_ISSUER', { is: Joi.exist(), then: Joi.required() })
    .messages({
      'any.required':
        'PINGMON_OIDC_CLIENT_ID must be set with PINGMON_OIDC_ISSUER: the client id pingmon was registered with at ' +
        'the provider',
    }),
  PINGMON_OIDC_CLIENT_SECRET: oidcSetting('PINGMON_OIDC_CLIENT_SECRET', text),
  PINGMON_OIDC_NAME: oidcSetting('PINGMON_OIDC_NAME', text.max(60)),
  PINGMON_OIDC_ACCOUNT: oidcSetting(
    'PINGMON_OIDC_ACCOUNT',
    text.pattern(/^acc_[A-Za-z0-9_-]+$/).messages({
      'string.pattern.base': mustBe(
        'PINGMON_OIDC_ACCOUNT',
        'an account id, acc_… (as pingmon admin create-account and pingmon login print it)',
      )['*']!,
    }),
  ),
  PINGMON_OIDC_SCOPES: oidcSetting('PINGMON_OIDC_SCOPES', text.pattern(/(^|\s)openid(\s|$)/)).messages({
    'string.pattern.base': mustBe('PINGMON_OIDC_SCOPES', 'scopes separated by spaces, openid among them')['*']!,
  }),
  PINGMON_OIDC_ALLOWED_DOMAINS: oidcSetting('PINGMON_OIDC_ALLOWED_DOMAINS', domains),
  PINGMON_OIDC_GROUPS_CLAIM: oidcSetting('PINGMON_OIDC_GROUPS_CLAIM', text),
  PINGMON_OIDC_ROLES: oidcSetting('PINGMON_OIDC_ROLES', groupRoles),
  PINGMON_OIDC_DEFAULT_ROLE: oidcSetting(
    'PINGMON_OIDC_DEFAULT_ROLE',
    Joi.string()
      .valid(...ROLES)
      .empty('')
      .messages(mustBe('PINGMON_OIDC_DEFAULT_ROLE', `one of ${ROLES.join(', ')}`)),
  ),
  PINGMON_OIDC_TRUST_UNVERIFIED_EMAIL: oidcSetting(
    'PINGMON_OIDC_TRUST_UNVERIFIED_EMAIL',
    Joi.boolean()
      .truthy('1')
      .falsy('0')
      .empty('')
      .messages(mustBe('PINGMON_OIDC_TRUST_UNVERIFIED_EMAIL', 'true, false, 1 or 0')),
  ),
});

/** What must hold whoever chose the value (environment, flag or caller); messages show the URL redacted. */
const CHOSEN = Joi.object<Pick<Config, 'databaseUrl' | 'port'>>({
  databaseUrl: Joi.string()
    .pattern(/^postgres(ql)?:\/\//)
    .messages({
      '*': 'database URL must start with postgres:// (got "{{$databaseUrl}}"); leave it unset to use embedded SQLite',
    }),
  // A flag's or caller's port is a number already: no environment to quote.
  port: port('--port', '{{#value}}'),
});

/** `terminal`: whether standard output is a terminal; it chooses the log's format when PINGMON_LOG_FORMAT does not. */
export function loadConfig(
  env: Env = process.env,
  overrides: ConfigOverrides = {},
  terminal = process.stdout.isTTY === true,
): Config {
  const settings = validate(ENVIRONMENT, env, env);
  const logFormat = settings.PINGMON_LOG_FORMAT ?? (terminal ? 'pretty' : 'json');
  const fromEnv: Config = {
    host: settings.PINGMON_HOST,
    port: settings.PINGMON_PORT,
    trustedProxies: settings.PINGMON_TRUSTED_PROXIES,
    dataDir: settings.PINGMON_DATA_DIR ?? defaultDataDir(env),
    databaseUrl: settings.PINGMON_DATABASE_URL,
    databaseSchema: settings.PINGMON_DATABASE_SCHEMA,
    databasePoolSize: settings.PINGMON_DATABASE_POOL_SIZE,
    databaseIdleInTransactionMs: 60_000,
    jwtSecret: settings.PINGMON_JWT_SECRET,
    tokenTtlSeconds: settings.PINGMON_TOKEN_TTL,
    bodyLimitBytes: settings.PINGMON_BODY_LIMIT,
    planIntervalsMs: { ...DEFAULT_PLAN_INTERVALS_MS, ...inMs(settings.PINGMON_PLAN_INTERVALS) },
    planMonitors: { ...DEFAULT_PLAN_MONITORS, ...settings.PINGMON_PLAN_MONITORS },
    apiKeyCacheMs: 5_000,
    monitorCacheSize: settings.PINGMON_MONITOR_CACHE,
    logLevel: settings.PINGMON_LOG_LEVEL,
    logFormat,
    // no-color.org: set and not empty.
    logColor: logFormat === 'pretty' && terminal && !env.NO_COLOR,
    alertTimeoutMs: toMs(settings.PINGMON_ALERT_TIMEOUT),
    alertRetryBaseMs: toMs(settings.PINGMON_ALERT_RETRY_BASE),
    alertMaxAttempts: settings.PINGMON_ALERT_MAX_ATTEMPTS,
    alertPollMs: 1_000,
    channelsPublicOnly: settings.PINGMON_CHANNELS_PUBLIC_ONLY,
    publicUrl: settings.PINGMON_PUBLIC_URL,
    smtpUrl: settings.PINGMON_SMTP_URL,
    smtpFrom: settings.PINGMON_SMTP_FROM,
    sweepIntervalMs: toMs(settings.PINGMON_SWEEP_INTERVAL),
    retentionMs: settings.PINGMON_RETENTION_DAYS === 0 ? null : settings.PINGMON_RETENTION_DAYS * 86_400_000,
    retentionRuns: settings.PINGMON_RETENTION_RUNS === 0 ? null : settings.PINGMON_RETENTION_RUNS,
    auditRetentionMs:
      settings.PINGMON_RETENTION_AUDIT_DAYS === 0 ? null : settings.PINGMON_RETENTION_AUDIT_DAYS * 86_400_000,
    pruneIntervalMs: toMs(settings.PINGMON_PRUNE_INTERVAL),
    clock: Date.now,
    metrics: settings.PINGMON_METRICS,
    metricsToken: settings.PINGMON_METRICS_TOKEN,
    passwordSignIn: settings.PINGMON_PASSWORD_SIGN_IN,
    oidc: oidcOf(settings),
  };
  const config = { ...fromEnv, ...definedOnly(overrides) };
  const shown = config.databaseUrl === undefined ? {} : { databaseUrl: redactUrl(config.databaseUrl) };
  validate(CHOSEN, config, shown);
  signInPossible(config);
  return Object.freeze(config);
}

function oidcOf(settings: Settings): OidcSettings | undefined {
  if (settings.PINGMON_OIDC_ISSUER === undefined) return undefined;
  return {
    issuer: settings.PINGMON_OIDC_ISSUER,
    // Required with the issuer: ENVIRONMENT refused its absence.
    clientId: settings.PINGMON_OIDC_CLIENT_ID!,
    clientSecret: settings.PINGMON_OIDC_CLIENT_SECRET,
    name: settings.PINGMON_OIDC_NAME ?? 'single sign-on',
    account: settings.PINGMON_OIDC_ACCOUNT,
    scopes: settings.PINGMON_OIDC_SCOPES ?? 'openid email profile',
    allowedDomains: settings.PINGMON_OIDC_ALLOWED_DOMAINS ?? [],
    groupsClaim: settings.PINGMON_OIDC_GROUPS_CLAIM ?? 'groups',
    roles: settings.PINGMON_OIDC_ROLES ?? {},
    defaultRole: settings.PINGMON_OIDC_DEFAULT_ROLE ?? 'viewer',
    trustUnverifiedEmail: settings.PINGMON_OIDC_TRUST_UNVERIFIED_EMAIL ?? false,
  };
}

/** Whoever chose the settings: someone must be able to sign in, and the provider must know where to send them back. */
function signInPossible(config: Config): void {
  if (config.oidc && config.publicUrl === undefined)
    throw new ConfigError(
      'PINGMON_PUBLIC_URL must be set with PINGMON_OIDC_ISSUER: the provider sends users back to ' +
        '<PINGMON_PUBLIC_URL>/api/v1/auth/oidc/callback, the redirect URI to register for pingmon at the provider',
    );
  if (!config.passwordSignIn && !config.oidc)
    throw new ConfigError(
      'PINGMON_PASSWORD_SIGN_IN=false needs PINGMON_OIDC_ISSUER: with neither, nobody could sign in. ' +
        'Set up an identity provider (docs/configuration.md#single-sign-on), or leave password sign-in on',
    );
}

/** Once, at the edge (as hapi's lib/config.js does): the first failure becomes the one-line message. */
function validate<T>(schema: Joi.ObjectSchema<T>, value: object, context: object): T {
  const result = schema.validate(value, { context, stripUnknown: true });
  if (result.error) throw new ConfigError(result.error.message);
  return result.value;
}

export function defaultDataDir(env: Env): string {
  const base = env.XDG_DATA_HOME || join(env.HOME || homedir(), '.local', 'share');
  return join(base, 'pingmon');
}

/** A database URL fit for messages: any password, in the user part or the query, replaced by ***. */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.replace(/\/\/.*@/, '//***@').replace(/password=[^&]*/gi, 'password=***');
  }
  if (parsed.password) parsed.password = '***';
  for (const key of [...parsed.searchParams.keys()]) if (/pass/i.test(key)) parsed.searchParams.set(key, '***');
  const text = parsed.toString();
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** "free=60, pro=" → [['free', '60'], ['pro', '']]: joi converts the seconds and refuses what is left empty. */
function pairs(value: string): Array<[string, string]> {
  return value.split(',').map((part) => {
    const [plan = '', seconds = ''] = part.split('=').map((s) => s.trim());
    return [plan, seconds];
  });
}

function inMs(secondsOf: Partial<Record<Plan, number>>): Partial<Record<Plan, number>> {
  return Object.fromEntries(Object.entries(secondsOf).map(([plan, n]) => [plan, toMs(n)]));
}

function toMs(seconds: number): number {
  return Math.round(seconds * 1000);
}
