import { randomBytes } from 'node:crypto';
import type { StoredAlert } from '../db/alerts.js';
import { findAlertGroups, findAlerts } from '../db/alerts.js';
import { findChannelsById } from '../db/channels.js';
import type { ClaimedDelivery } from '../db/deliveries.js';
import {
  abandonDelivery,
  claimDeliveries,
  incidentStillOpen,
  recordAttempt,
  releaseDelivery,
  toldOfIncident,
} from '../db/deliveries.js';
import type { Database } from '../db/index.js';
import type { ChannelRecord } from '../domain/channels.js';
import type { AfterAttempt, AttemptResult, RetryPolicy } from '../domain/delivery.js';
import { afterAttempt } from '../domain/delivery.js';
import type { FailureLog } from '../outage-log.js';
import { attemptChannel } from './attempt.js';
import { kindOf } from './channels/index.js';
import { AttemptAbortedError } from './deliver.js';
import type { Mailer } from './email.js';
import type { AlertContent } from './payloads.js';
import { headline } from './payloads.js';

export interface WorkerOptions {
  /** How often the outbox is read when nothing nudges the worker. */
  pollMs: number;
  attemptTimeoutMs: number;
  /**
   * How long a claim is this process's alone. At least one attempt timeout: a claim with less than that left
   * when its attempt would start is given back instead.
   */
  leaseMs: number;
  /** Send only to public addresses (PINGMON_CHANNELS_PUBLIC_ONLY). */
  publicOnly: boolean;
  /** The server's SMTP transport, for e-mail channels; none: their attempts fail, to be retried. */
  mailer?: Mailer;
  policy: RetryPolicy;
  /** Attempts in flight at once, per process. */
  concurrency: number;
  /** The server's clock: due times, leases and retries are read on it (a test's clock, in tests). */
  clock: () => number;
  log: FailureLog;
  /** The dashboard's address (PINGMON_PUBLIC_URL), for links in alerts; undefined: none. */
  publicUrl?: string;
  /** An attempt settled its delivery: delivered, or failed for good (for metrics). */
  settled?: (channelType: ChannelRecord['type'], state: 'delivered' | 'failed') => void;
}

/**
 * Sends the outbox. Claims due deliveries (a lease in the database, so any number of servers can share
 * one outbox), makes one attempt each and records it. Wakes when a ping of this process queued
 * deliveries, when a retry it scheduled is due, when a slot frees while more are waiting, and otherwise
 * every `pollMs` (for what other servers, or this one before a restart, left behind).
 */
export class DeliveryWorker {
  private readonly stopping = new AbortController();
  /** Fired by `abandon`: attempts in flight end at once and are given back. */
  private readonly abandoning = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private nudged = false;
  /** The last claim filled every free slot: more may be due. */
  private backlog = false;
  private lastPollAt = 0;
  /**
   * The retries this process scheduled and has not claimed since, earliest first: all of them, since
   * a claim that takes the earliest must still wake for the next (else it waits for the poll).
   */
  private readonly retries: number[] = [];

  constructor(
    private readonly db: Database,
    private readonly options: WorkerOptions,
  ) {}

  start(): void {
    this.loop ??= this.run();
  }

  /** A ping queued deliveries: look now rather than at the next poll. */
  nudge(): void {
    this.nudged = true;
    this.wake?.();
  }

  /** How many attempts are in flight now. */
  get busy(): number {
    return this.inFlight.size;
  }

  /** Stops claiming; attempts in flight go on (each within the attempt timeout) until `drained`. */
  async stop(): Promise<void> {
    this.stopping.abort();
    this.wake?.();
    await this.loop;
  }

