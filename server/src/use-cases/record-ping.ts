import { LOG_SNIPPET_CHARS, truncate } from '@pingmon/sdk/wire';
import type { PingKind } from '@pingmon/sdk/wire';
import { insertAlert } from '../db/alerts.js';
import type { Database } from '../db/index.js';
import { claimRunOpening, lockMonitor } from '../db/monitors.js';
import { findRuleConditions } from '../db/rules.js';
import { insertRunLog } from '../db/run-logs.js';
import { findLatestOpenRun, findRun, finishRun, insertRun } from '../db/runs.js';
import type { TransactionSql } from '../db/sql.js';
import type { Pairing } from '../domain/pairing.js';
import { enforcedIntervalMs, pairPing, rateDecision } from '../domain/pairing.js';
import type { PingInput } from '../domain/ping-body.js';
import { matchRules } from '../domain/rules.js';
import type { RunRecord } from '../domain/runs.js';
import { finishedRun, newRun } from '../domain/runs.js';
import { newId } from '../ids.js';

export interface Ping {
  accountId: string;
  monitorId: string;
  kind: PingKind;
  input: PingInput;
  now: number;
  /** The plan's minimum time between run openings of one monitor. */
  intervalMs: number;
}

export type PingOutcome =
  /** `run` as the ping left it; `queued`: alert deliveries this ping wrote to the outbox. */
  | { kind: 'recorded'; run: RunRecord; queued: number }
  | { kind: 'not_found' }
  | { kind: 'rate_limited'; retryAfterSeconds: number };

/**
 * Records one ping with DESIGN §5's run pairing, in one transaction, with the alert it raises and that
 * alert's deliveries (DESIGN §8): a run is never recorded without its alert, nor an alert without its run.
 * domain/pairing.ts decides; this runs the decision, and the database keeps it true under concurrency.
 */
export async function recordPing(db: Database, ping: Ping): Promise<PingOutcome> {
  return db.transaction(async (sql) => {
    const { accountId, monitorId, kind } = ping;
    const { runId } = ping.input;
    // Only a rate-limited ping claims the opening (an update of the monitor's row): only it needs the row alone.
    const monitor = await lockMonitor(sql, accountId, monitorId, ping.intervalMs > 0 ? 'update' : 'share');
    if (monitor === undefined) return { kind: 'not_found' };
    const existing = runId === undefined ? undefined : await findRun(sql, accountId, monitorId, runId);
    const open = runId === undefined && kind !== 'start' ? await findLatestOpenRun(sql, monitorId) : undefined;
    const state = { existing, open, lastOpenedAt: monitor.lastOpenedAt, intervalMs: ping.intervalMs };
    return apply(sql, ping, monitor.ruleCount, pairPing(kind, runId !== undefined, state, ping.now));
  });
}

async function apply(sql: TransactionSql, ping: Ping, ruleCount: number, pairing: Pairing): Promise<PingOutcome> {
  switch (pairing.action) {
    case 'open':
      return openRun(sql, ping, ruleCount);
    case 'finish':
      return finish(sql, pairing.run, ping, ruleCount);
    case 'replay':
      return replay(pairing.run);
    case 'rate_limited':
      return { kind: 'rate_limited', retryAfterSeconds: pairing.retryAfterSeconds };
  }
}

async function finish(sql: TransactionSql, run: RunRecord, ping: Ping, ruleCount: number): Promise<PingOutcome> {
  const finished = finishedRun(run, ping.kind, ping.input, ping.now);
  if (ping.kind === 'success' && ruleCount > 0) {
    finished.matchedRules = matchRules(await findRuleConditions(sql, run.monitorId), finished.meta);
  }
  // A conditional update: a ping that finished the run since it was read wins, and this one is a replay.
  if (!(await finishRun(sql, finished))) {
    const current = await findRun(sql, ping.accountId, ping.monitorId, run.runId);
    return replay(current ?? run);
  }
  if (finished.hasLog) {
    await insertRunLog(sql, { monitorId: run.monitorId, runId: run.runId, content: ping.input.logOutput! });
  }
  return { kind: 'recorded', run: finished, queued: await raiseAlert(sql, finished, ping) };
}

