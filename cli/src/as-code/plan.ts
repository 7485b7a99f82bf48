import { formatDuration, formatRule } from '@pingmon/sdk/wire';
import type { CreateRuleRequest, MonitorSettings } from '@pingmon/sdk/wire';

// `pingmon apply`'s decision (docs/cli.md#monitors-as-code): what the file wants against what the server has, as
// data. Pure: the command reads the server, calls planApply, prints the plan and carries it out.

/** A monitor as the file declares it: its settings complete (defaults filled in), its rules. */
export interface DesiredMonitor {
  slug: string;
  name: string;
  settings: MonitorSettings;
  rules: CreateRuleRequest[];
  /** Where the file declares it (1-based), for messages. */
  line: number;
}

/** A channel's routing as the file declares it: every monitor, or those named by slug. */
export interface DesiredChannel {
  name: string;
  type?: string;
  monitors: 'all' | string[];
  enabled?: boolean;
  line: number;
}

export interface Desired {
  monitors: DesiredMonitor[];
  /** null: the file has no `channels`, and routing is left as it is. */
  channels: DesiredChannel[] | null;
}

export interface CurrentMonitor {
  monitorId: string;
  slug: string;
  name: string;
  settings: MonitorSettings;
  rules: Array<CreateRuleRequest & { ruleId: string }>;
}

export interface CurrentChannel {
  channelId: string;
  name: string;
  type: string;
  enabled: boolean;
  /** null: every monitor. */
  monitorIds: string[] | null;
}

export interface Current {
  monitors: CurrentMonitor[];
  channels: CurrentChannel[];
}

/** One field that changes, as printed: `startGrace: 5m → 10m`. */
export interface FieldChange {
  field: string;
  from: string;
  to: string;
}

export type MonitorStep =
  | { action: 'create'; slug: string; monitor: DesiredMonitor }
  | {
      action: 'update';
      slug: string;
      monitorId: string;
      changes: Partial<MonitorSettings> & { name?: string };
      fields: FieldChange[];
      addRules: CreateRuleRequest[];
      removeRules: Array<CreateRuleRequest & { ruleId: string }>;
    }
  | { action: 'unchanged'; slug: string; monitorId: string }
  /** On the server, not in the file: deleted with --prune, else kept (and said). */
  | { action: 'delete' | 'keep'; slug: string; monitorId: string };

export interface ChannelStep {
  action: 'update' | 'unchanged';
  channelId: string;
  name: string;
  /** The routing wanted, by slug (a monitor created by this plan has no id yet). */
  monitors: 'all' | string[];
  enabled?: boolean;
  fields: FieldChange[];
}

export interface Plan {
  monitors: MonitorStep[];
  channels: ChannelStep[];
}

/** Why the file cannot be applied: the line of the file it is about, and what to do. */
export interface PlanError {
  line: number;
  message: string;
}

export type PlanResult = { ok: true; plan: Plan } | { ok: false; errors: PlanError[] };

const SETTINGS: Array<keyof MonitorSettings> = [
  'schedule',
  'startGrace',
  'maxRuntime',
  'failureThreshold',
  'recoveryThreshold',
  'renotifyAfter',
  'failAlerts',
  'paused',
];

/** What applying `desired` to `current` does; errors (a channel that does not exist, say) when it cannot. */
export function planApply(desired: Desired, current: Current, options: { prune: boolean }): PlanResult {
  const bySlug = new Map(current.monitors.map((m) => [m.slug, m]));
  const wanted = new Set(desired.monitors.map((m) => m.slug));
  const monitors: MonitorStep[] = desired.monitors.map((m) => {
    const existing = bySlug.get(m.slug);
    return existing ? compareMonitor(m, existing) : { action: 'create', slug: m.slug, monitor: m };
  });
  for (const m of current.monitors) {
    if (!wanted.has(m.slug))
      monitors.push({ action: options.prune ? 'delete' : 'keep', slug: m.slug, monitorId: m.monitorId });
  }
  const deleted = new Set(monitors.filter((s) => s.action === 'delete').map((s) => s.slug));
  const known = new Set([...wanted, ...current.monitors.map((m) => m.slug)].filter((s) => !deleted.has(s)));
  const errors: PlanError[] = [];
  const channels: ChannelStep[] = [];
  for (const channel of desired.channels ?? []) {
    const step = compareChannel(channel, current, known, deleted);
    if (typeof step === 'string') errors.push({ line: channel.line, message: step });
    else channels.push(step);
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, plan: { monitors, channels } };
}

