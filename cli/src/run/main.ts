import { DURATION_FORMS, LONGEST_TIMER_MS, notADuration, parseDurationMs, redactPattern } from '@pingmon/sdk';
import type { RedactOptions } from '@pingmon/sdk';
import { backgroundFlushFor, notAServerUrl, readSettings, resolveSetting } from '../settings.js';
import { backgroundFlusher } from './background-flush.js';
import type { SettingKey, StoredSettings } from '../settings.js';
import type { LogKeep } from './capture.js';
import { RUN_OPTIONS, readFlags } from './flags.js';
import type { ReadFlags, RunFlag } from './flags.js';
import { runJob } from './job.js';
import type { Job } from './job.js';
import { parseMetaLines } from './meta.js';
import type { ReportTo } from './report.js';
import { monitorSettings } from './settings.js';
import { warn } from './warn.js';

/** A command line pingmon cannot run at all: no command, or flags that say how to run it that it cannot read. */
class UsageError extends Error {}

/**
 * `pingmon run [flags] -- command [args…]`; answers the exit code to leave with. bin/run.js starts it without
 * oclif, for start-up: it sits on the path of every cron job.
 *
 * Monitoring never stops the job: what pingmon cannot use for reporting (a missing API key, monitor or URL, an
 * unknown flag, a bad --meta) is said on stderr and the job runs. Only a command line that does not say what to
 * run, or how (--timeout, --kill-grace), is refused, with exit 2.
 */
export async function main(argv: string[], cli: string): Promise<number> {
  let plan: { job: Job; warnings: string[] };
  try {
    plan = planFrom(argv, cli);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`pingmon: ${err.message}\n`);
    return 2;
  }
  for (const warning of plan.warnings) warn(warning);
  return runJob(plan.job);
}

/** `cli`: bin/run.js, started again, detached, to deliver what this run keeps in the spool. */
function planFrom(argv: string[], cli: string): { job: Job; warnings: string[] } {
  // The command is taken from the raw arguments after --, exactly as given.
  const dash = argv.indexOf('--');
  if (dash === -1 || dash === argv.length - 1) {
    throw new UsageError(
      'missing the command to run: put it after --, e.g. pingmon run --monitor nightly-backup -- /opt/backup.sh',
    );
  }
  const [command, ...args] = argv.slice(dash + 1) as [string, ...string[]];
  const flags = readFlags(argv.slice(0, dash));
  const warnings = [...flags.ignored];
  // A duration without its value is said where it is read (and --timeout, --kill-grace refuse to run).
  const durations = new Set<RunFlag>(['timeout', 'kill-grace', 'ping-timeout']);
  for (const name of flags.valueless) if (!durations.has(name)) warnings.push(`--${name} has no value: ignored`);
  const timeoutMs = duration(flags, 'timeout', '0');
  const killGraceMs = duration(flags, 'kill-grace', RUN_OPTIONS['kill-grace'].default);
  const found = reportTo(flags, cli, warnings);
  // Read even when nothing is sent: a mistake shows when the line is tried by hand.
  const settings = monitorSettings(flags, warnings);
  const destination = found && { ...found, settings, redact: redactOptions(flags, warnings) };
  const sent = reported(flags, warnings);
  if (!destination) warnings.push('this run is NOT reported to pingmon: the job runs as usual, and nothing is sent');
  return { job: { command, args, timeoutMs, killGraceMs, ...sent, reportTo: destination }, warnings };
}

const HOW_TO_SET: Record<'monitor' | 'api-key' | 'url', string> = {
  monitor:
    'missing the monitor: add --monitor nightly-backup (its slug or mon_… id; ' +
    'or set PINGMON_MONITOR, or run `pingmon config set monitor …`)',
  'api-key':
    'missing the API key: add --api-key pm_… ' + '(or set PINGMON_API_KEY, or run `pingmon config set api-key pm_…`)',
  url: 'missing the server URL: add --url http://host:8080 (or set PINGMON_URL, or run `pingmon login`)',
};

