import type { PingAck, PingKind } from '@pingmon/sdk/wire';
import type { RunInput, RunRecord } from '../domain/runs.js';
import { ackOf, enforcedIntervalMs, finishedRun, newRun, rateDecision } from '../domain/runs.js';
import { newId } from '../ids.js';
import type { Database } from './index.js';
import type { Sql } from './sql.js';
import { inTransaction } from './sql.js';
import { claimRunOpening, findMonitor, lockMonitor } from './monitors.js';
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
  | { kind: 'recorded'; ack: PingAck; run: RunRecord; changed: boolean }
  | { kind: 'not_found' }
  | { kind: 'rate_limited'; retryAfterSeconds: number };

/** Records one ping with DESIGN §5's run pairing, in one transaction. */
export async function recordPing(db: Database, ping: Ping): Promise<PingOutcome> {
  return inTransaction(db, async (trx) => {
    if (!(await lockMonitor(trx, ping.accountId, ping.monitorId))) return { kind: 'not_found' };
    if (ping.runId !== undefined) {
      const existing = await findRun(trx, ping.accountId, ping.monitorId, ping.runId);
      if (existing) return settle(trx, existing, ping);
    } else if (ping.kind !== 'start') {
      const open = await findLatestOpenRun(trx, ping.monitorId);
      if (open) return finish(trx, open, ping);
    }
    return openRun(trx, ping);
  });
}

/** A ping naming a run that exists: a result finishes it if it is running, anything else is a replay. */
async function settle(trx: Sql, run: RunRecord, ping: Ping): Promise<PingOutcome> {
  if (ping.kind === 'start' || run.status !== 'running') return replay(run);
  return finish(trx, run, ping);
}

async function finish(trx: Sql, run: RunRecord, ping: Ping): Promise<PingOutcome> {
  const finished = finishedRun(run, ping.kind, ping.input, ping.now);
  if (!(await finishRun(trx, finished))) {
    const current = await findRun(trx, ping.accountId, ping.monitorId, run.runId);
    return replay(current ?? run);
  }
  if (finished.hasLog) await insertRunLog(trx, { monitorId: run.monitorId, runId: run.runId, content: ping.input.logOutput! });
  return { kind: 'recorded', ack: ackOf(finished), run: finished, changed: true };
}

async function openRun(trx: Sql, ping: Ping): Promise<PingOutcome> {
  const { accountId, monitorId, now, intervalMs } = ping;
  if (intervalMs > 0 && !(await claimRunOpening(trx, monitorId, now, enforcedIntervalMs(intervalMs)))) {
    // A concurrent ping may have just created this very run: then this one is a replay, never limited.
    const existing = ping.runId === undefined ? undefined : await findRun(trx, accountId, monitorId, ping.runId);
    if (existing) return settle(trx, existing, ping);
    const monitor = await findMonitor(trx, accountId, monitorId);
    const decision = rateDecision(monitor?.lastOpenedAt ?? null, intervalMs, now);
    return { kind: 'rate_limited', retryAfterSeconds: decision.allowed ? 1 : decision.retryAfterSeconds };
  }
  const run = newRun({ accountId, monitorId, runId: ping.runId ?? newId('run') }, ping.kind, ping.input, now);
  if (!(await insertRun(trx, run))) {
    const existing = await findRun(trx, accountId, monitorId, run.runId);
    return existing ? settle(trx, existing, ping) : replay(run);
  }
  if (run.hasLog) await insertRunLog(trx, { monitorId, runId: run.runId, content: ping.input.logOutput! });
  return { kind: 'recorded', ack: ackOf(run), run, changed: true };
}

function replay(run: RunRecord): PingOutcome {
  return { kind: 'recorded', ack: ackOf(run), run, changed: false };
}
