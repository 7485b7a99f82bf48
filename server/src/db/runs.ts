import { RECENT_RUNS, ruleInput } from '@pingmon/sdk/wire';
import type { MatchedRule, RecentRuns, RunStatus } from '@pingmon/sdk/wire';
import type { RuleInput } from '../domain/rules.js';
import { storedMatch } from '../domain/rules.js';
import type { RunRecord } from '../domain/runs.js';
import type { CursorKey } from './cursor.js';
import { startAfter } from './cursor.js';
import { ms } from './index.js';
import type { Sql, SqlParam, TransactionSql } from './sql.js';
import { marks } from './sql.js';
import type { ArrayForm } from './batch.js';
import { FRESH_GRACE } from './monitors.js';

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
  matched_rules: string | null;
  host: string | null;
  fingerprint: string | null;
  redactions: number | string;
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
    matchedRules: row.matched_rules === null ? null : (JSON.parse(row.matched_rules) as MatchedRule[]).map(storedMatch),
    host: row.host,
    fingerprint: row.fingerprint,
    redactions: Number(row.redactions),
  };
}

const EARLIER_SUCCESSES =
  "select meta, duration_ms from runs where monitor_id = ? and status = 'success' and started_at <= ? and id <> ? " +
  'order by started_at desc, id desc limit ?';

/**
 * What look-back rules judge `run` against: the monitor's `limit` latest successes started before it, newest first,
 * as rules see them. One read of the runs_successes index, however many failed runs lie between.
 */
export async function findEarlierSuccesses(
  sql: Sql,
  run: Pick<RunRecord, 'monitorId' | 'runId' | 'startedAt'>,
  limit: number,
): Promise<RuleInput[]> {
  const rows = await sql.rows<Pick<RunRow, 'meta' | 'duration_ms'>>(EARLIER_SUCCESSES, [
    ...[run.monitorId, run.startedAt, run.runId, limit],
  ]);
  return rows.map((row) => ruleInput(JSON.parse(row.meta) as Record<string, number>, ms(row.duration_ms)));
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
    matched_rules: run.matchedRules === null ? null : JSON.stringify(run.matchedRules),
    host: run.host,
    fingerprint: run.fingerprint,
    redactions: run.redactions,
  };
}

const COLUMNS =
  'monitor_id, id, account_id, status, started_at, finished_at, duration_ms, meta, error_message, has_log, ' +
  'matched_rules, host, fingerprint, redactions';
// Built once: the SQLite statement cache is keyed by the text.
const FIND_RUN = `select ${COLUMNS} from runs where account_id = ? and monitor_id = ? and id = ?`;
const FIND_OPEN_RUN =
  `select ${COLUMNS} from runs where monitor_id = ? and status = 'running' ` +
  'order by started_at desc, id desc limit 1';
const INSERT_RUN =
  `insert into runs (${COLUMNS}, timeout_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ` +
  'on conflict (monitor_id, id) do nothing';

export async function findRun(
  sql: Sql,
  accountId: string,
  monitorId: string,
  runId: string,
): Promise<RunRecord | undefined> {
  const [row] = await sql.rows<RunRow>(FIND_RUN, [accountId, monitorId, runId]);
  return row && toRecord(row);
}

/**
 * A run's status, its row locked until the transaction ends (PostgreSQL): a live output chunk and the ping that
 * finishes the run take turns, so no chunk is written to a run that has ended.
 */
export async function lockRunStatus(
  sql: TransactionSql,
  accountId: string,
  monitorId: string,
  runId: string,
): Promise<RunStatus | undefined> {
  const [row] = await sql.rows<{ status: RunStatus }>(
    sql.locking('select status from runs where account_id = ? and monitor_id = ? and id = ?', 'no key update'),
    [accountId, monitorId, runId],
  );
  return row?.status;
}

/**
 * The monitor's most recently started run that is still running. In a transaction the row is locked and rows
 * locked by concurrent pings are skipped, so two results never finish the same run.
 */
