import { basename, dirname } from 'node:path';
import type { CronJob } from './crontab.js';
import { crontabWord, shellTokens } from './shell-words.js';
import type { Token } from './shell-words.js';

// A job's line wrapped in `pingmon run --monitor SLUG --cron '…' [--tz ZONE] -- COMMAND`, and read back.

/** How a rewritten line starts pingmon: its bin by full path, and node's too when cron's PATH would miss it. */
export interface Pingmon {
  bin: string;
  node: string;
}

/** A line already wrapped: the flags pingmon reads back, and where they are, to change them in place. */
export interface Wrapped {
  monitor?: string;
  cron?: Token;
  tz?: Token;
  /** Where `--` is: a flag that is missing goes before it. */
  dashAt: number;
  /** The command after `--`, as written. */
  command: string;
}

const FLAG_NAMES: Record<string, 'monitor' | 'cron' | 'tz'> = {
  '--monitor': 'monitor',
  '-m': 'monitor',
  '--cron': 'cron',
  '--tz': 'tz',
};

/** The `pingmon run` of a job's command, if it is one. */
export function readWrapped(job: CronJob): Wrapped | undefined {
  const tokens = shellTokens(job.command);
  let i = 0;
  while (tokens[i]?.kind === 'word' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(tokens[i]!.value)) i++;
  if (/^node(js)?$/.test(basename(tokens[i]?.value ?? ''))) i++;
  if (!['pingmon', 'run.js'].includes(basename(tokens[i]?.value ?? '')) || tokens[i + 1]?.value !== 'run') return;
  const found: Partial<Record<'monitor' | 'cron' | 'tz', Token>> = {};
  for (i += 2; i < tokens.length && tokens[i]!.value !== '--'; i++) {
    const token = tokens[i]!;
    const [flag, inline] = token.value.split(/=(.*)/s, 2);
    const name = FLAG_NAMES[flag!];
    if (!name) continue;
    if (inline !== undefined) {
      found[name] = { ...token, value: inline };
    } else if (tokens[i + 1] && tokens[i + 1]!.value !== '--') {
      found[name] = tokens[++i]!;
    }
  }
  const dash = tokens[i];
  if (!dash) return;
  return {
    ...(found.monitor ? { monitor: found.monitor.value } : {}),
    ...(found.cron ? { cron: found.cron } : {}),
    ...(found.tz ? { tz: found.tz } : {}),
    dashAt: dash.start,
    command: job.command.slice(dash.end).trim(),
  };
}

/** The job's line with its command run by `pingmon run`, reporting to `slug` with the line's schedule. */
export function wrapLine(job: CronJob, slug: string, pingmon: Pingmon): string {
  const command = job.command.trim();
  const trailing = job.command.slice(job.command.trimEnd().length);
  const run = `${pingmonRun(job, pingmon)} ${scheduleFlags(job, slug)} -- ${inner(job, command)}`;
  return `${job.head}${run}${trailing}${job.input}`;
}

/** A wrapped line whose `--cron` or `--tz` no longer says the line's schedule, said again; else the line itself. */
export function resyncLine(job: CronJob, wrapped: Wrapped): string {
  let missing = '';
  const edits: Array<{ start: number; end: number; text: string }> = [];
  const flag = (name: 'cron' | 'tz', token: Token | undefined, value: string | undefined) => {
    if (value === undefined || token?.value === value) return;
    if (!token) missing += `--${name} ${crontabWord(value)} `;
    else {
      const inline = job.command.slice(token.start).startsWith(`--${name}=`);
      edits.push({ start: token.start, end: token.end, text: `${inline ? `--${name}=` : ''}${crontabWord(value)}` });
    }
  };
  flag('cron', wrapped.cron, sameSchedule(wrapped.cron?.value, job.cron) ? wrapped.cron?.value : job.cron);
  flag('tz', wrapped.tz, wrapped.tz || job.timezone !== 'UTC' ? job.timezone : undefined);
  // The flags missing go just before `--`, after every flag there: edited from the end, no position moves.
  let command = job.command.slice(0, wrapped.dashAt) + missing + job.command.slice(wrapped.dashAt);
  for (const edit of edits.reverse()) command = command.slice(0, edit.start) + edit.text + command.slice(edit.end);
  return `${job.head}${command}${job.input}`;
}

/** Two cron expressions written alike, blanks aside. */
export function sameSchedule(a: string | undefined, b: string): boolean {
  return a !== undefined && a.trim().split(/\s+/).join(' ') === b;
}

function scheduleFlags(job: CronJob, slug: string): string {
  const tz = job.timezone === 'UTC' ? '' : ` --tz ${crontabWord(job.timezone)}`;
  return `--monitor ${crontabWord(slug)} --cron ${crontabWord(job.cron)}${tz}`;
}

/** pingmon's bin by its full path; behind node's when node is not on the line's PATH (cron's is short). */
function pingmonRun(job: CronJob, pingmon: Pingmon): string {
  const nodeOnPath = job.path.split(':').includes(dirname(pingmon.node));
  return `${nodeOnPath ? '' : `${crontabWord(pingmon.node)} `}${crontabWord(pingmon.bin)} run`;
}

/**
 * The command as `pingmon run` takes it. `pingmon run` starts a program without a shell: a plain program path with
 * plain arguments is given as it is; anything else runs in the crontab's shell, as cron would have run it.
 */
function inner(job: CronJob, command: string): string {
  if (/^\/[A-Za-z0-9_./,:@+-]*(\s+[A-Za-z0-9_./,:@+=-]+)*$/.test(command)) return command;
  // The command stays as written, `\%` included: cron un-escapes it inside the quotes as it did before.
  return `${crontabWord(job.shell)} -c '${command.replaceAll("'", `'\\''`)}'`;
}