  /**
   * Resolves when the attempts in flight have ended and been recorded: a clean stop sends nothing
   * twice, since an attempt cut short may have reached its receiver.
   */
  async drained(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  /** Stops claiming and aborts the attempts in flight, giving them back uncounted for any server to make again. */
  abandon(): void {
    this.abandoning.abort();
    this.stopping.abort();
    this.wake?.();
  }

  private async run(): Promise<void> {
    while (!this.stopping.signal.aborted) {
      const free = this.options.concurrency - this.inFlight.size;
      if (free > 0 && (this.nudged || this.backlog || this.options.clock() >= this.nextPollAt())) {
        try {
          await this.claim(free);
        } catch (err) {
          this.backlog = false;
          // The next poll is a whole interval after the failure, not after the claim began: a claim that failed
          // slowly (the database unreachable, or locked) would otherwise be made again at once, again and again.
          this.lastPollAt = this.options.clock();
          this.options.log(['alerts', 'error'], `reading the alert outbox failed: ${(err as Error).message}`, err);
        }
        continue;
      }
      await this.sleep(free > 0 ? this.nextPollAt() - this.options.clock() : Infinity);
    }
  }

  private nextPollAt(): number {
    return Math.min(this.lastPollAt + this.options.pollMs, this.retries[0] ?? Infinity);
  }

  /**
   * Waits for a wake-up or `ms`. Never returns at once except when stopping: with every slot busy, a
   * nudge must wait for a slot (returning would spin the loop in microtasks and starve all I/O).
   */
  private sleep(ms: number): Promise<void> {
    if (this.stopping.signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = Number.isFinite(ms) ? setTimeout(() => this.wake?.(), Math.max(0, ms)) : undefined;
      this.wake = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
    });
  }

  private schedule(at: number): void {
    const index = this.retries.findIndex((other) => other > at);
    this.retries.splice(index === -1 ? this.retries.length : index, 0, at);
  }

  private async claim(free: number): Promise<void> {
    const now = this.options.clock();
    this.nudged = false;
    this.lastPollAt = now;
    while (this.retries.length > 0 && this.retries[0]! <= now) this.retries.shift();
    const token = randomBytes(8).toString('hex');
    const claimed = await claimDeliveries(this.db.sql, { now, leaseMs: this.options.leaseMs, token, limit: free });
    this.backlog = claimed.length === free;
    if (claimed.length === 0) return;
    const channelIds = [...new Set(claimed.map((c) => c.channelId))];
    const [alerts, unlinked] = await Promise.all([
      findAlerts(this.db.sql, [...new Set(claimed.map((c) => c.alertId))]),
      findChannelsById(this.db.sql, channelIds),
    ]);
    // Only the first alert of a group has deliveries: its message tells each channel of the group's monitors it takes.
    const groups = await findAlertGroups(
      this.db.sql,
      [...alerts.values()].flatMap((a) => (a.groupId === a.alertId ? [a.alertId] : [])),
    );
    const channels = groups.size > 0 ? await findChannelsById(this.db.sql, channelIds, { monitors: true }) : unlinked;
    for (const delivery of claimed) {
      const alert = alerts.get(delivery.alertId);
      const group = alert && groups.get(alert.alertId);
      const task = this.attempt(delivery, alert, channels.get(delivery.channelId), group)
        .catch((err: unknown) => {
          const what = `delivering alert ${delivery.alertId} to ${delivery.channelId}`;
          this.options.log(['alerts', 'error'], `${what} failed: ${(err as Error).message}`, err);
        })
        .finally(() => {
          this.inFlight.delete(task);
          this.wake?.();
        });
      this.inFlight.add(task);
    }
  }

  /**
   * An attempt must end within its lease: past it another server may make the same attempt, and the channel
   * would get the alert twice. Reading the alert and channel can eat into the lease (a slow database): with
   * less than one attempt timeout left, the claim is given back unsent. Answers whether it was.
   */
  private async gaveBack(claimed: ClaimedDelivery, now: number): Promise<boolean> {
    const leftMs = claimed.claimedUntil - now;
    if (leftMs >= this.options.attemptTimeoutMs) return false;
    const what = `the delivery of alert ${claimed.alertId} to channel ${claimed.channelId}`;
    this.options.log(
      ['alerts', 'warn'],
      `gave back ${what} unsent: ${leftMs} ms of its claim were left, ` +
        `less than an attempt may take (${this.options.attemptTimeoutMs} ms)`,
    );
    await releaseDelivery(this.db.sql, claimed);
    // Taken again at the next poll, not at once: claiming it straight back could spin while the slowness lasts.
    this.backlog = false;
    return true;
  }

