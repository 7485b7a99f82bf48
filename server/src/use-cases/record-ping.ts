import { LOG_SNIPPET_CHARS, truncate } from '@pingmon/sdk/wire';
import type { PingKind } from '@pingmon/sdk/wire';
import { insertAlert } from '../db/alerts.js';
import type { Database } from '../db/index.js';
import type { MonitorLock } from '../db/monitors.js';
import { claimRunOpening, lockMonitor, saveMonitorState } from '../db/monitors.js';
import { findRuleConditions } from '../db/rules.js';
import { insertRunLog } from '../db/run-logs.js';
import {
  findLatestOpenRun,
  findRun,
  finishPlainRun,
  finishRun,
  hasRunOpenedNear,
  insertRun,
  openPlainRun,
} from '../db/runs.js';
import type { Sql, TransactionSql } from '../db/sql.js';
import type { Outcome } from '../domain/incidents.js';
import { afterOutcome, healthChanged, incidentSummary } from '../domain/incidents.js';
import type { Pairing } from '../domain/pairing.js';
import { enforcedIntervalMs, pairPing, rateDecision } from '../domain/pairing.js';
import type { PingInput } from '../domain/ping-body.js';
import { logTail } from '../domain/log-tail.js';
import { matchRules, ruleInput } from '../domain/rules.js';
import type { RunRecord } from '../domain/runs.js';
import { finishedRun, newRun } from '../domain/runs.js';
import { expectedAfterOpening } from '../domain/schedule.js';
import { newId } from '../ids.js';
import { holdPing } from './quiet.js';

export interface Ping {
  accountId: string;
  monitorId: string;
  kind: PingKind;
  input: PingInput;
  /** When the server received it. */
  now: number;
  /** The time it stands for: `now`, or the earlier time a late ping carries (domain/ping-body.ts, pingTime). */
  at: number;
  /** The plan's minimum time between run openings of one monitor. */
  intervalMs: number;
}

export type PingOutcome =
  /**
   * `run` as the ping left it; `queued`: alert deliveries this ping wrote to the outbox; `replay`: the ping changed
   * nothing (its run had it already), and is answered with the run as it is.
   */
  | { kind: 'recorded'; run: RunRecord; queued: number; replay?: true }
  | { kind: 'not_found' }
  | { kind: 'rate_limited'; retryAfterSeconds: number }
  /** Refused by the rate limit at the ping's own timestamp: final, as that time never changes. */
  | { kind: 'too_close' };

/**
 * Records one ping with DESIGN §5's run pairing, in one transaction, with the alert it raises and that
 * alert's deliveries (DESIGN §8), and where it leaves its monitor: the next expected opening of a scheduled
 * monitor and the monitor's incidents (docs/schedules.md). A run is never recorded without its alert, nor an
 * alert without its run. domain/ decides; this runs the decision, and the database keeps it true under
 * concurrency.
 */
export async function recordPing(db: Database, ping: Ping): Promise<PingOutcome> {
  const hinted = db.dialect === 'postgres' && updateHints.has(ping);
  const plain = db.dialect === 'postgres' && !hinted ? await recordPlain(db.batched, ping) : undefined;
  if (plain) return plain;
  const outcome = await recordLocked(db, ping, hinted);
  return outcome.kind === 'rate_limited' && isLate(ping) ? { kind: 'too_close' } : outcome;
}

/**
 * PostgreSQL: the pings whose last like (same monitor, kind, with or without runId) needed the monitor's row for
 * update — a scheduled opening moves the next expected time, a success may end a streak — go straight to that
 * transaction, not by way of the one statement and the shared read that would each find it out again (three
 * attempts for one ping). A hint only, kept by this process for a minute: the transaction with the row for update
 * decides every ping right, so a stale hint (the monitor's schedule removed since) costs speed, never a result.
 */
class UpdateHints {
  private static readonly TTL_MS = 60_000;
  private static readonly MAX = 10_000;
  private readonly until = new Map<string, number>();

  has(ping: Ping): boolean {
    const key = UpdateHints.key(ping);
    const until = this.until.get(key);
    if (until === undefined) return false;
    if (until > performance.now()) return true;
    this.until.delete(key);
    return false;
  }

  add(ping: Ping): void {
    // Bounded: past the limit, every hint goes, and the next pings find out again.
    if (this.until.size >= UpdateHints.MAX) this.until.clear();
    this.until.set(UpdateHints.key(ping), performance.now() + UpdateHints.TTL_MS);
  }

  private static key({ monitorId, kind, input }: Ping): string {
    return `${monitorId} ${kind} ${input.runId === undefined ? 'new' : 'id'}`;
  }
}

const updateHints = new UpdateHints();

