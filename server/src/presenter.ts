import { kindOf } from './alerts/channels/index.js';
import { badgePath, describeRule, formatRule, statusPagePath } from '@pingmon/sdk/wire';
import type {
  Account,
  Alert,
  AlertDelivery,
  ApiKey,
  AuditEntry,
  Channel,
  Invite,
  LastRun,
  MaintenanceWindow,
  Monitor,
  MonitorEvent,
  PingAck,
  Rule,
  Run,
  RunDetail,
  RunPoint,
  StatusPage,
  User,
  UserSession,
} from '@pingmon/sdk/wire';
import type { AccountRecord } from './db/accounts.js';
import type { AlertRecord } from './db/alerts.js';
import type { ApiKeyRecord } from './db/api-keys.js';
import type { AuditEntryRecord } from './db/audit-entries.js';
import type { DeliveryRecord } from './db/deliveries.js';
import type { EventRecord } from './db/events.js';
import type { MaintenanceWindowRecord } from './db/maintenance-windows.js';
import type { MonitorRecord } from './db/monitors.js';
import type { RuleRecord } from './db/rules.js';
import type { LiveSession } from './db/sessions.js';
import type { InviteRecord } from './db/invites.js';
import type { FailureSeen, LatestRuns, RunPointRecord } from './db/runs.js';
import type { UserRecord } from './db/users.js';
import type { ChannelRecord } from './domain/channels.js';
import { maskUrl } from './domain/channels.js';
import { monitorStatus } from './domain/incidents.js';
import { slotAfter, slotAtOrBefore } from './domain/schedule.js';
import type { RunRecord } from './domain/runs.js';
import type { StatusPageSettings } from './use-cases/status-page.js';
import type { TimelineItem } from './use-cases/timeline.js';

// Records become the wire types of the API here, and only here: times become ISO strings, and what a
// client must not see (hashes, secrets, webhook URLs, account ids) stays behind.

/** ISO 8601 UTC with milliseconds (DESIGN §4). */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : iso(ms);
}

/** The acknowledgement of a ping that touched `run`: its status, and when it reached it. */
export function presentAck(run: RunRecord): PingAck {
  return {
    received: true,
    monitorId: run.monitorId,
    runId: run.runId,
    status: run.status,
    timestamp: iso(run.finishedAt ?? run.startedAt),
  };
}

export function presentRun(run: RunRecord): Run {
  return {
    runId: run.runId,
    monitorId: run.monitorId,
    status: run.status,
    startedAt: iso(run.startedAt),
    finishedAt: isoOrNull(run.finishedAt),
    durationMs: run.durationMs,
    meta: run.meta,
    errorMessage: run.errorMessage,
    hasLog: run.hasLog,
    silentFailure: run.matchedRules !== null,
    matchedRules: run.matchedRules ?? [],
    host: run.host,
    fingerprint: run.fingerprint,
    redactions: run.redactions,
  };
}

export function presentRunDetail(run: RunRecord, failure: FailureSeen | undefined): RunDetail {
  return {
    ...presentRun(run),
    failure: failure ? { firstSeenAt: iso(failure.firstSeenAt), count: failure.count } : null,
  };
}

export function presentRunPoint(point: RunPointRecord): RunPoint {
  return { ...point, startedAt: iso(point.startedAt) };
}

function presentLastRun(run: RunRecord): LastRun {
  return {
    runId: run.runId,
    status: run.status,
    startedAt: iso(run.startedAt),
    finishedAt: isoOrNull(run.finishedAt),
    durationMs: run.durationMs,
    silentFailure: run.matchedRules !== null,
  };
}