  /**
   * Why a claimed delivery ends unsent, if it does: an escalation whose incident closed in its wait, a recovery of
   * an incident this channel was never told of, a repeat of an incident that closed (or has a later alert).
   */
  private async unsent(
    claimed: ClaimedDelivery,
    alert: StoredAlert,
    channel: ChannelRecord,
  ): Promise<{ state: 'skipped' | 'delivered'; reason: string | null } | null> {
    const key = alert.incidentKey;
    if (!key) return null;
    const sql = this.db.sql;
    if (claimed.repeats > 0) {
      return (await incidentStillOpen(sql, { ...alert, incidentKey: key }, channel.channelId, true))
        ? null
        : { state: 'delivered', reason: null };
    }
    if (channel.escalateAfter === null || claimed.messageAttempt > 1) return null;
    if (alert.event === 'recovered') {
      return (await toldOfIncident(sql, key, channel.channelId))
        ? null
        : { state: 'skipped', reason: 'the incident closed before it was escalated to this channel' };
    }
    if (await incidentStillOpen(sql, { ...alert, incidentKey: key }, channel.channelId, false)) return null;
    return {
      state: 'skipped',
      reason: `the incident closed within ${channel.escalateAfter} s, before it was escalated to this channel`,
    };
  }

  private async attempt(
    claimed: ClaimedDelivery,
    alert: StoredAlert | undefined,
    channel: ChannelRecord | undefined,
    group: Array<StoredAlert> | undefined,
  ): Promise<void> {
    // Deleted since it was queued (with its monitor or channel): its delivery went with it.
    if (!alert || !channel) return;
    const { policy } = this.options;
    const givenUp =
      claimed.messageAttempt > policy.maxAttempts
        ? `gave up after ${policy.maxAttempts} attempts (the last one left no result: its server stopped during it)`
        : !channel.enabled
          ? 'the channel was disabled before this alert could be delivered'
          : undefined;
    if (givenUp) {
      // Failed for good without an attempt: counted as any other delivery that failed, by the server whose claim
      // it still was (one whose claim ran out meanwhile changes nothing).
      if (!(await abandonDelivery(this.db.sql, claimed, givenUp))) return;
      this.options.settled?.(channel.type, 'failed');
      const content = contentFor(channel, alert, group, this.options.publicUrl);
      this.options.log(['alerts', 'warn'], `alert failed: ${describe(content, channel)}: ${givenUp}`);
      return;
    }
    const unsent = await this.unsent(claimed, alert, channel);
    if (unsent) {
      await abandonDelivery(this.db.sql, claimed, unsent.reason, unsent.state);
      return;
    }
    const attemptedAt = this.options.clock();
    if (await this.gaveBack(claimed, attemptedAt)) return;
    let result: AttemptResult;
    const content = contentFor(channel, alert, group, this.options.publicUrl);
    try {
      const { attemptTimeoutMs: timeoutMs, publicOnly, mailer } = this.options;
      const options = { timeoutMs, stop: this.abandoning.signal, publicOnly, mailer };
      const messageKey = `${alert.alertId}-${claimed.repeats}`;
      result = await attemptChannel(channel, content, attemptedAt, messageKey, options);
    } catch (err) {
      if (!(err instanceof AttemptAbortedError)) throw err;
      return releaseDelivery(this.db.sql, claimed);
    }
    const next = afterAttempt(result, claimed.messageAttempt, policy, this.options.clock(), Math.random());
    const { durationMs, statusCode, error } = result;
    const repeatEvery = alert.incidentKey && alert.event !== 'recovered' ? repeatsOf(channel) : null;
    const repeat = next.state === 'delivered' && repeatEvery !== null;
    if (repeat) next.nextAttemptAt = this.options.clock() + repeatEvery * 1000;
    const record = { attemptedAt, durationMs, statusCode, error, ...next, repeat };
    const recorded = await this.db.transaction((sql) => recordAttempt(sql, claimed, record));
    if (recorded && next.state !== 'pending') this.options.settled?.(channel.type, next.state);
    if (next.state === 'pending' || repeat) this.schedule(next.nextAttemptAt);
    if (recorded) this.logOutcome(describe(content, channel), claimed, next, result);
  }