export async function findLatestOpenRun(sql: Sql, monitorId: string): Promise<RunRecord | undefined> {
  const query = sql.inTransaction ? sql.locking(FIND_OPEN_RUN, 'update skip locked') : FIND_OPEN_RUN;
  const [row] = await sql.rows<RunRow>(query, [monitorId]);
  return row && toRecord(row);
}

/** Whether the monitor has a run opened less than `gapMs` before or after `at` (the rate limit of a late opening). */
export async function hasRunOpenedNear(sql: TransactionSql, monitorId: string, at: number, gapMs: number) {
  const rows = await sql.rows('select 1 from runs where monitor_id = ? and started_at > ? and started_at < ? limit 1', [
    monitorId,
    at - gapMs,
    at + gapMs,
  ]);
  return rows.length > 0;
}

/**
 * Inserts a run unless one with its id exists on the monitor; true when inserted. `timeoutAt`: when a running
 * run counts as timed out (its monitor's maxRuntime), else null.
 */
export async function insertRun(sql: Sql, run: RunRecord, timeoutAt: number | null): Promise<boolean> {
  return (await sql.changes(INSERT_RUN, [...runParams(run), timeoutAt])) === 1;
}

/** The values of COLUMNS, in their order. */
function runParams(run: RunRecord): SqlParam[] {
  const r = toRow(run);
  return [
    r.monitor_id,
    r.id,
    r.account_id,
    r.status,
    r.started_at,
    r.finished_at,
    r.duration_ms,
    r.meta,
    r.error_message,
    r.has_log,
    r.matched_rules,
    r.host,
    r.fingerprint,
    r.redactions,
  ];
}

/** A condition on the monitor's row for a statement outside a transaction (monitors.ts, unchangedMonitor). */
export interface Guard {
  text: string;
  params: SqlParam[];
}

const INSERT_RUN_IF = `insert into runs (${COLUMNS}, timeout_at) select ${marks(COLUMNS.split(', '))}, ? where `;
const NO_OPEN_RUN = " and not exists (select 1 from runs where monitor_id = ? and status = 'running')";

/**
 * insertRun, outside a transaction, made only while `guard` holds and, with `noOpenRun`, while the monitor has no
 * running run (the pairing of a result without runId rests on it): one step with that condition (`changesIf`).
 */
export async function insertRunIf(
  sql: Sql,
  run: RunRecord,
  timeoutAt: number | null,
  guard: Guard,
  noOpenRun: boolean,
): Promise<boolean> {
  const texts = guardedTexts(guard);
  const text = noOpenRun ? texts['insert, no open run'] : texts.insert;
  if (!sql.inTransaction && !arrayForms.has(text)) arrayForms.set(text, insertArrayForm(guard, noOpenRun));
  const changed = await sql.changesIf({
    inline: text,
    check: noOpenRun ? texts['check, no open run'] : texts.check,
    write: INSERT_RUN,
    values: [...runParams(run), timeoutAt],
    condition: noOpenRun ? [...guard.params, run.monitorId] : guard.params,
  });
  return changed === 1;
}

const FINISH_RUN =
  'update runs set status = ?, finished_at = ?, duration_ms = ?, meta = ?, error_message = ?, has_log = ?, ' +
  "matched_rules = ?, fingerprint = ?, redactions = ? where monitor_id = ? and id = ? and status = 'running'";

/**
 * Finishes a run that is still running; false when another ping finished it first. Outside a transaction,
 * made only while `guard` holds.
 */
export async function finishRun(sql: Sql, run: RunRecord, guard?: Guard): Promise<boolean> {
  const text = guard ? guardedTexts(guard).finish : FINISH_RUN;
  if (guard && !arrayForms.has(text)) arrayForms.set(text, finishArrayForm(guard));
  const updated = await sql.changes(text, [
    run.status,
    run.finishedAt,
    run.durationMs,
    JSON.stringify(run.meta),
    run.errorMessage,
    run.hasLog,
    run.matchedRules === null ? null : JSON.stringify(run.matchedRules),
    run.fingerprint,
    run.redactions,
    run.monitorId,
    run.runId,
    ...(guard?.params ?? []),
  ]);
  return updated === 1;
}