/** A monitor with its latest runs at `now`; `latest` is undefined for a monitor without runs. */
export function presentMonitor(monitor: MonitorRecord, latest: LatestRuns | undefined, now: number): Monitor {
  const { incident } = monitor.health;
  return {
    monitorId: monitor.monitorId,
    slug: monitor.slug,
    name: monitor.name,
    createdAt: iso(monitor.createdAt),
    lastRun: latest ? presentLastRun(latest.lastRun) : null,
    recentRuns: latest ? latest.recentRuns : { runs: 0, failed: 0, silentFailures: 0 },
    status: monitorStatus(monitor, latest?.lastRun, now),
    nextExpectedAt: monitor.paused ? null : isoOrNull(monitor.nextExpectedAt),
    incident: incident === null ? null : { ...incident, openedAt: iso(incident.openedAt) },
    schedule: monitor.schedule,
    startGrace: monitor.startGrace,
    maxRuntime: monitor.maxRuntime,
    failureThreshold: monitor.failureThreshold,
    recoveryThreshold: monitor.recoveryThreshold,
    renotifyAfter: monitor.renotifyAfter,
    failAlerts: monitor.failAlerts,
    paused: monitor.paused,
    snoozedUntil: monitor.snoozedUntil !== null && monitor.snoozedUntil > now ? iso(monitor.snoozedUntil) : null,
  };
}

/** A maintenance window at `now`: whether it is on, and when it next begins. */
export function presentMaintenanceWindow(window: MaintenanceWindowRecord, now: number): MaintenanceWindow {
  const end = slotAtOrBefore(window, now) + window.durationMs;
  return {
    windowId: window.windowId,
    cron: window.cron,
    timezone: window.timezone,
    duration: window.durationMs / 1000,
    monitorIds: window.monitorIds === null ? null : [...window.monitorIds],
    activeUntil: end > now ? iso(end) : null,
    nextStartAt: iso(slotAfter(window, now)),
    createdAt: iso(window.createdAt),
  };
}

export function presentRule(rule: RuleRecord): Rule {
  const { ruleId, monitorId, metric, op, value, baseline, window } = rule;
  const shown = { ruleId, monitorId, metric, op, value, baseline, window };
  return { ...shown, expression: formatRule(rule), description: describeRule(rule), createdAt: iso(rule.createdAt) };
}

/** The URL shows its origin only and the secret is never shown (see maskUrl). */
export function presentChannel(channel: ChannelRecord): Channel {
  return {
    channelId: channel.channelId,
    name: channel.name,
    type: channel.type,
    url: maskUrl(channel.url),
    hasSecret: channel.secret !== null,
    options: kindOf(channel.type).shownOptions?.(channel.options) ?? channel.options,
    repeatEvery: channel.repeatEvery,
    escalateAfter: channel.escalateAfter,
    monitorIds: channel.monitorIds,
    enabled: channel.enabled,
    createdAt: iso(channel.createdAt),
  };
}

export function presentApiKey(key: ApiKeyRecord): ApiKey {
  const { keyId, name, prefix, scope, provision } = key;
  return {
    keyId,
    name,
    prefix,
    scope,
    provision,
    monitorIds: key.monitorIds === null ? null : [...key.monitorIds],
    createdAt: iso(key.createdAt),
    lastUsedAt: isoOrNull(key.lastUsedAt),
    revokedAt: isoOrNull(key.revokedAt),
  };
}

/** The account's status page as its admins set it, with the public addresses of the page and its badges. */
export function presentStatusPage(page: StatusPageSettings): StatusPage {
  const { slug } = page;
  return {
    slug,
    title: page.title,
    showErrorMessages: page.showErrorMessages,
    path: slug === null ? null : statusPagePath(slug),
    monitors: page.monitors.map((m) => ({
      monitorId: m.monitorId,
      slug: m.slug,
      name: m.name,
      svgBadgePath: slug === null ? null : badgePath(slug, m.slug, 'svg'),
      jsonBadgePath: slug === null ? null : badgePath(slug, m.slug, 'json'),
    })),
    updatedAt: isoOrNull(page.updatedAt),
  };
}

export function presentUser(user: UserRecord): User {
  return { userId: user.userId, email: user.email, role: user.role, createdAt: iso(user.createdAt) };
}

/** Never its token: the link is shown once, to whoever made the invite. */
export function presentInvite(invite: InviteRecord): Invite {
  const { inviteId, email, role, invitedBy } = invite;
  return { inviteId, email, role, invitedBy, createdAt: iso(invite.createdAt), expiresAt: iso(invite.expiresAt) };
}

/** `currentId`: the session of the request, marked `current`. */
export function presentSession(session: LiveSession, currentId: string): UserSession {
  return {
    sessionId: session.sessionId,
    createdAt: iso(session.createdAt),
    expiresAt: iso(session.expiresAt),
    lastUsedAt: isoOrNull(session.lastUsedAt),
    address: session.address,
    userAgent: session.userAgent,
    current: session.sessionId === currentId,
  };
}

