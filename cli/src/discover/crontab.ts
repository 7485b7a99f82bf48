// A crontab read as cron reads it (crontab(5)): comments, environment lines, jobs with five fields or a macro, the
// user field of /etc/crontab and /etc/cron.d/*, and the `%` that ends the command cron gives the shell.

/** One line of a crontab: its text, and what cron makes of it. */
export type CrontabLine =
  | { kind: 'text'; text: string }
  | { kind: 'env'; text: string; name: string; value: string }
  | { kind: 'job'; text: string; job: CronJob }
  | { kind: 'skipped'; text: string; lineNumber: number; reason: string };

export interface CronJob {
  lineNumber: number;
  /** The schedule as written: `0 3 * * *`, `@daily`. */
  when: string;
  /** The five fields it stands for, one space apart. */
  cron: string;
  /** The IANA zone cron reads the schedule in: the line's CRON_TZ, else the host's. */
  timezone: string;
  /** The user field of a system crontab. */
  user?: string;
  /** The line up to its command, as written (schedule, user, the blanks after them). */
  head: string;
  /** The part cron gives the shell, as written (`\%` still escaped), and the rest from the first `%` on. */
  command: string;
  input: string;
  /** The SHELL and PATH the job runs with. */
  shell: string;
  path: string;
}

export interface Crontab {
  lines: CrontabLine[];
  /** Said once about the whole crontab (a TZ line, say). */
  notes: string[];
}

export interface ReadOptions {
  /** /etc/crontab and /etc/cron.d/*: a user field between the schedule and the command. */
  system: boolean;
  /** The zone of the host, where cron reads schedules without CRON_TZ. */
  hostZone: string;
}

const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/** cron's own defaults (crontab(5)); a crontab's SHELL and PATH lines change them for the lines below. */
const CRON_SHELL = '/bin/sh';
export const CRON_PATH = '/usr/bin:/bin';

const FIELD = /^[0-9A-Za-z*,/-]+$/;

export function readCrontab(text: string, options: ReadOptions): Crontab {
  const env = new Map<string, string>();
  const notes: string[] = [];
  const lines = text.split('\n').map((line, index): CrontabLine => {
    if (/^\s*(#|$)/.test(line)) return { kind: 'text', text: line };
    const setting = envLine(line);
    if (setting) {
      env.set(setting.name, setting.value);
      if (setting.name === 'TZ' && !notes.some((note) => note.startsWith('TZ=')))
        notes.push(
          "TZ= sets the jobs' environment, not the zone cron reads their schedules in: " +
            "schedules are read in CRON_TZ when set, else in the host's zone",
        );
      return { kind: 'env', text: line, ...setting };
    }
    const job = jobLine(line, index + 1, env, options);
    return 'reason' in job ? { kind: 'skipped', text: line, lineNumber: index + 1, reason: job.reason } : job;
  });
  return { lines, notes };
}

/** `NAME = value`, the value in matching quotes or not (crontab(5)); a job line never has `=` in its first word. */
function envLine(line: string): { name: string; value: string } | undefined {
  const match = /^\s*([^\s=]+)\s*=\s*(.*)$/.exec(line);
  if (!match) return undefined;
  const raw = match[2]!;
  const quoted = /^(["'])(.*)\1\s*$/.exec(raw);
  return { name: match[1]!, value: quoted ? quoted[2]! : raw.trimEnd() };
}

function jobLine(
  line: string,
  lineNumber: number,
  env: Map<string, string>,
  options: ReadOptions,
): { kind: 'job'; text: string; job: CronJob } | { reason: string } {
  const macro = /^\s*@/.test(line);
  const count = (macro ? 1 : 5) + (options.system ? 1 : 0);
  // The schedule (and user) fields, each with the blanks after it, then the command.
  const match = new RegExp(`^(\\s*(?:\\S+\\s+){${count}})(.*)$`).exec(line);
  if (!match) return { reason: 'not a job line cron can read: it is left as it is' };
  const head = match[1]!;
  const fields = head.trim().split(/\s+/);
  const user = options.system ? fields.pop() : undefined;
  const when = fields.join(' ');
  if (macro && when === '@reboot') return { reason: '@reboot runs at boot, not on a schedule: left as it is' };
  const cron = macro ? MACROS[when.toLowerCase()] : fields.every((f) => FIELD.test(f)) ? when : undefined;
  if (cron === undefined) return { reason: `"${when}" is not a schedule cron reads: left as it is` };
  const [command, input] = cutAtPercent(match[2]!);
  const job: CronJob = {
    lineNumber,
    when,
    cron,
    timezone: env.get('CRON_TZ') || options.hostZone,
    ...(user === undefined ? {} : { user }),
    head,
    command,
    input,
    shell: env.get('SHELL') || CRON_SHELL,
    path: env.get('PATH') || CRON_PATH,
  };
  return { kind: 'job', text: line, job };
}

/** cron's own reading: the first `%` not escaped by a backslash ends what the shell runs; the rest is its input. */
export function cutAtPercent(command: string): [string, string] {
  let escaped = false;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (escaped) escaped = false;
    else if (c === '\\') escaped = true;
    else if (c === '%') return [command.slice(0, i), command.slice(i)];
  }
  return [command, ''];
}

/** The jobs of a crontab, in order. */
export function jobsOf(crontab: Crontab): CronJob[] {
  return crontab.lines.flatMap((line) => (line.kind === 'job' ? [line.job] : []));
}

/** The host's zone as the monitor's schedule names it: `Etc/UTC` and the other names of UTC are `UTC`. */
export function hostZone(resolved = Intl.DateTimeFormat().resolvedOptions().timeZone): string {
  return /^(Etc\/)?(UTC|UCT|Universal|Zulu|GMT|GMT[+-]?0|Greenwich)$/.test(resolved) ? 'UTC' : resolved;
}

/** `/etc/crontab` and the files of `/etc/cron.d` have a user field. */
export function isSystemCrontab(path: string): boolean {
  const parts = path.split('/').filter(Boolean);
  return parts.at(-1) === 'crontab' || parts.at(-2) === 'cron.d';
}