type Guarded = 'insert' | 'insert, no open run' | 'check' | 'check, no open run' | 'finish';
// Built once per guard's text (a fixed few): a text built per ping was hashed by every cache it met.
const guardedByText = new Map<string, Record<Guarded, string>>();

function guardedTexts(guard: Guard): Record<Guarded, string> {
  let texts = guardedByText.get(guard.text);
  if (texts === undefined) {
    const insert = (noOpenRun: boolean) =>
      `${INSERT_RUN_IF}${guard.text}${noOpenRun ? NO_OPEN_RUN : ''} on conflict (monitor_id, id) do nothing`;
    texts = {
      insert: insert(false),
      'insert, no open run': insert(true),
      check: `select 1 where ${guard.text}`,
      'check, no open run': `select 1 where ${guard.text}${NO_OPEN_RUN}`,
      finish: `${FINISH_RUN} and ${guard.text}`,
    };
    if (guardedByText.size < 100) guardedByText.set(guard.text, texts);
  }
  return texts;
}

// Array forms of the guarded statements, for batches on PostgreSQL (db/batch.ts): one per guard's text.
const arrayForms = new Map<string, ArrayForm>();

/** The array form of a statement of insertRunIf or finishRun, if it has one. */
export function runArrayForm(text: string): ArrayForm | undefined {
  return arrayForms.get(text);
}

// PostgreSQL's types of the runs columns that are not text, for unnest's arrays.
const NOT_TEXT: Record<string, string> = {
  started_at: 'bigint',
  finished_at: 'bigint',
  duration_ms: 'bigint',
  has_log: 'boolean',
  redactions: 'integer',
  timeout_at: 'bigint',
  no_open_run: 'boolean',
};
const INSERTED = [...COLUMNS.split(', '), 'timeout_at'];
const FINISHED = [
  'status',
  'finished_at',
  'duration_ms',
  'meta',
  'error_message',
  'has_log',
  'matched_rules',
  'fingerprint',
  'redactions',
];

/** unnest's arrays of `columns` and of the guard's values (booleans as such, the rest compared through casts). */
function arrayed(columns: readonly string[], guard: Guard): { from: string; guard: string } {
  const types = [
    ...columns.map((c) => NOT_TEXT[c] ?? 'text'),
    ...guard.params.map((p) => (typeof p === 'boolean' ? 'boolean' : 'text')),
  ];
  const names = [...columns, ...guard.params.map((_, i) => `g${i + 1}`), 'ord'];
  let g = 0;
  return {
    from: `unnest(${types.map((t, i) => `$${i + 1}::${t}[]`).join(', ')}) with ordinality as v(${names.join(', ')})`,
    guard: guard.text.replace(/\?/g, () => `v.g${++g}`),
  };
}

const runKey = (monitorId: SqlParam, runId: SqlParam) => `run ${String(monitorId)} ${String(runId)}`;

// `touches` lets db/batch.ts cut a batch where an item must see an earlier one's write: a statement sees none of
// its own rows.
function insertArrayForm(guard: Guard, noOpenRun: boolean): ArrayForm {
  const a = arrayed([...INSERTED, 'no_open_run'], guard);
  const text =
    `with v as (select * from ${a.from}), ` +
    `written as (insert into runs (${INSERTED.join(', ')}) select ${INSERTED.join(', ')} from v where ${a.guard} ` +
    // A scalar subquery, probed per row: PostgreSQL would hash a `not exists` over every monitor's running runs.
    'and (not v.no_open_run or ' +
    "(select 1 from runs where monitor_id = v.monitor_id and status = 'running' limit 1) is null) " +
    'on conflict (monitor_id, id) do nothing returning monitor_id, id) ' +
    'select v.ord from v join written using (monitor_id, id)';
  return {
    text,
    row: (params) => [
      ...params.slice(0, INSERTED.length),
      noOpenRun,
      ...params.slice(INSERTED.length, INSERTED.length + guard.params.length),
    ],
    touches: (params) => {
      const [monitorId, runId, , status] = params;
      const key = runKey(monitorId, runId);
      const open = `open ${String(monitorId)}`;
      return { reads: noOpenRun ? [key, open] : [key], writes: status === 'running' ? [key, open] : [key] };
    },
  };
}