/**
 * PostgreSQL: the pings that only write their run, in one statement (where the transaction takes five round
 * trips), committed with the other such pings that arrive at the same moment (`db.batched`: one round trip and one
 * commit for all): a start opening a run, a success finishing its run by runId, a success without runId opening a
 * finished run, on a monitor where nothing else follows (db/monitors.ts, plainMonitor) and without rate limit.
 * Late pings, failures and logs take the transaction. Undefined when the statement changed nothing: recordLocked
 * then decides the ping with everything in view. (SQLite's group committer already makes a transaction cheap.)
 */
async function recordPlain(sql: Sql, ping: Ping): Promise<PingOutcome | undefined> {
  const { accountId, monitorId, kind, input } = ping;
  if (ping.intervalMs > 0 || kind === 'fail' || isLate(ping)) return undefined;
  if (kind === 'success' && input.runId !== undefined) {
    const run = await finishPlainRun(sql, { accountId, monitorId, runId: input.runId }, input.meta, ping.at);
    return run && { kind: 'recorded', run, queued: 0 };
  }
  const run = newRun({ accountId, monitorId, runId: input.runId ?? newId('run') }, kind, input, ping.at);
  return (await openPlainRun(sql, run)) ? { kind: 'recorded', run, queued: 0 } : undefined;
}

async function recordLocked(db: Database, ping: Ping, hinted: boolean): Promise<PingOutcome> {
  // Only a ping that updates the monitor's row (a rate-limited opening, a failure) needs it alone.
  const mode = hinted || ping.intervalMs > 0 || ping.kind === 'fail' ? 'update' : 'share';
  try {
    return await attempt(db, ping, mode);
  } catch (err) {
    // Read shared, the monitor turned out to need an update (a scheduled opening, a success ending a streak).
    if (!(err instanceof RowLockNeeded)) throw err;
    updateHints.add(ping);
    return attempt(db, ping, 'update');
  }
}

/** The monitor's row was read shared and must be written: the ping is made again with the row for update. */
class RowLockNeeded extends Error {}

/** The ping's monitor as read in its transaction, and how: a row read shared must not be written. */
interface Held extends MonitorLock {
  mode: 'update' | 'share';
}

function attempt(db: Database, ping: Ping, mode: 'update' | 'share'): Promise<PingOutcome> {
  return db.transaction(async (sql) => {
    const { accountId, monitorId, kind } = ping;
    const { runId } = ping.input;
    const lock = await lockMonitor(sql, accountId, monitorId, mode);
    if (lock === undefined) return { kind: 'not_found' };
    const monitor: Held = { ...lock, mode };
    const existing = runId === undefined ? undefined : await findRun(sql, accountId, monitorId, runId);
    const open = runId === undefined && kind !== 'start' ? await findLatestOpenRun(sql, monitorId) : undefined;
    const state = {
      existing,
      open,
      lastOpenedAt: monitor.lastOpenedAt,
      intervalMs: ping.intervalMs,
      late: isLate(ping),
    };
    const pairing = pairPing(kind, runId !== undefined, state, ping.at);
    // Before anything is written: a monitor row read shared that this ping will change is read again for update.
    if (mode === 'share' && sql.dialect === 'postgres' && changesMonitor(monitor, pairing, kind)) {
      throw new RowLockNeeded();
    }
    return apply(sql, ping, monitor, pairing);
  });
}

/** Whether carrying out `pairing` changes the monitor's row (its expected opening, or its health). */
function changesMonitor(monitor: MonitorLock, pairing: Pairing, kind: Ping['kind']): boolean {
  if (monitor.paused || pairing.action === 'replay' || pairing.action === 'rate_limited') return false;
  if (pairing.action === 'open' && monitor.schedule !== null) return true;
  if (kind === 'start') return false;
  const outcome: Outcome = { kind: kind === 'fail' ? 'fail' : 'success' };
  return healthChanged(monitor.health, afterOutcome(monitor.health, monitor, outcome, 0).health);
}

async function apply(sql: TransactionSql, ping: Ping, monitor: Held, pairing: Pairing): Promise<PingOutcome> {
  switch (pairing.action) {
    case 'open':
      return openRun(sql, ping, monitor);
    case 'finish':
      return finish(sql, pairing.run, ping, monitor);
    case 'replay':
      return replay(pairing.run);
    case 'rate_limited':
      return { kind: 'rate_limited', retryAfterSeconds: pairing.retryAfterSeconds };
  }
}

