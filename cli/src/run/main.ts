import { parseArgs } from 'node:util';
import { parseDuration } from '../duration.js';
import { readSettings, resolveSetting } from '../settings.js';
import type { StoredSettings } from '../settings.js';
import type { LogKeep } from './capture.js';
import { runJob } from './job.js';
import type { Job } from './job.js';
import { parseMetaLines } from './meta.js';

export interface RunOption {
  type: 'string';
  short?: string;
  multiple?: boolean;
  default?: string;
  choices?: readonly string[];
  description: string;
}

/** The flags of `pingmon run`, defined once: parsed here, and shown by `pingmon run --help`. */
export const RUN_OPTIONS = {
  monitor: { type: 'string', short: 'm', description: 'monitor to report to [env: PINGMON_MONITOR]' },
  'api-key': { type: 'string', description: 'account API key [env: PINGMON_API_KEY]' },
  url: { type: 'string', description: 'pingmon server, e.g. http://127.0.0.1:8080 [env: PINGMON_URL]' },
  meta: { type: 'string', multiple: true, description: 'numeric metadata key=number for alert rules (repeatable)' },
  'log-keep': {
    type: 'string',
    default: 'head-tail',
    choices: ['head-tail', 'head', 'tail'],
    description: 'which part of the output to keep as the log',
  },
  timeout: { type: 'string', description: 'kill the command after this long (e.g. 90s, 15m, 2h) and report it failed' },
  'kill-grace': { type: 'string', default: '10s', description: 'after a timeout, time between SIGTERM and SIGKILL' },
  'ping-timeout': {
    type: 'string',
    default: '20s',
    description: 'time each ping may take, retries included, before a warning',
  },
} as const satisfies Record<string, RunOption>;

class UsageError extends Error {}

/**
 * `pingmon run [flags] -- command [args…]`; answers the exit code to leave with. Started without
 * oclif (see bin/run.js): it sits on the path of every cron job.
 */
export async function main(argv: string[]): Promise<number> {
  let job;
  try {
    job = jobFrom(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`pingmon: ${err.message}\n`);
    return 2;
  }
  return runJob(job);
}

function jobFrom(argv: string[]): Job {
  // The command is taken from the raw arguments after --, exactly as given.
  const dash = argv.indexOf('--');
  if (dash === -1 || dash === argv.length - 1) {
    throw new UsageError(
      'missing the command to run: put it after --, e.g. pingmon run --monitor mon_… -- /opt/backup.sh',
    );
  }
  const [command, ...args] = argv.slice(dash + 1) as [string, ...string[]];
  let values: Record<string, string | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv.slice(0, dash),
      options: RUN_OPTIONS,
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new UsageError(`${(err as Error).message.split('\n')[0]} (see pingmon run --help)`);
  }
  const flag = (name: keyof typeof RUN_OPTIONS) => values[name] as string | undefined;
  const stored = storedSettings();
  const monitorId = resolveSetting('monitor', flag('monitor'), stored);
  const apiKey = resolveSetting('api-key', flag('api-key'), stored);
  const url = resolveSetting('url', flag('url'), stored);
  if (!monitorId)
    throw new UsageError(
      'missing the monitor: add --monitor mon_… (or set PINGMON_MONITOR, or run `pingmon config set monitor mon_…`)',
    );
  if (!apiKey)
    throw new UsageError(
      'missing the API key: add --api-key pm_… (or set PINGMON_API_KEY, or run `pingmon config set api-key pm_…`)',
    );
  if (!url)
    throw new UsageError(
      'missing the server URL: add --url http://host:8080 (or set PINGMON_URL, or run `pingmon login`)',
    );
  if (!/^https?:\/\/[^/]/.test(url) || !URL.canParse(url))
    throw new UsageError(`the server URL must be http(s)://host[:port] (got "${url}")`);
  const meta = parseMetaLines((values.meta as string[] | undefined) ?? [], '--meta');
  if (!meta.ok) throw new UsageError(meta.error);
  const logKeep = flag('log-keep') ?? RUN_OPTIONS['log-keep'].default;
  if (!RUN_OPTIONS['log-keep'].choices.includes(logKeep as LogKeep))
    throw new UsageError(`--log-keep must be one of head-tail, head, tail (got "${logKeep}")`);
  return {
    command,
    args,
    monitorId,
    apiKey,
    url,
    meta: meta.meta,
    logKeep: logKeep as LogKeep,
    timeoutMs: duration('timeout', flag('timeout') ?? '0'),
    killGraceMs: duration('kill-grace', flag('kill-grace') ?? RUN_OPTIONS['kill-grace'].default),
    pingBudgetMs: positive(
      'ping-timeout',
      duration('ping-timeout', flag('ping-timeout') ?? RUN_OPTIONS['ping-timeout'].default),
    ),
  };
}

/** The config file's settings; a file that cannot be read is reported and left out, never a reason not to run. */
function storedSettings(): StoredSettings {
  try {
    return readSettings();
  } catch (err) {
    process.stderr.write(`[pingmon] ${(err as Error).message}\n`);
    return {};
  }
}

function positive(name: string, ms: number): number {
  if (ms <= 0) throw new UsageError(`--${name} must be longer than 0 (e.g. 20s)`);
  return ms;
}

function duration(name: string, value: string): number {
  const ms = parseDuration(value);
  if (ms === undefined) throw new UsageError(`--${name} must be a duration such as 90s, 15m or 2h (got "${value}")`);
  return ms;
}