function finishArrayForm(guard: Guard): ArrayForm {
  const a = arrayed([...FINISHED, 'monitor_id', 'id'], guard);
  const text =
    `update runs set ${FINISHED.map((c) => `${c} = v.${c}`).join(', ')} from ${a.from} ` +
    "where runs.monitor_id = v.monitor_id and runs.id = v.id and runs.status = 'running' " +
    `and ${a.guard} returning v.ord`;
  return {
    text,
    row: (params) => [...params],
    touches: (params) => {
      const key = runKey(params[9], params[10]);
      return { reads: [key], writes: [key, `open ${String(params[9])}`] };
    },
  };
}

/** A page of a monitor's runs, newest first, after `after`; logs are never read here. */
export async function listRuns(
  sql: Sql,
  accountId: string,
  monitorId: string,
  page: { limit: number; status?: RunStatus; fingerprint?: string; after?: CursorKey },
): Promise<RunRecord[]> {
  const where = ['account_id = ?', 'monitor_id = ?'];
  const params: SqlParam[] = [accountId, monitorId];
  if (page.status) {
    where.push('status = ?');
    params.push(page.status);
  }
  if (page.fingerprint) {
    where.push('fingerprint = ?');
    params.push(page.fingerprint);
  }
  if (page.after) {
    const start = startAfter(page.after, 'started_at', 'id');
    where.push(start.sql);
    params.push(...start.params);
  }
  const rows = await sql.rows<RunRow>(
    `select ${COLUMNS} from runs where ${where.join(' and ')} order by started_at desc, id desc limit ?`,
    [...params, page.limit],
  );
  return rows.map(toRecord);
}

/** A failure as the monitor's kept runs have seen it: the first start among them, and how many. */
export interface FailureSeen {
  firstSeenAt: number;
  count: number;
}

/** The monitor's kept runs with this fingerprint (read through the runs_fingerprint index). */
export async function findFailureSeen(
  sql: Sql,
  accountId: string,
  monitorId: string,
  fingerprint: string,
): Promise<FailureSeen | undefined> {
  const [row] = await sql.rows<{ first: number | string | null; count: number | string }>(
    'select min(started_at) as first, count(*) as count from runs ' +
      'where monitor_id = ? and fingerprint = ? and account_id = ?',
    [monitorId, fingerprint, accountId],
  );
  return row && row.first !== null ? { firstSeenAt: ms(row.first), count: Number(row.count) } : undefined;
}

/**
 * How many failed runs in a row just before `run` (by start; running ones aside) had its fingerprint: those after
 * the latest finished run before it that did not, found from the end of the (monitor_id, started_at) index.
 */
export async function countRepeats(sql: Sql, run: RunRecord): Promise<number> {
  const before = startAfter({ at: run.startedAt, id: run.runId }, 'started_at', 'id');
  const [other] = await sql.rows<{ started_at: number | string; id: string }>(
    `select started_at, id from runs where monitor_id = ? and ${before.sql} and status <> 'running' ` +
      "and (status <> 'failed' or fingerprint is null or fingerprint <> ?) order by started_at desc, id desc limit 1",
    [run.monitorId, ...before.params, run.fingerprint],
  );
  const where = ['monitor_id = ?', 'fingerprint = ?', "status = 'failed'", before.sql];
  const params: SqlParam[] = [run.monitorId, run.fingerprint, ...before.params];
  if (other) {
    // After `other` in time: what comes before this run but not before `other`.
    const at = ms(other.started_at);
    where.push('(started_at > ? or (started_at = ? and id > ?))');
    params.push(at, at, other.id);
  }
  const [row] = await sql.rows<{ count: number | string }>(
    `select count(*) as count from runs where ${where.join(' and ')}`,
    params,
  );
  return Number(row?.count ?? 0);
}

