import type { Client, Monitor } from '@pingmon/sdk';
import { listAllMonitors } from '../client.js';
import { keepCopy, rememberSlugs } from './install.js';
import type { CrontabSource } from './install.js';
import type { JobPlan, Plan } from './plan.js';

// The monitors of a plan made or synced on the server. A job whose monitor the server refuses keeps its line as
// it was: it is not wrapped with settings the server will refuse at every run.

export interface Applied {
  plan: Plan;
  created: number;
  updated: number;
  failed: Array<{ line: number; slug: string; error: string }>;
}

/** The account's monitors by slug and by id: a wrapped line may name either. */
export async function monitorsByRef(client: Client): Promise<Map<string, Monitor>> {
  const monitors = await listAllMonitors(client);
  return new Map(monitors.flatMap((m) => [[m.slug, m] as const, [m.monitorId, m] as const]));
}

/**
 * The plan carried out: monitors made or synced, then, if a line changed, the old crontab copied (`copy`) and the
 * new one installed; the slugs of its lines remembered, to tell the monitors of lines that go later.
 */
export async function applyPlan(
  client: Client,
  source: CrontabSource,
  planned: Plan,
  now: Date,
): Promise<Applied & { copy?: string }> {
  const applied = await applyMonitors(client, planned);
  const { plan } = applied;
  let copy: string | undefined;
  if (plan.after !== plan.before) {
    copy = keepCopy(source, plan.before, now);
    // crontab(1) refuses a last line without its newline.
    await source.install(plan.after === '' || plan.after.endsWith('\n') ? plan.after : `${plan.after}\n`);
  }
  rememberSlugs(source, [...plan.jobs.map((job) => job.slug), ...plan.gone]);
  return copy === undefined ? applied : { ...applied, copy };
}

async function applyMonitors(client: Client, plan: Plan): Promise<Applied> {
  const applied: Applied = { plan, created: 0, updated: 0, failed: [] };
  const kept: JobPlan[] = [];
  for (const job of plan.jobs) {
    try {
      if (job.action === 'create') {
        await client.createMonitor({ name: job.name, slug: job.slug, schedule: job.schedule });
        applied.created++;
      } else if (job.action === 'update') {
        await client.updateMonitor(job.slug, { schedule: job.schedule });
        applied.updated++;
      }
      kept.push(job);
    } catch (err) {
      applied.failed.push({ line: job.line, slug: job.slug, error: (err as Error).message });
    }
  }
  if (applied.failed.length === 0) return applied;
  const lines = plan.after.split('\n');
  const before = plan.before.split('\n');
  for (const { line } of applied.failed) lines[line - 1] = before[line - 1]!;
  return { ...applied, plan: { ...plan, jobs: kept, after: lines.join('\n') } };
}
