import { newRunId } from '@pingmon/sdk/ids';
import { LOG_SNIPPET_CHARS, ruleInput, truncate } from '@pingmon/sdk/wire';
import type { PingKind } from '@pingmon/sdk/wire';
import { insertAlert } from '../db/alerts.js';
import type { Database } from '../db/index.js';
import type { PingMonitor } from '../db/monitors.js';
import {
  claimRunOpening,
  findPingMonitor,
  moveExpectedOpening,
  saveMonitorState,
  unchangedMonitor,
} from '../db/monitors.js';
import { findRuleConditions } from '../db/rules.js';
import { insertRunLog } from '../db/run-logs.js';
import {
  countRepeats,
  findEarlierSuccesses,
  findLatestOpenRun,
  findRun,
  finishRun,
  hasRunOpenedNear,
  insertRun,
  insertRunIf,
} from '../db/runs.js';
import type { TransactionSql } from '../db/sql.js';
import { incidentEvents } from '../domain/events.js';
import { incidentKey, incidentSummary } from '../domain/incidents.js';
import type { Incident } from '../domain/incidents.js';
import type { Pairing } from '../domain/pairing.js';
import { enforcedIntervalMs, pairPing, rateDecision } from '../domain/pairing.js';
import type { PingInput } from '../domain/ping-body.js';
import type { MonitorWrites, PingFacts, PingPlan } from '../domain/ping-writes.js';
import { monitorWrites, planPing } from '../domain/ping-writes.js';
import { logTail } from '../domain/log-tail.js';
import { lookbackOf, matchRules } from '../domain/rules.js';
import type { RunRecord } from '../domain/runs.js';
import { finishedRun, newRun } from '../domain/runs.js';
import { newId } from '../ids.js';
import { recordEvents } from './events.js';
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

/** Records one ping: its run as pairing decides, where it leaves its monitor, and the alerts it raises. */
export async function recordPing(db: Database, known: KnownMonitors, ping: Ping): Promise<PingOutcome> {
  let alone = await recordAlone(db, known, ping, known.get(ping.monitorId));
  // Whatever the plan or a statement refused may have changed the row: the next ping reads it.
  if (alone.kind !== 'done') known.forget(ping.monitorId);
  if (alone.kind === 'stale') alone = await recordAlone(db, known, ping, undefined);
  const lock = alone.kind === 'locked' ? alone.lock : 'no key update';
  const outcome = alone.kind === 'done' ? alone.outcome : await db.transaction((sql) => recordLocked(sql, ping, lock));
  return outcome.kind === 'rate_limited' && isLate(ping) ? { kind: 'too_close' } : outcome;
}

type Alone =
  | { kind: 'done'; outcome: PingOutcome }
  | { kind: 'locked'; lock: PingPlan['lock'] }
  /** A statement planned on a known monitor changed nothing: the row, or its open run, is not as known. */
  | { kind: 'stale' };

/**
 * Monitors as this server's last lock-free ping on them left them: planPing decides on them without a read, and the
 * statement checks them (unchangedMonitor). Measured: without it a PostgreSQL ping took ~2× the server's CPU
 * (plain 2,178 against 1,126 µs; scheduled 2,623 against 1,245: bench/src/known-monitors.ts, docs/testing.md).
 */
export class KnownMonitors {
  private readonly seen = new Map<string, PingMonitor>();

  /** At most `max` monitors (past it every entry goes); 0 remembers none. */
  constructor(private readonly max: number) {}

  get(monitorId: string): PingMonitor | undefined {
    return this.seen.get(monitorId);
  }

  forget(monitorId: string): void {
    this.seen.delete(monitorId);
  }

  remember(monitorId: string, monitor: PingMonitor): void {
    if (this.max === 0) return;
    if (this.seen.size >= this.max) this.seen.clear();
    this.seen.set(monitorId, monitor);
  }
}

/**
 * A ping as planPing decides on its monitor (known, or read): written by statements that change nothing unless the
 * row and runs are as decided on (a known monitor's result without runId: as if no run were open), else locked.
 */
