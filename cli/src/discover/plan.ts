import type { Monitor } from '@pingmon/sdk';
import { jobsOf } from './crontab.js';
import type { CronJob, Crontab } from './crontab.js';
import { propose, uniqueSlug } from './propose.js';
import { readWrapped, resyncLine, sameSchedule, wrapLine } from './wrap.js';
import type { Pingmon, Wrapped } from './wrap.js';

// What `pingmon discover` will do, decided before anything is done: per job a slug, a name, the monitor to create
// or sync, the line it becomes; and the monitors of lines that are gone.

/** A job as proposed, and as the person reviewing the list left it. */
export interface Candidate {
  job: CronJob;
  wrapped?: Wrapped;
  slug: string;
  name: string;
  /** false: the line is left as it is, and no monitor made. */
  include: boolean;
}

export type MonitorAction = 'create' | 'update' | 'unchanged';

export interface JobPlan {
  line: number;
  user?: string;
  schedule: { cron: string; timezone: string };
  command: string;
  slug: string;
  name: string;
  /** The line was wrapped by `pingmon run` already. */
  wrapped: boolean;
  action: MonitorAction;
  before: string;
  after: string;
}

export interface Plan {
  jobs: JobPlan[];
  skipped: Array<{ line: number; reason: string }>;
  notes: string[];
  /** Monitors made for lines of this crontab that are no longer in it: reported, never deleted. */
  gone: string[];
  before: string;
  after: string;
}

/** A slug and name for each job: a wrapped line keeps its monitor, the others get names unique in the crontab. */
export function candidates(crontab: Crontab): Candidate[] {
  const jobs = jobsOf(crontab).map((job) => ({ job, wrapped: readWrapped(job) }));
  const taken = new Set(jobs.flatMap(({ wrapped }) => (wrapped?.monitor ? [wrapped.monitor] : [])));
  return jobs.map(({ job, wrapped }) => {
    const proposal = propose(wrapped ? wrapped.command : job.command);
    if (wrapped) return { job, wrapped, slug: wrapped.monitor ?? '', name: proposal.name, include: !!wrapped.monitor };
    return { job, slug: uniqueSlug(proposal.slug, taken), name: proposal.name, include: true };
  });
}

/**
 * The plan, given what the server has (`monitors` by slug and id) and which slugs this crontab's lines had before
 * (`known`).
 */
export function planOf(
  crontab: Crontab,
  chosen: Candidate[],
  monitors: Map<string, Monitor>,
  known: string[],
  pingmon: Pingmon,
): Plan {
  const planned = chosen.filter((c) => c.include).map((c) => jobPlan(c, monitors.get(c.slug), pingmon));
  const { jobs, shared } = oneSchedulePerMonitor(planned);
  const after = new Map(jobs.map((job) => [job.line, job.after]));
  const lines = crontab.lines.map((line, i) => after.get(i + 1) ?? line.text);
  const current = new Set(jobs.map((job) => monitors.get(job.slug)?.monitorId ?? job.slug));
  const gone = known.filter((slug) => monitors.has(slug) && !current.has(monitors.get(slug)!.monitorId));
  const skipped = [
    ...crontab.lines.flatMap((line) =>
      line.kind === 'skipped' ? [{ line: line.lineNumber, reason: line.reason }] : [],
    ),
    ...chosen
      .filter((c) => !c.include)
      .map((c) => ({
        line: c.job.lineNumber,
        reason:
          c.wrapped && !c.wrapped.monitor
            ? 'wrapped by pingmon run without --monitor: left as it is'
            : 'left out in the review: left as it is',
      })),
  ].sort((a, b) => a.line - b.line);
  return {
    jobs,
    skipped,
    notes: [...crontab.notes, ...shared],
    gone,
    before: crontab.lines.map((line) => line.text).join('\n'),
    after: lines.join('\n'),
  };
}

/** Lines that report to one monitor: it is made or synced with the first one's schedule only, and that is said. */
function oneSchedulePerMonitor(planned: JobPlan[]): { jobs: JobPlan[]; shared: string[] } {
  const first = new Map<string, JobPlan>();
  const shared: string[] = [];
  const jobs = planned.map((job) => {
    const earlier = first.get(job.slug);
    if (!earlier) {
      first.set(job.slug, job);
      return job;
    }
    shared.push(
      `lines ${earlier.line} and ${job.line} report to ${job.slug}, which has one schedule (line ${earlier.line}'s ` +
        'here): give each line a slug of its own',
    );
    return { ...job, action: 'unchanged' as const };
  });
  return { jobs, shared };
}

function jobPlan(candidate: Candidate, monitor: Monitor | undefined, pingmon: Pingmon): JobPlan {
  const { job, wrapped, slug, name } = candidate;
  const schedule = { cron: job.cron, timezone: job.timezone };
  return {
    line: job.lineNumber,
    ...(job.user === undefined ? {} : { user: job.user }),
    schedule,
    command: wrapped ? wrapped.command : job.command.trim() + job.input,
    slug,
    name: monitor?.name ?? name,
    wrapped: wrapped !== undefined,
    action: !monitor ? 'create' : scheduleOf(monitor, schedule) ? 'unchanged' : 'update',
    before: job.head + job.command + job.input,
    after: wrapped ? resyncLine(job, wrapped) : wrapLine(job, slug, pingmon),
  };
}

function scheduleOf(monitor: Monitor, wanted: { cron: string; timezone: string }): boolean {
  const schedule = monitor.schedule;
  if (schedule === null || !('cron' in schedule)) return false;
  return sameSchedule(schedule.cron, wanted.cron) && (schedule.timezone ?? 'UTC') === wanted.timezone;
}

/** The lines that change, as a unified diff with no context (a line is only ever replaced by one line). */
export function diffText(plan: Plan, label: string): string {
  const before = plan.before.split('\n');
  const after = plan.after.split('\n');
  const hunks = before.flatMap((line, i) =>
    line === after[i] ? [] : [`@@ -${i + 1} +${i + 1} @@`, `-${line}`, `+${after[i]}`],
  );
  return hunks.length === 0 ? '' : [`--- ${label} (before)`, `+++ ${label} (after)`, ...hunks].join('\n');
}

/** Whether applying the plan changes anything. */
export function planChanges(plan: Plan): boolean {
  return plan.before !== plan.after || plan.jobs.some((job) => job.action !== 'unchanged');
}