/**
 * A page of the monitor's run openings for its timeline, newest first by start: runs opened by a start ping (still
 * running, or finished with a duration); a run created already finished opened nothing.
 */
export async function listRunStarts(
  sql: Sql,
  accountId: string,
  monitorId: string,
  page: { limit: number; after?: CursorKey },
): Promise<RunRecord[]> {
  const start = page.after && startAfter(page.after, 'started_at', 'id');
  const rows = await sql.rows<RunRow>(
    `select ${COLUMNS} from runs where account_id = ? and monitor_id = ? ` +
      `and (status = 'running' or duration_ms is not null) ${start ? `and ${start.sql} ` : ''}` +
      'order by started_at desc, id desc limit ?',
    [accountId, monitorId, ...(start?.params ?? []), page.limit],
  );
  return rows.map(toRecord);
}

/**
 * A page of the monitor's finished runs of `statuses` for its timeline, newest first by finish. No index has
 * finished_at (every ping would pay for one): this reads the monitor's runs started by the page's end, all of them
 * for the first page, which retention bounds (PINGMON_RETENTION_RUNS).
 */
export async function listRunEnds(
  sql: Sql,
  accountId: string,
  monitorId: string,
  page: { statuses: readonly RunStatus[]; limit: number; after?: CursorKey },
): Promise<RunRecord[]> {
  if (page.statuses.length === 0) return [];
  const where = ['account_id = ?', 'monitor_id = ?', `status in (${marks(page.statuses)})`, 'finished_at is not null'];
  const params: SqlParam[] = [accountId, monitorId, ...page.statuses];
  if (page.after) {
    // A run finishes after it starts: none started after the page's end finished before it.
    const start = startAfter(page.after, 'finished_at', 'id');
    where.push('started_at <= ?', start.sql);
    params.push(page.after.at, ...start.params);
  }
  const rows = await sql.rows<RunRow>(
    `select ${COLUMNS} from runs where ${where.join(' and ')} order by finished_at desc, id desc limit ?`,
    [...params, page.limit],
  );
  return rows.map(toRecord);
}

/** When the monitor's latest `limit` runs opened, newest first (an indexed LIMIT read: domain/schedule-hint.ts). */
export async function listRunOpenings(
  sql: Sql,
  accountId: string,
  monitorId: string,
  limit: number,
): Promise<number[]> {
  const rows = await sql.rows<{ started_at: number | string }>(
    'select started_at from runs where account_id = ? and monitor_id = ? order by started_at desc, id desc limit ?',
    [accountId, monitorId, limit],
  );
  return rows.map((row) => ms(row.started_at));
}

/** A monitor's last run, and what became of its latest RECENT_RUNS runs. */
export interface LatestRuns {
  lastRun: RunRecord;
  recentRuns: RecentRuns;
}

// A monitor's runs in the runs list's order. With LIMIT, both databases read the (monitor_id, started_at)
// index from its end and stop after that many rows (and the ties of the last one), however many runs there are.
const LATEST = 'from runs r2 where r2.monitor_id = m.id order by r2.started_at desc, r2.id desc';
// Each count reads the same few rows again: SQLite has no LATERAL join that would read them once for all three.
const RECENT = `(select r2.status, r2.matched_rules ${LATEST} limit ${RECENT_RUNS}) recent`;
const FIND_LATEST = `select ${COLUMNS.split(', ')
  .map((c) => `r.${c}`)
  .join(', ')},
    (select count(*) from ${RECENT}) as recent_runs,
    (select count(*) from ${RECENT} where status = 'failed') as recent_failed,
    (select count(*) from ${RECENT} where status = 'success' and matched_rules is not null) as recent_silent_failures
  from monitors m join runs r on r.monitor_id = m.id and r.id = (select r2.id ${LATEST} limit 1)
  where m.account_id = ? and m.id in`;