  /** A line per attempt: sent, to be tried again, or failed for good (the error names no channel URL: deliver.ts). */
  private logOutcome(what: string, claimed: ClaimedDelivery, next: AfterAttempt, result: AttemptResult): void {
    const { log, clock, policy } = this.options;
    if (next.state === 'delivered') return log(['alerts', 'info'], `alert sent: ${what}`);
    if (next.state === 'failed') {
      const n = claimed.messageAttempt;
      const attempts = `${n} attempt${n === 1 ? '' : 's'}`;
      return log(['alerts', 'warn'], `alert failed after ${attempts}: ${what}: ${result.error}`);
    }
    const inS = Math.max(0, Math.round((next.nextAttemptAt - clock()) / 1000));
    const attempt = `attempt ${claimed.messageAttempt} of ${policy.maxAttempts}`;
    log(['alerts', 'info'], `alert not sent (${attempt}, again in ${inS} s): ${what}: ${result.error}`);
  }
}

/** An alert and where it goes, for the log: "nightly-backup failed → slack ops". */
function describe(content: AlertContent, channel: ChannelRecord): string {
  return `${headline(content)} → ${channel.type} ${channel.name}`;
}

/** Seconds between repeats of an open incident's alert on this channel, or null for none. */
function repeatsOf(channel: ChannelRecord): number | null {
  return channel.repeatEvery ?? kindOf(channel.type).repeatEverySeconds ?? null;
}

/**
 * What `channel` is told of `alert`: of a group, the monitors the channel takes alerts of, the first of them leading
 * (a channel may take some of the group's monitors only).
 */
function contentFor(
  channel: ChannelRecord,
  alert: StoredAlert,
  group: Array<StoredAlert> | undefined,
  publicUrl: string | undefined,
): AlertContent {
  const { monitorIds } = channel;
  const members = (group ?? []).filter((m) => monitorIds === null || monitorIds.includes(m.monitorId));
  if (members.length === 0) return contentOf(alert, publicUrl);
  const monitors = members.map(({ monitorId, monitorName, expectedAt, errorMessage }) => {
    return { monitorId, monitorName, expectedAt, errorMessage };
  });
  return { ...contentOf(members[0]!, publicUrl), monitors };
}

function contentOf(alert: StoredAlert, publicUrl: string | undefined): AlertContent {
  const monitorPage = publicUrl && `${publicUrl}/monitors/${encodeURIComponent(alert.monitorSlug || alert.monitorId)}`;
  return {
    event: alert.event,
    alertId: alert.alertId,
    monitorId: alert.monitorId,
    monitorName: alert.monitorName,
    runId: alert.runId,
    status: alert.status,
    errorMessage: alert.errorMessage,
    logSnippet: alert.logSnippet,
    logTail: alert.logTail,
    meta: alert.meta,
    matchedRules: alert.matchedRules,
    expectedAt: alert.expectedAt,
    serverGap: alert.serverGap ?? null,
    lastRunAt: alert.lastRunAt,
    lastRunStatus: alert.lastRunStatus,
    host: alert.host ?? null,
    createdAt: alert.createdAt,
    incidentKey: alert.incidentKey ?? null,
    cause: alert.cause ?? null,
    repeats: alert.repeats ?? null,
    monitorSlug: alert.monitorSlug || null,
    links: monitorPage
      ? { monitor: monitorPage, run: alert.runId && `${monitorPage}/runs/${encodeURIComponent(alert.runId)}` }
      : null,
  };
}
