import type { Knex } from 'knex';
import type { Run, RunStatus } from '@pingmon/sdk';
import type { RunRecord } from '../domain/runs.js';
import { iso } from '../domain/runs.js';
import { ms } from './index.js';

interface RunRow {
  monitor_id: string;
  id: string;
  account_id: string;
  status: RunStatus;
  started_at: number | string;
  finished_at: number | string | null;
  duration_ms: number | string | null;
  meta: string;
  error_message: string | null;
  has_log: boolean | number;
}

function toRecord(row: RunRow): RunRecord {
  return {
    runId: row.id,
    monitorId: row.monitor_id,
    accountId: row.account_id,
    status: row.status,
    startedAt: ms(row.started_at),
    finishedAt: ms(row.finished_at),
    durationMs: ms(row.duration_ms),
    meta: JSON.parse(row.meta) as Record<string, number>,
    errorMessage: row.error_message,
    hasLog: Boolean(row.has_log),
  };
}

function toRow(run: RunRecord): RunRow {
  return {
    monitor_id: run.monitorId,
    id: run.runId,
    account_id: run.accountId,
    status: run.status,
    started_at: run.startedAt,
    finished_at: run.finishedAt,
    duration_ms: run.durationMs,
    meta: JSON.stringify(run.meta),
    error_message: run.errorMessage,
    has_log: run.hasLog,
  };
}

export function publicRun(run: RunRecord): Run {
  return {
    runId: run.runId,
    monitorId: run.monitorId,
    status: run.status,
    startedAt: iso(run.startedAt),
    finishedAt: run.finishedAt === null ? null : iso(run.finishedAt),
    durationMs: run.durationMs,
    meta: run.meta,
    errorMessage: run.errorMessage,
    hasLog: run.hasLog,
  };
}

export async function findRun(knex: Knex, accountId: string, monitorId: string, runId: string): Promise<RunRecord | undefined> {
  const row = await knex<RunRow>('runs').where({ account_id: accountId, monitor_id: monitorId, id: runId }).first();
  return row && toRecord(row);
}

/**
 * The monitor's most recently started run that is still running. On PostgreSQL the row is locked and
 * rows locked by concurrent pings are skipped, so two results never finish the same run.
 */
export async function findLatestOpenRun(trx: Knex.Transaction, monitorId: string, lockRows: boolean): Promise<RunRecord | undefined> {
  const query = trx<RunRow>('runs')
    .where({ monitor_id: monitorId, status: 'running' })
    .orderBy([{ column: 'started_at', order: 'desc' }, { column: 'id', order: 'desc' }])
    .first();
  if (lockRows) query.forUpdate().skipLocked();
  const row = await query;
  return row && toRecord(row);
}

/** Inserts a run unless one with its id exists on the monitor; true when inserted. */
export async function insertRun(knex: Knex, run: RunRecord): Promise<boolean> {
  const inserted = await knex('runs').insert(toRow(run)).onConflict(['monitor_id', 'id']).ignore().returning('id');
  return inserted.length === 1;
}

/** Finishes a run that is still running; false when another ping finished it first. */
export async function finishRun(knex: Knex, run: RunRecord): Promise<boolean> {
  const updated = await knex('runs')
    .where({ monitor_id: run.monitorId, id: run.runId, status: 'running' })
    .update({
      status: run.status,
      finished_at: run.finishedAt,
      duration_ms: run.durationMs,
      meta: JSON.stringify(run.meta),
      error_message: run.errorMessage,
      has_log: run.hasLog,
    });
  return updated === 1;
}