interface LatestRow extends RunRow {
  recent_runs: number | string;
  recent_failed: number | string;
  recent_silent_failures: number | string;
}

/**
 * Each monitor's last run and the counts of its latest RECENT_RUNS runs, for a page of monitors in one
 * statement: one snapshot, so the last run is always among the runs counted. Monitors without runs are absent.
 */
export async function findLatestRuns(
  sql: Sql,
  accountId: string,
  monitorIds: readonly string[],
): Promise<Map<string, LatestRuns>> {
  const latest = new Map<string, LatestRuns>();
  if (monitorIds.length === 0) return latest;
  const rows = await sql.rows<LatestRow>(`${FIND_LATEST} (${marks(monitorIds)})`, [accountId, ...monitorIds]);
  for (const row of rows) {
    latest.set(row.monitor_id, {
      lastRun: toRecord(row),
      recentRuns: {
        runs: Number(row.recent_runs),
        failed: Number(row.recent_failed),
        silentFailures: Number(row.recent_silent_failures),
      },
    });
  }
  return latest;
}

/** When a monitor's last run started, and where it stands. */
export interface LastRun {
  startedAt: number;
  status: RunStatus;
  /** The host its opening ping named, if any. */
  host: string | null;
}

/** The last run of each of these monitors (of any account: for the sweeper), by start; monitors without runs absent. */
export async function findLastRuns(sql: Sql, monitorIds: readonly string[]): Promise<Map<string, LastRun>> {
  const last = new Map<string, LastRun>();
  if (monitorIds.length === 0) return last;
  const rows = await sql.rows<{
    monitor_id: string;
    started_at: number | string;
    status: RunStatus;
    host: string | null;
  }>(
    'select r.monitor_id, r.started_at, r.status, r.host from runs r where r.id = (select r2.id from runs r2 ' +
      'where r2.monitor_id = r.monitor_id order by r2.started_at desc, r2.id desc limit 1) ' +
      `and r.monitor_id in (${marks(monitorIds)})`,
    monitorIds,
  );
  for (const row of rows)
    last.set(row.monitor_id, { startedAt: ms(row.started_at), status: row.status, host: row.host });
  return last;
}

/** Monitors per statement of findRunHistory. */
const HISTORY_CHUNK = 200;

/** One of a monitor's latest runs, for a chart of outcomes and durations. */
export interface RunPointRecord {
  runId: string;
  status: RunStatus;
  startedAt: number;
  durationMs: number | null;
  silentFailure: boolean;
}

/**
 * The latest `count` runs of each of a page of monitors, newest first: one statement of one indexed LIMIT read per
 * monitor (a window function would read every run of every monitor first).
 */
export async function findRunHistory(
  sql: Sql,
  accountId: string,
  monitorIds: readonly string[],
  count: number,
): Promise<Map<string, RunPointRecord[]>> {
  const history = new Map<string, RunPointRecord[]>(monitorIds.map((id) => [id, []]));
  const one =
    'select * from (select monitor_id, id, status, started_at, duration_ms, matched_rules is not null as silent ' +
    'from runs where account_id = ? and monitor_id = ? order by started_at desc, id desc limit ?) h';
  // SQLite allows at most 500 terms in one compound SELECT.
  for (let i = 0; i < monitorIds.length; i += HISTORY_CHUNK) {
    const chunk = monitorIds.slice(i, i + HISTORY_CHUNK);
    const rows = await sql.rows<{
      monitor_id: string;
      id: string;
      status: RunStatus;
      started_at: number | string;
      duration_ms: number | string | null;
      silent: boolean | number;
    }>(
      chunk.map(() => one).join(' union all '),
      chunk.flatMap((id) => [accountId, id, count]),
    );
    for (const row of rows)
      history.get(row.monitor_id)?.push({
        runId: row.id,
        status: row.status,
        startedAt: ms(row.started_at),
        durationMs: ms(row.duration_ms),
        silentFailure: Boolean(row.silent),
      });
  }
  // UNION ALL promises no order: newest first again, as each branch read them.
  for (const points of history.values())
    points.sort((a, b) => b.startedAt - a.startedAt || (a.runId < b.runId ? 1 : a.runId > b.runId ? -1 : 0));
  return history;
}