async function openRun(sql: TransactionSql, ping: Ping, ruleCount: number): Promise<PingOutcome> {
  const { accountId, monitorId, kind, input, now, intervalMs } = ping;
  // The claim is the rate limit's guarantee in the database: one conditional update, whatever was read before.
  if (intervalMs > 0 && !(await claimRunOpening(sql, monitorId, now, enforcedIntervalMs(intervalMs)))) {
    return claimRefused(sql, ping, ruleCount);
  }
  const run = newRun({ accountId, monitorId, runId: input.runId ?? newId('run') }, kind, input, now);
  if (kind === 'success' && ruleCount > 0) {
    run.matchedRules = matchRules(await findRuleConditions(sql, monitorId), run.meta);
  }
  if (!(await insertRun(sql, run))) {
    // A concurrent ping created this very run first: decided again with it, this one finishes it or is a replay.
    const existing = await findRun(sql, accountId, monitorId, run.runId);
    if (!existing) return replay(run);
    return settle(sql, ping, ruleCount, existing);
  }
  if (run.hasLog) await insertRunLog(sql, { monitorId, runId: run.runId, content: input.logOutput! });
  return { kind: 'recorded', run, queued: await raiseAlert(sql, run, ping) };
}

/** A ping whose run turned out to exist after all: as pairing decides, it finishes the run or is a replay. */
function settle(sql: TransactionSql, ping: Ping, ruleCount: number, existing: RunRecord): Promise<PingOutcome> {
  const state = { existing, open: undefined, lastOpenedAt: null, intervalMs: ping.intervalMs };
  return apply(sql, ping, ruleCount, pairPing(ping.kind, true, state, ping.now));
}

/**
 * The claim of an opening failed although pairing allowed it. The monitor's row, held since it was read,
 * makes this unreachable; should it happen, the ping is decided again on what the database holds now (a
 * concurrent ping may have created this very run: then it is a replay, never limited).
 */
async function claimRefused(sql: TransactionSql, ping: Ping, ruleCount: number): Promise<PingOutcome> {
  const { accountId, monitorId, input, now, intervalMs } = ping;
  const existing = input.runId === undefined ? undefined : await findRun(sql, accountId, monitorId, input.runId);
  if (existing) return settle(sql, ping, ruleCount, existing);
  const current = await lockMonitor(sql, accountId, monitorId, 'update');
  const decision = rateDecision(current?.lastOpenedAt ?? null, intervalMs, now);
  return { kind: 'rate_limited', retryAfterSeconds: decision.allowed ? 1 : decision.retryAfterSeconds };
}

/**
 * A fail alert for a failed run, a silent_failure alert for a success that matched rules; nothing
 * otherwise (the success path of a monitor without rules reaches no query here).
 */
async function raiseAlert(sql: TransactionSql, run: RunRecord, ping: Ping): Promise<number> {
  const failed = run.status === 'failed';
  if (!failed && run.matchedRules === null) return 0;
  return insertAlert(sql, {
    alertId: newId('alert', ping.now),
    accountId: run.accountId,
    event: failed ? 'fail' : 'silent_failure',
    monitorId: run.monitorId,
    runId: run.runId,
    status: run.status,
    errorMessage: run.errorMessage,
    // The stored log is the ping's logOutput (already cut to 10,000 characters): its first 500.
    logSnippet: failed && run.hasLog ? truncate(ping.input.logOutput!, LOG_SNIPPET_CHARS) : null,
    meta: run.meta,
    matchedRules: run.matchedRules ?? [],
    createdAt: ping.now,
  });
}

function replay(run: RunRecord): PingOutcome {
  return { kind: 'recorded', run, queued: 0 };
}