async function recordAlone(
  db: Database,
  monitors: KnownMonitors,
  ping: Ping,
  known: PingMonitor | undefined,
): Promise<Alone> {
  const { accountId, monitorId, kind, input } = ping;
  const [monitor, existing, open] = await Promise.all([
    known ?? findPingMonitor(db.sql, accountId, monitorId),
    input.runId === undefined ? undefined : findRun(db.sql, accountId, monitorId, input.runId),
    input.runId === undefined && kind !== 'start' && !known ? findLatestOpenRun(db.sql, monitorId) : undefined,
  ]);
  if (monitor === undefined) return { kind: 'done', outcome: { kind: 'not_found' } };
  const plan = planPing(monitor, facts(ping));
  // A known monitor's plan may be stale: the transaction reads the row locked and plans again.
  if (plan.alone === null) return { kind: 'locked', lock: plan.lock };
  const state = { existing, open, lastOpenedAt: monitor.lastOpenedAt, intervalMs: 0, late: isLate(ping) };
  const pairing = pairPing(kind, input.runId !== undefined, state, ping.at);
  if (pairing.action === 'replay') return { kind: 'done', outcome: replay(pairing.run) };
  const guard = unchangedMonitor(db.sql, ping, monitor, plan.alone === 'run and expected');
  let outcome: PingOutcome | undefined;
  let seen = monitor;
  if (pairing.action === 'finish') {
    const finished = finishedRun(pairing.run, kind, input, ping.at);
    if (await finishRun(db.batched, finished, guard)) outcome = recorded(finished);
  } else if (pairing.action === 'open') {
    const run = newRun({ accountId, monitorId, runId: input.runId ?? newRunId() }, kind, input, ping.at);
    const noOpenRun = kind !== 'start' && input.runId === undefined;
    // Asked only where the plan said yes: on a cron schedule each asks cron-parser again.
    const expected = plan.alone === 'run' ? null : monitorWrites(monitor, run, 'opened', facts(ping)).expected;
    const opened = await (expected === null
      ? insertRunIf(db.batched, run, runTimeout(ping, monitor), guard, noOpenRun)
      : db.transaction(async (sql) => {
          // The monitor's row before the run, in the order every locked ping takes them: never a deadlock.
          await findPingMonitor(sql, accountId, monitorId, 'no key update');
          if (!(await insertRunIf(sql, run, runTimeout(ping, monitor), guard, noOpenRun))) return false;
          await moveExpectedOpening(sql, monitorId, expected);
          return true;
        }));
    if (opened) outcome = recorded(run);
    // At least where this ping moved it: the next pings of the slot then write their run only.
    if (opened && expected !== null) seen = withExpected(monitor, expected);
  }
  if (outcome === undefined) return known ? { kind: 'stale' } : { kind: 'locked', lock: plan.lock };
  if (!known || seen !== monitor) monitors.remember(monitorId, seen);
  return { kind: 'done', outcome };
}

function withExpected(monitor: PingMonitor, expected: NonNullable<MonitorWrites['expected']>): PingMonitor {
  return { ...monitor, ...expected, asRead: [...monitor.asRead.slice(0, -1), expected.nextExpectedAt] };
}

/** The ping in a transaction, its monitor's row locked as planned before any run is read or written. */
async function recordLocked(sql: TransactionSql, ping: Ping, planned: PingPlan['lock']): Promise<PingOutcome> {
  const { accountId, monitorId, kind } = ping;
  const { runId } = ping.input;
  let monitor = await findPingMonitor(sql, accountId, monitorId, planned);
  if (monitor === undefined) return { kind: 'not_found' };
  // The row changed since the plan: a stronger lock, taken while the ping holds no run yet.
  if (planned === 'key share' && planPing(monitor, facts(ping)).lock !== planned) {
    monitor = await findPingMonitor(sql, accountId, monitorId, 'no key update');
    if (monitor === undefined) return { kind: 'not_found' };
  }
  const existing = runId === undefined ? undefined : await findRun(sql, accountId, monitorId, runId);
  const open = runId === undefined && kind !== 'start' ? await findLatestOpenRun(sql, monitorId) : undefined;
  const state = { existing, open, lastOpenedAt: monitor.lastOpenedAt, intervalMs: ping.intervalMs, late: isLate(ping) };
  return apply(sql, ping, monitor, pairPing(kind, runId !== undefined, state, ping.at));
}