// Retention. A running run is never deleted: its result may still come. Deleting a run deletes its log, its alerts
// and their deliveries (foreign keys, on delete cascade).

/** What one delete of retention did: how many rows went, and the latest start among them (null for none). */
export interface Deleted {
  deleted: number;
  lastStartedAt: number | null;
}

// Each batch starts its index scan at the previous batch's last start (`from`): on PostgreSQL deleted rows stay in the
// index until vacuumed, and a scan from the beginning would step over all of them again, batch after batch.

/**
 * Deletes at most `limit` of the oldest finished runs of any monitor started before `before` (and from `from` on).
 */
export async function deleteRunsBefore(sql: Sql, before: number, from: number, limit: number): Promise<Deleted> {
  return deleted(
    await sql.rows<{ started_at: number | string }>(
      'delete from runs where (monitor_id, id) in (select monitor_id, id from runs ' +
        "where started_at < ? and started_at >= ? and status <> 'running' order by started_at limit ?) " +
        'returning started_at',
      [before, from, limit],
    ),
  );
}

/** The position in the monitor's runs list of its `n`-th newest run, when it has that many. */
export async function findNthRun(sql: Sql, monitorId: string, n: number): Promise<CursorKey | undefined> {
  const [row] = await sql.rows<{ started_at: number | string; id: string }>(
    'select started_at, id from runs where monitor_id = ? order by started_at desc, id desc limit 1 offset ?',
    [monitorId, n - 1],
  );
  return row && { at: ms(row.started_at), id: row.id };
}

/** Deletes at most `limit` of the monitor's oldest finished runs listed after `after` (and started from `from` on). */
export async function deleteRunsAfter(
  sql: Sql,
  monitorId: string,
  after: CursorKey,
  from: number,
  limit: number,
): Promise<Deleted> {
  const start = startAfter(after, 'started_at', 'id');
  return deleted(
    await sql.rows<{ started_at: number | string }>(
      'delete from runs where (monitor_id, id) in (select monitor_id, id from runs ' +
        `where monitor_id = ? and started_at >= ? and ${start.sql} and status <> 'running' ` +
        'order by started_at limit ?) returning started_at',
      [monitorId, from, ...start.params, limit],
    ),
  );
}

function deleted(rows: Array<{ started_at: number | string }>): Deleted {
  const starts = rows.map((r) => ms(r.started_at));
  return { deleted: rows.length, lastStartedAt: starts.length === 0 ? null : Math.max(...starts) };
}

/** A run past its maxRuntime, as the sweeper finds it. */
export interface OverdueRun {
  monitorId: string;
  runId: string;
  startedAt: number;
}

/** Running runs whose maxRuntime has passed, earliest deadline first (read through the runs_timeout index). */
export async function findOverdueRuns(sql: Sql, now: number, limit: number): Promise<OverdueRun[]> {
  const rows = await sql.rows<{ monitor_id: string; id: string; started_at: number | string }>(
    "select monitor_id, id, started_at from runs where status = 'running' and timeout_at <= ? " +
      'order by timeout_at limit ?',
    [now, limit],
  );
  return rows.map((r) => ({ monitorId: r.monitor_id, runId: r.id, startedAt: ms(r.started_at) }));
}

