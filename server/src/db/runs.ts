import type { Run, RunStatus } from '@pingmon/sdk';
import type { RunRecord } from '../domain/runs.js';
import { iso } from '../domain/runs.js';
import { ms } from './index.js';
import type { Sql } from './sql.js';

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

const COLUMNS = 'monitor_id, id, account_id, status, started_at, finished_at, duration_ms, meta, error_message, has_log';
// Built once: the SQLite statement cache is keyed by the text.
const FIND_RUN = `select ${COLUMNS} from runs where account_id = ? and monitor_id = ? and id = ?`;
const FIND_OPEN_RUN = `select ${COLUMNS} from runs where monitor_id = ? and status = 'running' order by started_at desc, id desc limit 1`;
const INSERT_RUN = `insert into runs (${COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (monitor_id, id) do nothing`;

export async function findRun(sql: Sql, accountId: string, monitorId: string, runId: string): Promise<RunRecord | undefined> {
  const [row] = await sql.rows<RunRow>(FIND_RUN, [accountId, monitorId, runId]);
  return row && toRecord(row);
}

/**
 * The monitor's most recently started run that is still running. On PostgreSQL the row is locked and
 * rows locked by concurrent pings are skipped, so two results never finish the same run.
 */
export async function findLatestOpenRun(sql: Sql, monitorId: string): Promise<RunRecord | undefined> {
  const query = sql.dialect === 'postgres' ? `${FIND_OPEN_RUN} for update skip locked` : FIND_OPEN_RUN;
  const [row] = await sql.rows<RunRow>(query, [monitorId]);
  return row && toRecord(row);
}

/** Inserts a run unless one with its id exists on the monitor; true when inserted. */
export async function insertRun(sql: Sql, run: RunRecord): Promise<boolean> {
  const r = toRow(run);
  const inserted = await sql.changes(
    INSERT_RUN,
    [r.monitor_id, r.id, r.account_id, r.status, r.started_at, r.finished_at, r.duration_ms, r.meta, r.error_message, r.has_log],
  );
  return inserted === 1;
}

/** Finishes a run that is still running; false when another ping finished it first. */
export async function finishRun(sql: Sql, run: RunRecord): Promise<boolean> {
  const updated = await sql.changes(
    "update runs set status = ?, finished_at = ?, duration_ms = ?, meta = ?, error_message = ?, has_log = ? where monitor_id = ? and id = ? and status = 'running'",
    [run.status, run.finishedAt, run.durationMs, JSON.stringify(run.meta), run.errorMessage, run.hasLog, run.monitorId, run.runId],
  );
  return updated === 1;
}