async function finish(sql: TransactionSql, run: RunRecord, ping: Ping, monitor: Held): Promise<PingOutcome> {
  const finished = finishedRun(run, ping.kind, ping.input, ping.at);
  if (ping.kind === 'success' && monitor.ruleCount > 0) {
    finished.matchedRules = matchRules(
      await findRuleConditions(sql, run.monitorId),
      ruleInput(finished.meta, finished.durationMs),
    );
  }
  // A conditional update: a ping that finished the run since it was read wins, and this one is a replay.
  if (!(await finishRun(sql, finished))) {
    const current = await findRun(sql, ping.accountId, ping.monitorId, run.runId);
    return replay(current ?? run);
  }
  if (finished.hasLog) {
    await insertRunLog(sql, { monitorId: run.monitorId, runId: run.runId, content: ping.input.logOutput! });
  }
  const event = await settleMonitor(sql, monitor, finished, ping.now, 'finished');
  return { kind: 'recorded', run: finished, queued: await raiseAlerts(sql, finished, ping, monitor, event) };
}

async function openRun(sql: TransactionSql, ping: Ping, monitor: Held): Promise<PingOutcome> {
  const { accountId, monitorId, kind, input, at, intervalMs } = ping;
  if (intervalMs > 0) {
    const gapMs = enforcedIntervalMs(intervalMs);
    // A late opening (the ping carries its time), older than the monitor's last: limited by the runs opened
    // around its own time (the monitor's row, held for update, keeps that true). Any other: by the claim, the
    // rate limit's guarantee in the database, one conditional update whatever was read before. (A ping on time
    // can be older than the last opening too: another server's, arrived a moment later, committed first.)
    if (isLate(ping) && monitor.lastOpenedAt !== null && at < monitor.lastOpenedAt) {
      if (await hasRunOpenedNear(sql, monitorId, at, gapMs)) return { kind: 'too_close' };
    } else if (!(await claimRunOpening(sql, monitorId, at, gapMs))) {
      return claimRefused(sql, ping, monitor);
    }
  }
  const run = newRun({ accountId, monitorId, runId: input.runId ?? newId('run') }, kind, input, at);
  if (kind === 'success' && monitor.ruleCount > 0) {
    run.matchedRules = matchRules(await findRuleConditions(sql, monitorId), run.meta);
  }
  // A paused monitor's runs have no deadline: it raises nothing (a run still running at resume gets one then).
  const timeoutAt =
    kind === 'start' && monitor.maxRuntime !== null && !monitor.paused ? runDeadline(ping, monitor.maxRuntime) : null;
  if (!(await insertRun(sql, run, timeoutAt))) {
    // A concurrent ping created this very run first: decided again with it, this one finishes it or is a replay.
    const existing = await findRun(sql, accountId, monitorId, run.runId);
    if (!existing) return replay(run);
    return settle(sql, ping, monitor, existing);
  }
  if (run.hasLog) await insertRunLog(sql, { monitorId, runId: run.runId, content: input.logOutput! });
  const event = await settleMonitor(sql, monitor, run, ping.now, isLate(ping) ? 'late' : 'opened');
  return { kind: 'recorded', run, queued: await raiseAlerts(sql, run, ping, monitor, event) };
}

/** A ping whose run turned out to exist after all: as pairing decides, it finishes the run or is a replay. */
function settle(sql: TransactionSql, ping: Ping, monitor: Held, existing: RunRecord): Promise<PingOutcome> {
  const state = { existing, open: undefined, lastOpenedAt: null, intervalMs: ping.intervalMs, late: false };
  return apply(sql, ping, monitor, pairPing(ping.kind, true, state, ping.at));
}

/** A late start whose own deadline has passed on arrival: its result, if sent with it, follows within a minute. */
const LATE_START_GRACE_MS = 60_000;

/** When a run opened by `ping` times out: maxRuntime after its start, or a minute after a late start's arrival. */
function runDeadline(ping: Ping, maxRuntimeSeconds: number): number {
  const deadline = ping.at + maxRuntimeSeconds * 1000;
  return deadline > ping.now ? deadline : ping.now + LATE_START_GRACE_MS;
}

/**
 * Where the run leaves its monitor: an opening sets a scheduled monitor's next expected one (only ever later:
 * a late ping's opening is older than the one that set it), and a finished run its health. Answers the alert
 * the health change raises (fail or recovered), if any. A paused monitor is left as it is. Health goes by
 * arrival (`now`), a late ping's included: an incident it opens, and its reminders, start when it arrives.
 * A late opening (from a spool) never brings the deadline nearer: the fresh grace a gap gave is for the whole
 * spool, whose later runs are on their way behind it.
 */
