import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Plan } from '@pingmon/sdk/wire';

export interface Config {
  readonly host: string;
  readonly port: number;
  /** Directory of the embedded SQLite database; unused with a PostgreSQL URL. */
  readonly dataDir: string;
  /** `postgres://…` to use PostgreSQL; undefined for embedded SQLite. */
  readonly databaseUrl: string | undefined;
  /** PostgreSQL schema to keep pingmon's tables in (created when missing). */
  readonly databaseSchema: string | undefined;
  /** HS256 secret for user tokens; generated once and stored in the database when unset. */
  readonly jwtSecret: string | undefined;
  readonly tokenTtlSeconds: number;
  readonly bodyLimitBytes: number;
  /** Minimum time between two run openings of one monitor, per plan. */
  readonly planIntervalsMs: Readonly<Record<Plan, number>>;
  readonly apiKeyCacheMs: number;
  readonly logLevel: 'info' | 'warn' | 'error' | 'silent';
  /** Time allowed for one HTTP attempt to deliver an alert (and for a channel test). */
  readonly alertTimeoutMs: number;
  /** Wait after an alert delivery's first failed attempt; doubled after each further one. */
  readonly alertRetryBaseMs: number;
  /** Attempts per alert and channel, the first one included. */
  readonly alertMaxAttempts: number;
  /** How often each server reads the alert outbox when nothing wakes it sooner. */
  readonly alertPollMs: number;
}

export class ConfigError extends Error {}

export const PLANS: readonly Plan[] = ['free', 'pro', 'business', 'unlimited'];

const DEFAULT_PLAN_INTERVALS_MS: Record<Plan, number> = { free: 60_000, pro: 10_000, business: 1_000, unlimited: 0 };

/** Settings a caller (CLI flags, tests) gives directly; they win over the environment. */
export type ConfigOverrides = Partial<{ -readonly [K in keyof Config]: Config[K] }>;

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env, overrides: ConfigOverrides = {}): Config {
  const fromEnv: Config = {
    host: env.PINGMON_HOST || '127.0.0.1',
    port: parsePort(env.PINGMON_PORT ?? '8080', 'PINGMON_PORT'),
    dataDir: env.PINGMON_DATA_DIR || defaultDataDir(env),
    databaseUrl: env.PINGMON_DATABASE_URL || undefined,
    databaseSchema: env.PINGMON_DATABASE_SCHEMA || undefined,
    jwtSecret: env.PINGMON_JWT_SECRET || undefined,
    tokenTtlSeconds: parsePositiveInt(env.PINGMON_TOKEN_TTL ?? '86400', 'PINGMON_TOKEN_TTL'),
    bodyLimitBytes: parsePositiveInt(env.PINGMON_BODY_LIMIT ?? String(16 * 1024 * 1024), 'PINGMON_BODY_LIMIT'),
    planIntervalsMs: parsePlanIntervals(env.PINGMON_PLAN_INTERVALS),
    apiKeyCacheMs: 5_000,
    logLevel: parseLogLevel(env.PINGMON_LOG_LEVEL ?? 'info'),
    alertTimeoutMs: parseSeconds(env.PINGMON_ALERT_TIMEOUT ?? '10', 'PINGMON_ALERT_TIMEOUT', 0.001),
    alertRetryBaseMs: parseSeconds(env.PINGMON_ALERT_RETRY_BASE ?? '30', 'PINGMON_ALERT_RETRY_BASE', 0),
    alertMaxAttempts: parsePositiveInt(env.PINGMON_ALERT_MAX_ATTEMPTS ?? '8', 'PINGMON_ALERT_MAX_ATTEMPTS'),
    alertPollMs: 1_000,
  };
  const config = { ...fromEnv, ...definedOnly(overrides) };
  if (config.databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(config.databaseUrl)) {
    throw new ConfigError(`database URL must start with postgres:// (got "${redactUrl(config.databaseUrl)}"); leave it unset to use embedded SQLite`);
  }
  parsePort(String(config.port), '--port');
  return Object.freeze(config);
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

function parsePort(value: string, name: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`${name} must be a port number from 0 to 65535 (got "${value}")`);
  }
  return port;
}

function parsePositiveInt(value: string, name: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new ConfigError(`${name} must be a positive whole number (got "${value}")`);
  return n;
}

/** Seconds, fractions allowed, at least `min`; in milliseconds. */
function parseSeconds(value: string, name: string, min: number): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < min) throw new ConfigError(`${name} must be a number of seconds${min > 0 ? ' above 0' : ''} (got "${value}")`);
  return Math.round(n * 1000);
}

function parseLogLevel(value: string): Config['logLevel'] {
  if (value === 'info' || value === 'warn' || value === 'error' || value === 'silent') return value;
  throw new ConfigError(`PINGMON_LOG_LEVEL must be one of info, warn, error, silent (got "${value}")`);
}

/** "free=60,pro=5" (seconds) overrides the default intervals of those plans. */
function parsePlanIntervals(value: string | undefined): Record<Plan, number> {
  const intervals = { ...DEFAULT_PLAN_INTERVALS_MS };
  if (!value) return intervals;
  for (const part of value.split(',')) {
    const [plan, seconds] = part.split('=').map((s) => s.trim());
    const n = Number(seconds);
    if (!PLANS.includes(plan as Plan) || seconds === undefined || seconds === '' || !Number.isFinite(n) || n < 0) {
      throw new ConfigError(`PINGMON_PLAN_INTERVALS must look like "free=60,pro=10" (plans: ${PLANS.join(', ')}; seconds ≥ 0), got "${value}"`);
    }
    intervals[plan as Plan] = Math.round(n * 1000);
  }
  return intervals;
}
