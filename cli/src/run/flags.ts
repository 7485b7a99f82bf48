import { parseArgs } from 'node:util';
import { SETTING_DESCRIPTIONS } from '../schedule-settings.js';
import type { ScheduleFlag } from '../schedule-settings.js';
import { didYouMean } from '../did-you-mean.js';

export interface RunOption {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
  default?: string;
  choices?: readonly string[];
  description: string;
}

/** The flags of `pingmon run`, defined once: read by run/main.ts, and shown by `pingmon run --help`. */
export const RUN_OPTIONS = {
  monitor: {
    type: 'string',
    short: 'm',
    description: 'monitor to report to, by id or slug [env: PINGMON_MONITOR]',
  },
  'api-key': { type: 'string', description: 'account API key [env: PINGMON_API_KEY]' },
  url: { type: 'string', description: 'pingmon server, e.g. http://127.0.0.1:8080 [env: PINGMON_URL]' },
  meta: { type: 'string', multiple: true, description: 'numeric metadata key=number for alert rules (repeatable)' },
  'log-keep': {
    type: 'string',
    default: 'head-tail',
    choices: ['head-tail', 'head', 'tail'],
    description: 'which part of the output to keep as the log',
  },
  timeout: {
    type: 'string',
    description: 'kill the command after this long (e.g. 90s, 10m, 1h30m, 2d) and report it failed',
  },
  'kill-grace': { type: 'string', default: '10s', description: 'after a timeout, time between SIGTERM and SIGKILL' },
  'redact-env': {
    type: 'string',
    multiple: true,
    description:
      'environment variable whose value is a secret, replaced with [redacted] in all that is sent ' +
      '(repeatable) [env: PINGMON_REDACT_ENV=NAME,NAME2]',
  },
  'redact-pattern': {
    type: 'string',
    description:
      'regular expression for names of environment variables whose values are secrets, in addition to the ' +
      'built-in one (names ending in TOKEN, SECRET, PASSWORD, API_KEY…) [env: PINGMON_REDACT_PATTERN]',
  },
  'ping-timeout': {
    type: 'string',
    default: '2s',
    description: 'time each ping may take, retries included, before it is kept in the spool for later',
  },
  'no-live': {
    type: 'boolean',
    description: "don't send the output while the job runs (live output, read by pingmon logs --follow)",
  },
  ...settingOptions(),
} as const satisfies Record<string, RunOption>;

/** The monitor's settings, sent with the start (as `monitors create` takes them): `pingmon run --help` shows them. */
function settingOptions() {
  const option = (name: ScheduleFlag) => ({ type: 'string', description: SETTING_DESCRIPTIONS[name] }) as const;
  return {
    cron: option('cron'),
    tz: option('tz'),
    every: option('every'),
    grace: option('grace'),
    'max-runtime': option('max-runtime'),
    'failure-threshold': option('failure-threshold'),
    'recovery-threshold': option('recovery-threshold'),
  };
}

export type RunFlag = keyof typeof RUN_OPTIONS;

export interface ReadFlags {
  /** The last value of each flag given with one; every value of --meta and of --redact-env. */
  values: Partial<Record<RunFlag, string>>;
  meta: string[];
  redactEnv: string[];
  /** Flags given without a value (or with an empty one). */
  valueless: Set<RunFlag>;
  /** The switches given (--no-live). */
  switches: Set<RunFlag>;
  /** What was not understood and is left out, said as `[pingmon]` warnings by the caller. */
  ignored: string[];
}

const isRunFlag = (name: string): name is RunFlag => Object.hasOwn(RUN_OPTIONS, name);

/**
 * The flags before `--`, read leniently: a word pingmon does not understand is left out and named in `ignored`,
 * so that the caller can still run the job (monitoring never stops it).
 */
export function readFlags(args: readonly string[]): ReadFlags {
  const read: ReadFlags = {
    values: {},
    meta: [],
    redactEnv: [],
    valueless: new Set(),
    switches: new Set(),
    ignored: [],
  };
  for (const token of tokensOf(args)) {
    if (token.kind === 'positional') {
      read.ignored.push(`unexpected argument "${token.value}" before --: ignored (see pingmon run --help)`);
    } else if (token.kind !== 'option') {
      continue;
    } else if (!isRunFlag(token.name)) {
      const names = Object.keys(RUN_OPTIONS).map((name) => `--${name}`);
      const suggestion = didYouMean(token.rawName.split('=')[0]!, names);
      read.ignored.push(`unknown option ${token.rawName}: ignored (${suggestion ?? 'see pingmon run --help'})`);
    } else if (RUN_OPTIONS[token.name].type === 'boolean') {
      // A switch: `--no-live` (a value given, as in --no-live=1, is taken as the switch too).
      read.switches.add(token.name);
    } else if (!token.value) {
      read.valueless.add(token.name);
    } else if (token.name === 'meta') {
      read.meta.push(token.value);
    } else if (token.name === 'redact-env') {
      read.redactEnv.push(...token.value.split(',').filter(Boolean));
    } else {
      read.values[token.name] = token.value;
    }
  }
  return read;
}

type Token = NonNullable<ReturnType<typeof parseArgs>['tokens']>[number];

/**
 * Tokens as lenient parsing gives them, except that a value looking like an option (`--monitor --timeout 2h`) is
 * taken as a missing value, as strict parsing would: otherwise `--timeout` would vanish into --monitor's value.
 */
function tokensOf(args: readonly string[]): Token[] {
  let words = [...args];
  for (;;) {
    const { tokens } = parseArgs({
      args: words,
      options: RUN_OPTIONS,
      strict: false,
      allowPositionals: true,
      tokens: true,
    });
    const swallowing = tokens.find(
      (token) => token.kind === 'option' && !token.inlineValue && token.value?.startsWith('-'),
    );
    if (!swallowing || swallowing.kind !== 'option') return tokens;
    // `--name=` is the same flag with an empty value; each pass settles one more word, so this ends.
    words = [...words.slice(0, swallowing.index), `--${swallowing.name}=`, ...words.slice(swallowing.index + 1)];
  }
}
