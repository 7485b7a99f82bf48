import type { Client, Monitor } from '@pingmon/sdk';
import { listAllMonitors } from '../client.js';
import type { Current, CurrentMonitor, Plan } from './plan.js';

// What `pingmon monitors export` and `pingmon apply` read of the account, and the plan carried out through the API.

/** Rule lists read at once: one request per monitor, a few at a time. */
const PARALLEL = 8;

/** The account's monitors with their settings and rules, and its channels. */
export async function readAccount(client: Client): Promise<Current> {
  const monitors = await listAllMonitors(client);
  const current: CurrentMonitor[] = [];
  for (let i = 0; i < monitors.length; i += PARALLEL) {
    const batch = monitors.slice(i, i + PARALLEL);
    const rules = await Promise.all(batch.map((m) => client.listRules(m.monitorId)));
    batch.forEach((m, j) => current.push(currentMonitor(m, rules[j]!.rules)));
  }
  const { channels } = await client.listChannels();
  return {
    monitors: current,
    channels: channels.map((c) => ({
      channelId: c.channelId,
      name: c.name,
      type: c.type,
      enabled: c.enabled,
      monitorIds: c.monitorIds,
    })),
  };
}

function currentMonitor(m: Monitor, rules: CurrentMonitor['rules']): CurrentMonitor {
  return {
    monitorId: m.monitorId,
    slug: m.slug,
    name: m.name,
    settings: {
      schedule: m.schedule,
      startGrace: m.startGrace,
      maxRuntime: m.maxRuntime,
      failureThreshold: m.failureThreshold,
      recoveryThreshold: m.recoveryThreshold,
      renotifyAfter: m.renotifyAfter,
      failAlerts: m.failAlerts,
      paused: m.paused,
    },
    rules: rules.map(({ ruleId, metric, op, value, baseline, window }) => ({
      ruleId,
      metric,
      op,
      value,
      baseline,
      window,
    })),
  };
}

/**
 * Carries the plan out: creates, updates, channel routing, then deletes (a channel may still route a monitor the
 * plan deletes until its routing changes). `done` is told each step as it is done, so that a failure halfway says
 * how far it got.
 */
export async function carryOut(client: Client, plan: Plan, done: (step: string) => void): Promise<void> {
  const ids = new Map<string, string>();
  for (const step of plan.monitors) {
    if (step.action === 'create') {
      const { slug, name, settings, rules } = step.monitor;
      await bySlug(slug, async () => {
        const created = await client.createMonitor({ slug, name, ...settings });
        ids.set(slug, created.monitorId);
        for (const rule of rules) await client.createRule(created.monitorId, rule);
      });
      done(`created ${slug}`);
    } else if (step.action === 'update') {
      await bySlug(step.slug, async () => {
        if (Object.keys(step.changes).length > 0) await client.updateMonitor(step.monitorId, step.changes);
        for (const rule of step.removeRules) await client.deleteRule(step.monitorId, rule.ruleId);
        for (const rule of step.addRules) await client.createRule(step.monitorId, rule);
      });
      done(`updated ${step.slug}`);
    }
    if (step.action !== 'create' && step.action !== 'delete') ids.set(step.slug, step.monitorId);
  }
  for (const step of plan.channels) {
    if (step.action !== 'update') continue;
    const monitorIds = step.monitors === 'all' ? null : [...new Set(step.monitors.map((s) => ids.get(s) ?? s))];
    const enabled = step.enabled === undefined ? {} : { enabled: step.enabled };
    await client.updateChannel(step.channelId, { monitorIds, ...enabled });
    done(`routed channel ${step.name}`);
  }
  for (const step of plan.monitors) {
    if (step.action !== 'delete') continue;
    await bySlug(step.slug, () => client.deleteMonitor(step.monitorId));
    done(`deleted ${step.slug}`);
  }
}

/** A step that failed: the monitor it was about, and the server's reason. */
export class StepError extends Error {
  constructor(
    readonly slug: string,
    cause: Error,
  ) {
    super(cause.message, { cause });
  }
}

async function bySlug(slug: string, work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (err) {
    throw new StepError(slug, err as Error);
  }
}
