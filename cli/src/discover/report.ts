import { printTable } from '../output.js';
import { diffText } from './plan.js';
import type { Plan } from './plan.js';

// How a plan of `pingmon discover` is told: the jobs as a table, what was left out and why, the monitors whose
// line is gone, then the diff; or, with --json, as one object.

export function planLines(plan: Plan, label: string): string[] {
  const lines: string[] = [];
  if (plan.jobs.length > 0) {
    const rows = plan.jobs.map((job) => [
      String(job.line),
      job.slug,
      job.action,
      `${job.schedule.cron} (${job.schedule.timezone})`,
      job.name,
    ]);
    printTable(['LINE', 'SLUG', 'MONITOR', 'SCHEDULE', 'NAME'], rows, (line) => lines.push(line));
  } else {
    lines.push(`No job to monitor in ${label}.`);
  }
  for (const { line, reason } of plan.skipped) lines.push(`line ${line}: ${reason}`);
  for (const note of plan.notes) lines.push(`note: ${note}`);
  if (plan.gone.length > 0)
    lines.push(
      `No line runs ${plan.gone.join(', ')} any more: left as ${plan.gone.length === 1 ? 'it is' : 'they are'} ` +
        '(`pingmon monitors delete SLUG` deletes one).',
    );
  const diff = diffText(plan, label);
  if (diff) lines.push('', diff, '');
  return lines;
}

export function planJson(plan: Plan, label: string, more: object): object {
  return { ...plan, diff: diffText(plan, label), ...more };
}
