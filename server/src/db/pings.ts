import { LOG_SNIPPET_CHARS, truncate } from '@pingmon/sdk/wire';
import type { PingAck, PingKind } from '@pingmon/sdk/wire';
import { matchRules } from '../domain/rules.js';
import type { RunInput, RunRecord } from '../domain/runs.js';
import { ackOf, enforcedIntervalMs, finishedRun, newRun, rateDecision } from '../domain/runs.js';
import { newId } from '../ids.js';
import { insertAlert } from './alerts.js';
import type { Database } from './index.js';
import type { Sql } from './sql.js';
import { inTransaction } from './sql.js';
import { claimRunOpening, findMonitor, lockMonitor } from './monitors.js';
import { findRuleConditions } from './rules.js';
import { insertRunLog } from './run-logs.js';
import { findLatestOpenRun, findRun, finishRun, insertRun } from './runs.js';

export interface Ping {
  accountId: string;
  monitorId: string;
  kind: PingKind;
  runId?: string;
  input: RunInput;
  now: number;
  /** The plan's minimum time between run openings of one monitor. */
  intervalMs: number;
}

export type PingOutcome =
  /** `queued`: alert deliveries this ping wrote to the outbox. */
  | { kind: 'recorded'; ack: PingAck; run: RunRecord; changed: boolean; queued: number }
  | { kind: 'not_found' }
  | { kind: 'rate_limited'; retryAfterSeconds: number };

/**
 * Records one ping with DESIGN §5's run pairing, in one transaction, with the alert it raises and that
 * alert's deliveries (DESIGN §8): a run is never recorded without its alert, nor an alert without its run.
 */
export async function recordPing(db: Database, ping: Ping): Promise<PingOutcome> {
  return inTransaction(db, async (trx) => {
    // Only a rate-limited ping claims the opening (an update of the monitor's row): only it needs the row alone.
    const ruleCount = await lockMonitor(trx, ping.accountId, ping.monitorId, ping.intervalMs > 0 ? 'update' : 'share');
    if (ruleCount === undefined) return { kind: 'not_found' };
    if (ping.runId !== undefined) {
      const existing = await findRun(trx, ping.accountId, ping.monitorId, ping.runId);
      if (existing) return settle(trx, existing, ping, ruleCount);
    } else if (ping.kind !== 'start') {
      const open = await findLatestOpenRun(trx, ping.monitorId);
      if (open) return finish(trx, open, ping, ruleCount);
    }
    return openRun(trx, ping, ruleCount);
  });
}

/** A ping naming a run that exists: a result finishes it if it is running, anything else is a replay. */
async function settle(trx: Sql, run: RunRecord, ping: Ping, ruleCount: number): Promise<PingOutcome> {
  if (ping.kind === 'start' || run.status !== 'running') return replay(run);
  return finish(trx, run, ping, ruleCount);
}

async function finish(trx: Sql, run: RunRecord, ping: Ping, ruleCount: number): Promise<PingOutcome> {
  const finished = finishedRun(run, ping.kind, ping.input, ping.now);
  if (ping.kind === 'success' && ruleCount > 0) finished.matchedRules = matchRules(await findRuleConditions(trx, run.monitorId), finished.meta);
  if (!(await finishRun(trx, finished))) {
    const current = await findRun(trx, ping.accountId, ping.monitorId, run.runId);
    return replay(current ?? run);
  }
  if (finished.hasLog) await insertRunLog(trx, { monitorId: run.monitorId, runId: run.runId, content: ping.input.logOutput! });
  return { kind: 'recorded', ack: ackOf(finished), run: finished, changed: true, queued: await raiseAlert(trx, finished, ping) };
}

async function openRun(trx: Sql, ping: Ping, ruleCount: number): Promise<PingOutcome> {
  const { accountId, monitorId, now, intervalMs } = ping;
  if (intervalMs > 0 && !(await claimRunOpening(trx, monitorId, now, enforcedIntervalMs(intervalMs)))) {
    // A concurrent ping may have just created this very run: then this one is a replay, never limited.
    const existing = ping.runId === undefined ? undefined : await findRun(trx, accountId, monitorId, ping.runId);
    if (existing) return settle(trx, existing, ping, ruleCount);
    const monitor = await findMonitor(trx, accountId, monitorId);
    const decision = rateDecision(monitor?.lastOpenedAt ?? null, intervalMs, now);
    return { kind: 'rate_limited', retryAfterSeconds: decision.allowed ? 1 : decision.retryAfterSeconds };
  }
  const run = newRun({ accountId, monitorId, runId: ping.runId ?? newId('run') }, ping.kind, ping.input, now);
  if (ping.kind === 'success' && ruleCount > 0) run.matchedRules = matchRules(await findRuleConditions(trx, monitorId), run.meta);
  if (!(await insertRun(trx, run))) {
    const existing = await findRun(trx, accountId, monitorId, run.runId);
    return existing ? settle(trx, existing, ping, ruleCount) : replay(run);
  }
  if (run.hasLog) await insertRunLog(trx, { monitorId, runId: run.runId, content: ping.input.logOutput! });
  return { kind: 'recorded', ack: ackOf(run), run, changed: true, queued: await raiseAlert(trx, run, ping) };
}

/**
 * A fail alert for a failed run, a silent_failure alert for a success that matched rules; nothing
 * otherwise (the success path of a monitor without rules reaches no query here).
 */
async function raiseAlert(trx: Sql, run: RunRecord, ping: Ping): Promise<number> {
  const failed = run.status === 'failed';
  if (!failed && run.matchedRules === null) return 0;
  return insertAlert(trx, {
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
  return { kind: 'recorded', ack: ackOf(run), run, changed: false, queued: 0 };
}