async function settleMonitor(
  sql: TransactionSql,
  monitor: Held,
  run: RunRecord,
  now: number,
  how: 'opened' | 'late' | 'finished',
): Promise<'fail' | 'recovered' | null> {
  if (monitor.paused) return null;
  let { nextExpectedAt, missedAt } = monitor;
  const next =
    how !== 'finished' && monitor.schedule !== null ? expectedAfterOpening(monitor.schedule, run.startedAt) : null;
  if (next !== null && (nextExpectedAt === null || next > nextExpectedAt)) {
    nextExpectedAt = next;
    const due = next + monitor.startGrace * 1000;
    missedAt = how === 'late' && missedAt !== null ? Math.max(missedAt, due) : due;
  }
  let { health } = monitor;
  let event: 'fail' | 'recovered' | null = null;
  if (run.status !== 'running') {
    const next = afterOutcome(health, monitor, { kind: run.status === 'failed' ? 'fail' : 'success' }, now);
    health = next.health;
    event = next.alert as 'fail' | 'recovered' | null;
  }
  if (
    nextExpectedAt === monitor.nextExpectedAt &&
    missedAt === monitor.missedAt &&
    !healthChanged(monitor.health, health)
  ) {
    return event;
  }
  // Unreachable on PostgreSQL (attempt() read the row for update first); SQLite has one writer anyway.
  if (monitor.mode === 'share' && sql.dialect === 'postgres') throw new RowLockNeeded();
  await saveMonitorState(sql, run.monitorId, { nextExpectedAt, missedAt, health });
  return event;
}

/**
 * The claim of an opening failed although pairing allowed it. The monitor's row, held since it was read,
 * makes this unreachable; should it happen, the ping is decided again on what the database holds now (a
 * concurrent ping may have created this very run: then it is a replay, never limited).
 */
async function claimRefused(sql: TransactionSql, ping: Ping, monitor: Held): Promise<PingOutcome> {
  const { accountId, monitorId, input, at, intervalMs } = ping;
  const existing = input.runId === undefined ? undefined : await findRun(sql, accountId, monitorId, input.runId);
  if (existing) return settle(sql, ping, monitor, existing);
  const current = await lockMonitor(sql, accountId, monitorId, 'update');
  const decision = rateDecision(current?.lastOpenedAt ?? null, intervalMs, at);
  return { kind: 'rate_limited', retryAfterSeconds: decision.allowed ? 1 : decision.retryAfterSeconds };
}

/**
 * The alerts of a run as the ping left it: `fail` when its health says so (a failed run once the failure
 * threshold is reached), `silent_failure` for a success that matched rules, `recovered` for the success that
 * closed an incident; none for a paused monitor. The success path of a healthy monitor without rules reaches
 * no query here.
 */
async function raiseAlerts(
  sql: TransactionSql,
  run: RunRecord,
  ping: Ping,
  monitor: Held,
  event: 'fail' | 'recovered' | null,
): Promise<number> {
  if (monitor.paused || (event === null && run.matchedRules === null)) return 0;
  if (await holdPing(sql, { ...monitor, monitorId: run.monitorId, accountId: run.accountId }, event, ping.now)) {
    return 0;
  }
  const alert = {
    accountId: run.accountId,
    monitorId: run.monitorId,
    runId: run.runId,
    status: run.status,
    errorMessage: run.errorMessage,
    logSnippet: null,
    logTail: null,
    meta: run.meta,
    matchedRules: run.matchedRules ?? [],
    expectedAt: null,
    lastRunAt: null,
    lastRunStatus: null,
    createdAt: ping.now,
  };
  let queued = 0;
  if (event === 'fail') {
    // The stored log is the ping's logOutput (already cut to 10,000 characters): its first 500, and its end.
    const log = run.hasLog ? ping.input.logOutput! : null;
    const logs = { logSnippet: log && truncate(log, LOG_SNIPPET_CHARS), logTail: log && logTail(log) };
    queued += await insertAlert(sql, { ...alert, alertId: newId('alert', ping.now), event: 'fail', ...logs });
  }
  if (run.matchedRules !== null) {
    queued += await insertAlert(sql, { ...alert, alertId: newId('alert', ping.now), event: 'silent_failure' });
  }
  if (event === 'recovered') {
    // The incident as it was before this success closed it: its counts and its start.
    const { incident } = monitor.health;
    const errorMessage = incident === null ? 'Up again.' : `Up again: ${incidentSummary(incident, ping.now)}.`;
    const recovered = {
      ...alert,
      alertId: newId('alert', ping.now),
      event: 'recovered' as const,
      status: 'up' as const,
    };
    queued += await insertAlert(sql, { ...recovered, errorMessage, meta: {}, matchedRules: [] });
  }
  return queued;
}

/** Whether the ping carries its own time (sent again from a spool): `at` is that time. */
function isLate(ping: Ping): boolean {
  return ping.input.timestamp !== undefined;
}

function replay(run: RunRecord): PingOutcome {
  return { kind: 'recorded', run, queued: 0, replay: true };
}