export function presentAccount(account: AccountRecord): Account {
  return { accountId: account.accountId, plan: account.plan, createdAt: iso(account.createdAt) };
}

export function presentAlert(
  alert: AlertRecord & { monitorName: string },
  deliveries: readonly DeliveryRecord[],
): Alert {
  return {
    alertId: alert.alertId,
    event: alert.event,
    monitorId: alert.monitorId,
    monitorName: alert.monitorName,
    runId: alert.runId,
    status: alert.status,
    errorMessage: alert.errorMessage,
    logSnippet: alert.logSnippet,
    logTail: alert.logTail,
    repeats: alert.repeats ?? null,
    meta: alert.meta,
    matchedRules: alert.matchedRules,
    expectedAt: isoOrNull(alert.expectedAt),
    lastRunAt: isoOrNull(alert.lastRunAt),
    lastRunStatus: alert.lastRunStatus,
    host: alert.host ?? null,
    groupId: alert.groupId ?? null,
    createdAt: iso(alert.createdAt),
    deliveries: deliveries.map(presentDelivery),
  };
}

function presentDelivery(delivery: DeliveryRecord): AlertDelivery {
  return {
    channelId: delivery.channelId,
    channelName: delivery.channelName,
    channelType: delivery.channelType,
    state: delivery.state,
    attemptCount: delivery.attemptCount,
    // Only a pending delivery has a next attempt.
    nextAttemptAt: delivery.state === 'pending' ? iso(delivery.nextAttemptAt) : null,
    deliveredAt: isoOrNull(delivery.deliveredAt),
    lastError: delivery.lastError,
    attempts: delivery.attempts.map((a) => ({
      attempt: a.attempt,
      at: iso(a.attemptedAt),
      statusCode: a.statusCode,
      error: a.error,
      durationMs: a.durationMs,
    })),
  };
}

const RUN_EVENTS = { running: 'run_started', success: 'run_succeeded', failed: 'run_failed' } as const;

/** One event of a monitor's timeline (use-cases/timeline.ts). */
export function presentEvent(item: TimelineItem): MonitorEvent {
  const at = iso(item.at);
  switch (item.source) {
    case 'start':
    case 'end': {
      const { run } = item;
      return {
        kind: item.source === 'start' ? 'run_started' : RUN_EVENTS[run.status],
        at,
        runId: run.runId,
        status: run.status,
        durationMs: run.durationMs,
        errorMessage: run.errorMessage === null ? null : run.errorMessage.split(/\r?\n/, 1)[0]!,
        silentFailure: run.matchedRules !== null,
        host: run.host,
      };
    }
    case 'alert': {
      const { alert } = item;
      const { alertId, event, runId, errorMessage } = alert;
      const deliveries = item.deliveries.map(presentDelivery);
      return { kind: 'alert', at, alertId, event, runId, errorMessage, groupId: alert.groupId ?? null, deliveries };
    }
    case 'event':
      return presentStoredEvent(item.event, at);
  }
}

function presentStoredEvent(event: EventRecord, at: string): MonitorEvent {
  switch (event.kind) {
    case 'missed':
      return {
        kind: event.kind,
        at,
        expectedAt: iso(event.expectedAt),
        count: event.count,
        quietCount: event.quietCount,
      };
    case 'timed_out':
      return { kind: event.kind, at, runId: event.runId, maxRuntime: event.maxRuntime };
    case 'incident_opened':
      return { kind: event.kind, at, cause: event.cause, runId: event.runId };
    case 'incident_closed': {
      const { cause, failedRuns, missedRuns, reason, runId } = event;
      return { kind: event.kind, at, cause, openedAt: iso(event.openedAt), failedRuns, missedRuns, reason, runId };
    }
    case 'snoozed':
      return { kind: event.kind, at, until: isoOrNull(event.until) };
    case 'paused':
    case 'resumed':
      return { kind: event.kind, at };
  }
}

export function presentAuditEntry(entry: AuditEntryRecord): AuditEntry {
  const { entryId, actor, address, action, target, monitorId, changes } = entry;
  return { entryId, at: iso(entry.at), actor, address, action, target, monitorId, changes };
}