/**
 * Sets the maxRuntime deadline of the monitor's running runs: `maxRuntimeSeconds` after each one's start, or
 * none (null: no limit, or the monitor is paused).
 */
export async function setRunDeadlines(sql: Sql, monitorId: string, maxRuntimeSeconds: number | null): Promise<void> {
  const running = "where monitor_id = ? and status = 'running'";
  if (maxRuntimeSeconds === null) await sql.changes(`update runs set timeout_at = null ${running}`, [monitorId]);
  else
    await sql.changes(`update runs set timeout_at = started_at + ? ${running}`, [maxRuntimeSeconds * 1000, monitorId]);
}

/**
 * After no server swept from `gap.from` to `gap.to`: maxRuntime deadlines that had not passed by `gap.from` are
 * at least a fresh grace from `gap.to` (the monitor's startGrace, at least `minGraceMs`): a result may be in a
 * job host's spool.
 */
export async function moveRunDeadlines(
  sql: TransactionSql,
  gap: { from: number; to: number },
  minGraceMs: number,
): Promise<number> {
  const deadline = `cast(? as bigint) + (select ${FRESH_GRACE} from monitors m where m.id = runs.monitor_id)`;
  return sql.changes(
    `update runs set timeout_at = ${deadline} where status = 'running' and timeout_at > ? and timeout_at < ${deadline}`,
    [gap.to, minGraceMs, minGraceMs, gap.from, gap.to, minGraceMs, minGraceMs],
  );
}

/**
 * Finishes overdue runs as failed with `errorMessage`, in one statement, unless a result or another server
 * finished them first; answers the ones it finished.
 */
export async function timeOutRuns(
  sql: TransactionSql,
  runs: readonly OverdueRun[],
  now: number,
  failure: { errorMessage: string; fingerprint: string },
): Promise<RunRecord[]> {
  if (runs.length === 0) return [];
  const rows = await sql.rows<RunRow>(
    "update runs set status = 'failed', finished_at = ?, duration_ms = cast(? as bigint) - started_at, " +
      "error_message = ?, fingerprint = ?, timeout_at = null where status = 'running' and timeout_at <= ? and " +
      `(monitor_id, id) in (values ${runs.map(() => '(?, ?)').join(', ')}) returning ${COLUMNS}`,
    [now, now, failure.errorMessage, failure.fingerprint, now, ...runs.flatMap((r) => [r.monitorId, r.runId])],
  );
  return rows.map(toRecord);
}

/** What became of a monitor's runs started on one day: `day` counts days from the range's start. */
export interface RunDay {
  monitorId: string;
  day: number;
  runs: number;
  /** Failed runs and silent failures. */
  failed: number;
}

/**
 * The account's runs of these monitors started from `from` to before `to`, counted by monitor and by day of
 * `dayMs` from `from`: one statement for every monitor and day, reading the (monitor_id, started_at) index.
 */
export async function countRunDays(
  sql: Sql,
  accountId: string,
  monitorIds: readonly string[],
  range: { from: number; to: number; dayMs: number },
): Promise<RunDay[]> {
  if (monitorIds.length === 0) return [];
  const rows = await sql.rows<{
    monitor_id: string;
    day_index: number | string;
    runs: number | string;
    failed: number | string;
  }>(
    'select monitor_id, cast((started_at - ?) / ? as integer) as day_index, count(*) as runs, ' +
      "sum(case when status = 'failed' or (status = 'success' and matched_rules is not null) then 1 else 0 end) " +
      `as failed from runs where account_id = ? and monitor_id in (${marks(monitorIds)}) ` +
      'and started_at >= ? and started_at < ? group by monitor_id, day_index',
    [range.from, range.dayMs, accountId, ...monitorIds, range.from, range.to],
  );
  return rows.map((row) => ({
    monitorId: row.monitor_id,
    day: Number(row.day_index),
    runs: Number(row.runs),
    failed: Number(row.failed),
  }));
}