async function apply(sql: TransactionSql, ping: Ping, monitor: PingMonitor, pairing: Pairing): Promise<PingOutcome> {
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

async function finish(sql: TransactionSql, run: RunRecord, ping: Ping, monitor: PingMonitor): Promise<PingOutcome> {
  const finished = finishedRun(run, ping.kind, ping.input, ping.at);
  if (ping.kind === 'success' && monitor.ruleCount > 0) finished.matchedRules = await judgeSuccess(sql, finished);
  // A conditional update: a ping that finished the run since it was read wins, and this one is a replay.
  if (!(await finishRun(sql, finished))) {
    const current = await findRun(sql, ping.accountId, ping.monitorId, run.runId);
    return replay(current ?? run);
  }
  if (finished.hasLog) {
    await insertRunLog(sql, { monitorId: run.monitorId, runId: run.runId, content: ping.input.logOutput! });
  }
  const settled = await settleMonitor(sql, monitor, finished, ping, 'finished');
  return { kind: 'recorded', run: finished, queued: await raiseAlerts(sql, finished, ping, monitor, settled) };
}

async function openRun(sql: TransactionSql, ping: Ping, monitor: PingMonitor): Promise<PingOutcome> {
  const { accountId, monitorId, kind, input, at, intervalMs } = ping;
  if (intervalMs > 0) {
    const gapMs = enforcedIntervalMs(intervalMs);
    // A late opening older than the monitor's last is limited by the runs around its own time (the held row keeps
    // that true); any other by the claim, one conditional update whatever was read before.
    if (isLate(ping) && monitor.lastOpenedAt !== null && at < monitor.lastOpenedAt) {
      if (await hasRunOpenedNear(sql, monitorId, at, gapMs)) return { kind: 'too_close' };
    } else if (!(await claimRunOpening(sql, monitorId, at, gapMs))) {
      return claimRefused(sql, ping, monitor);
    }
  }
  const run = newRun({ accountId, monitorId, runId: input.runId ?? newRunId() }, kind, input, at);
  if (kind === 'success' && monitor.ruleCount > 0) run.matchedRules = await judgeSuccess(sql, run);
  if (!(await insertRun(sql, run, runTimeout(ping, monitor)))) {
    // A concurrent ping created this very run first: decided again with it, this one finishes it or is a replay.
    const existing = await findRun(sql, accountId, monitorId, run.runId);
    if (!existing) return replay(run);
    return settle(sql, ping, monitor, existing);
  }
  if (run.hasLog) await insertRunLog(sql, { monitorId, runId: run.runId, content: input.logOutput! });
  const settled = await settleMonitor(sql, monitor, run, ping, 'opened');
  return { kind: 'recorded', run, queued: await raiseAlerts(sql, run, ping, monitor, settled) };
}

/** The monitor's rules on a success, with the earlier successes those that look back compare it with. */
async function judgeSuccess(sql: TransactionSql, run: RunRecord): Promise<RunRecord['matchedRules']> {
  const rules = await findRuleConditions(sql, run.monitorId);
  const lookback = lookbackOf(rules);
  const earlier = lookback > 0 ? await findEarlierSuccesses(sql, run, lookback) : [];
  return matchRules(rules, ruleInput(run.meta, run.durationMs), earlier);
}

/** A ping whose run turned out to exist after all: as pairing decides, it finishes the run or is a replay. */
function settle(sql: TransactionSql, ping: Ping, monitor: PingMonitor, existing: RunRecord): Promise<PingOutcome> {
  const state = { existing, open: undefined, lastOpenedAt: null, intervalMs: ping.intervalMs, late: false };
  return apply(sql, ping, monitor, pairPing(ping.kind, true, state, ping.at));
}

/** A late start whose own deadline has passed on arrival: its result, if sent with it, follows within a minute. */
const LATE_START_GRACE_MS = 60_000;

/**
 * When a run opened by `ping` times out: maxRuntime after its start, or a minute after a late start's arrival.
 * A paused monitor's runs have no deadline: it raises nothing (a run still running at resume gets one then).
 */
function runTimeout(ping: Ping, monitor: PingMonitor): number | null {
  if (ping.kind !== 'start' || monitor.maxRuntime === null || monitor.paused) return null;
  const deadline = ping.at + monitor.maxRuntime * 1000;
  return deadline > ping.now ? deadline : ping.now + LATE_START_GRACE_MS;
}

/** What a ping's run did to its monitor: the alert the health change raises, and the incident open after it. */
interface Settled {
  event: 'fail' | 'recovered' | null;
  incident: Incident | null;
}

/** Stores where the run leaves its monitor, as domain/ decides. */
async function settleMonitor(
  sql: TransactionSql,
  monitor: PingMonitor,
  run: RunRecord,
  ping: Ping,
  how: 'opened' | 'finished',
): Promise<Settled> {
  const { expected, health, event } = monitorWrites(monitor, run, how, facts(ping));
  const settled = { event, incident: (health ?? monitor.health).incident };
  if (expected === null && health === null) return settled;
  await saveMonitorState(sql, run.monitorId, {
    nextExpectedAt: expected?.nextExpectedAt ?? monitor.nextExpectedAt,
    missedAt: expected ? expected.missedAt : monitor.missedAt,
    health: health ?? monitor.health,
  });
  // Only a ping that opens or closes an incident writes an event (the timeline's runs are the runs themselves).
  if (health !== null) {
    const changes = incidentEvents(monitor.health.incident, health.incident, run.runId, 'recovered');
    if (changes.length > 0) await recordEvents(sql, run, changes, ping.now);
  }
  return settled;
}

/**
 * The claim failed although pairing allowed it (unreachable while the row is held): decided again on what the
 * database holds now; a concurrent ping's run with this id makes it a replay, never limited.
 */
async function claimRefused(sql: TransactionSql, ping: Ping, monitor: PingMonitor): Promise<PingOutcome> {
  const { accountId, monitorId, input, at, intervalMs } = ping;
  const existing = input.runId === undefined ? undefined : await findRun(sql, accountId, monitorId, input.runId);
  if (existing) return settle(sql, ping, monitor, existing);
  const current = await findPingMonitor(sql, accountId, monitorId, 'no key update');
  const decision = rateDecision(current?.lastOpenedAt ?? null, intervalMs, at);
  return { kind: 'rate_limited', retryAfterSeconds: decision.allowed ? 1 : decision.retryAfterSeconds };
}

function facts(ping: Ping): PingFacts {
  return { kind: ping.kind, at: ping.at, now: ping.now, late: isLate(ping), intervalMs: ping.intervalMs };
}

/**
 * The alerts of a run as the ping left it (`fail`, `silent_failure`, `recovered`), none for a paused monitor; a
 * healthy monitor's success without rules reaches no query here.
 */
async function raiseAlerts(
  sql: TransactionSql,
  run: RunRecord,
  ping: Ping,
  monitor: PingMonitor,
  { event, incident }: Settled,
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
    const incidentOf = { incidentKey: incidentKey(run.monitorId, incident), cause: incident?.cause ?? null };
    queued += await insertAlert(sql, {
      ...alert,
      alertId: newId('alert', ping.now),
      event: 'fail',
      ...logs,
      ...incidentOf,
      repeats: run.fingerprint === null ? null : await countRepeats(sql, run),
    });
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
      incidentKey: incidentKey(run.monitorId, monitor.health.incident),
      cause: monitor.health.incident?.cause ?? null,
    };
    queued += await insertAlert(sql, { ...recovered, errorMessage, meta: {}, matchedRules: [] });
  }
  return queued;
}

/** Whether the ping carries its own time (sent again from a spool): `at` is that time. */
function isLate(ping: Ping): boolean {
  return ping.input.timestamp !== undefined;
}

function recorded(run: RunRecord): PingOutcome {
  return { kind: 'recorded', run, queued: 0 };
}

function replay(run: RunRecord): PingOutcome {
  return { kind: 'recorded', run, queued: 0, replay: true };
}