/** Where to report, from flags, environment and config file; undefined, with the reasons in `warnings`, if nowhere. */
function reportTo(
  flags: ReadFlags,
  cli: string,
  warnings: string[],
): Omit<ReportTo, 'settings' | 'redact'> | undefined {
  const stored = storedSettings(warnings);
  const setting = (key: SettingKey & RunFlag) => {
    const value = resolveSetting(key, flags.values[key], stored);
    if (!value) warnings.push(HOW_TO_SET[key]);
    return value;
  };
  const [monitorId, apiKey, url] = [setting('monitor'), setting('api-key'), setting('url')];
  const problem = url ? notAServerUrl(url) : undefined;
  if (problem) {
    warnings.push(`the server URL ${problem}: fix --url, PINGMON_URL or \`pingmon config set url\``);
    return undefined;
  }
  if (!monitorId || !apiKey || !url) return undefined;
  const budget = flags.valueless.has('ping-timeout')
    ? ''
    : (flags.values['ping-timeout'] ?? RUN_OPTIONS['ping-timeout'].default);
  let pingBudgetMs = parseDurationMs(budget);
  if (!pingBudgetMs) {
    warnings.push(`--ping-timeout must be a duration longer than 0 such as 2s (got "${budget}"): using 2s`);
    pingBudgetMs = parseDurationMs(RUN_OPTIONS['ping-timeout'].default)!;
  }
  const flushFor = backgroundFlushFor();
  if (flushFor.warning) warnings.push(flushFor.warning);
  const onSpooled = flushFor.ms > 0 ? backgroundFlusher(cli, flushFor.ms, warn) : undefined;
  return { monitorId, apiKey, url, pingBudgetMs, onSpooled, live: !flags.switches.has('no-live') };
}

/** What is sent with the result: a flag pingmon cannot read is left out with a warning, never a reason not to run. */
function reported(flags: ReadFlags, warnings: string[]): Pick<Job, 'meta' | 'logKeep'> {
  const meta: Record<string, number> = {};
  for (const value of flags.meta) {
    const parsed = parseMetaLines([value], '--meta');
    if (parsed.ok) Object.assign(meta, parsed.meta);
    else warnings.push(`${parsed.error}: ignored`);
  }
  const logKeep = flags.values['log-keep'] ?? RUN_OPTIONS['log-keep'].default;
  if (RUN_OPTIONS['log-keep'].choices.includes(logKeep as LogKeep)) return { meta, logKeep: logKeep as LogKeep };
  warnings.push(`--log-keep must be one of head-tail, head, tail (got "${logKeep}"): using head-tail`);
  return { meta, logKeep: 'head-tail' };
}

/** Which environment variables hold secrets; a pattern that is no regular expression is left out, with a warning. */
function redactOptions(flags: ReadFlags, warnings: string[]): RedactOptions {
  const pattern = flags.values['redact-pattern'] ?? process.env.PINGMON_REDACT_PATTERN;
  try {
    if (pattern) redactPattern(pattern);
  } catch (err) {
    warnings.push(`${(err as Error).message}: ignored (the built-in shapes and names are still redacted)`);
    return { env: flags.redactEnv, pattern: '' };
  }
  return { env: flags.redactEnv, pattern };
}

/** The config file's settings; a file that cannot be read is reported and left out, never a reason not to run. */
function storedSettings(warnings: string[]): StoredSettings {
  try {
    return readSettings();
  } catch (err) {
    warnings.push((err as Error).message);
    return {};
  }
}

/** --timeout and --kill-grace say how the job runs: pingmon does not guess them, it refuses to run. */
function duration(flags: ReadFlags, name: 'timeout' | 'kill-grace', fallback: string): number {
  if (flags.valueless.has(name)) {
    throw new UsageError(`--${name} needs ${DURATION_FORMS}; the job was not run`);
  }
  const value = flags.values[name] ?? fallback;
  const ms = parseDurationMs(value);
  if (ms === undefined) throw new UsageError(`${notADuration(`--${name}`, value)}; the job was not run`);
  if (ms > LONGEST_TIMER_MS)
    throw new UsageError(`--${name} must be at most 24d (got "${value}"); the job was not run`);
  return ms;
}