function compareMonitor(want: DesiredMonitor, have: CurrentMonitor): MonitorStep {
  const changes: Partial<MonitorSettings> & { name?: string } = {};
  const fields: FieldChange[] = [];
  if (want.name !== have.name) {
    changes.name = want.name;
    fields.push({ field: 'name', from: JSON.stringify(have.name), to: JSON.stringify(want.name) });
  }
  for (const key of SETTINGS) {
    if (sameValue(want.settings[key], have.settings[key])) continue;
    Object.assign(changes, { [key]: want.settings[key] });
    fields.push({ field: key, from: settingText(key, have.settings[key]), to: settingText(key, want.settings[key]) });
  }
  const haveRules = new Set(have.rules.map(formatRule));
  const wantRules = new Set(want.rules.map(formatRule));
  const addRules = want.rules.filter((r, i, all) => !haveRules.has(formatRule(r)) && firstOf(all, r, i));
  const removeRules = have.rules.filter((r) => !wantRules.has(formatRule(r)));
  if (fields.length === 0 && addRules.length === 0 && removeRules.length === 0)
    return { action: 'unchanged', slug: want.slug, monitorId: have.monitorId };
  return { action: 'update', slug: want.slug, monitorId: have.monitorId, changes, fields, addRules, removeRules };
}

/** A rule written twice in the file is one rule. */
function firstOf(rules: CreateRuleRequest[], rule: CreateRuleRequest, index: number): boolean {
  return rules.findIndex((r) => formatRule(r) === formatRule(rule)) === index;
}

function compareChannel(
  want: DesiredChannel,
  current: Current,
  known: Set<string>,
  deleted: Set<string>,
): ChannelStep | string {
  const named = current.channels.filter((c) => c.name === want.name);
  const at = `channel "${want.name}"`;
  if (named.length === 0)
    return (
      `${at} does not exist: create it first with \`pingmon channels add --name '${want.name}' …\` ` +
      '(apply routes alerts to channels, it does not make them: their URLs and secrets stay out of the file)'
    );
  if (named.length > 1)
    return (
      `${at} names ${named.length} channels (${named.map((c) => c.channelId).join(', ')}): ` +
      `rename one with \`pingmon channels update ${named[1]!.channelId} --name NEW-NAME\``
    );
  const have = named[0]!;
  if (want.type !== undefined && want.type !== have.type)
    return `${at} is a ${have.type} channel, not ${want.type}: write type: ${have.type}, or leave type out`;
  if (want.monitors !== 'all') {
    const gone = want.monitors.find((slug) => deleted.has(slug));
    if (gone) return `${at} routes ${gone}, which --prune deletes (it is not in the file's monitors)`;
    const unknown = want.monitors.find((slug) => !known.has(slug));
    if (unknown) return `${at} routes "${unknown}", which is neither in the file nor on the server: check the slug`;
  }
  const slugOf = new Map(current.monitors.map((m) => [m.monitorId, m.slug]));
  const haveMonitors = have.monitorIds === null ? 'all' : have.monitorIds.map((id) => slugOf.get(id) ?? id);
  const fields: FieldChange[] = [];
  if (routingText(haveMonitors) !== routingText(want.monitors))
    fields.push({ field: 'monitors', from: routingText(haveMonitors), to: routingText(want.monitors) });
  if (want.enabled !== undefined && want.enabled !== have.enabled)
    fields.push({ field: 'enabled', from: String(have.enabled), to: String(want.enabled) });
  return {
    action: fields.length > 0 ? 'update' : 'unchanged',
    channelId: have.channelId,
    name: have.name,
    monitors: want.monitors,
    enabled: want.enabled,
    fields,
  };
}

function routingText(monitors: 'all' | string[]): string {
  return monitors === 'all' ? 'all' : [...new Set(monitors)].sort().join(', ') || '(none)';
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A setting as the plan prints it: durations as the file writes them. */
export function settingText(key: keyof MonitorSettings, value: MonitorSettings[keyof MonitorSettings]): string {
  if (value === null) return 'none';
  if (key === 'schedule') {
    const s = value as NonNullable<MonitorSettings['schedule']>;
    return 'every' in s ? `every ${formatDuration(s.every)}` : `${s.cron} (${s.timezone ?? 'UTC'})`;
  }
  if (key === 'startGrace' || key === 'maxRuntime' || key === 'renotifyAfter') return formatDuration(value as number);
  return String(value);
}

/** Whether carrying out the plan changes anything. */
export function planChanges(plan: Plan): boolean {
  return (
    plan.monitors.some((s) => s.action === 'create' || s.action === 'update' || s.action === 'delete') ||
    plan.channels.some((s) => s.action === 'update')
  );
}
