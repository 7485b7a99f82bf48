import type { CursorKey } from './cursor.js';
import { startAfter } from './cursor.js';
import { ms } from './index.js';
import type { FailAlerts, IncidentCause, RunStatus } from '@pingmon/sdk/wire';
import type { MonitorSettings, MonitorState, Scheduling } from '../domain/monitor-settings.js';
import type { MonitorFacts } from '../domain/ping-writes.js';
import type { Hold } from '../domain/quiet.js';
import type { StoredSchedule } from '../domain/schedule.js';
import type { Sql, SqlParam, TransactionSql } from './sql.js';
import { marks } from './sql.js';

interface MonitorRow extends ScheduleRow, QuietRow {
  id: string;
  account_id: string;
  name: string;
  slug: string;
  created_at: number | string;
  last_opened_at: number | string | null;
}

/** The columns a ping and the sweeper read: schedule, settings and health. */
interface ScheduleRow {
  schedule: string | null;
  start_grace: number;
  max_runtime: number | null;
  failure_threshold: number;
  recovery_threshold: number;
  renotify_after: number | null;
  fail_alerts: FailAlerts;
  paused: boolean | number;
  next_expected_at: number | string | null;
  missed_at: number | string | null;
  fail_streak: number;
  ok_streak: number;
  incident_opened_at: number | string | null;
  incident_cause: IncidentCause | null;
  incident_failed_runs: number;
  incident_missed_runs: number;
  remind_at: number | string | null;
}

/** The columns of a monitor's snooze, and of the alerts it held back while quiet (domain/quiet.ts). */
interface QuietRow {
  snoozed_until: number | string | null;
  held_since: number | string | null;
  held_until: number | string | null;
}

export interface Quieting {
  snoozedUntil: number | null;
  hold: Hold | null;
}

const QUIET_COLUMNS = 'snoozed_until, held_since, held_until';

function toQuieting(row: QuietRow): Quieting {
  const since = ms(row.held_since);
  const until = ms(row.held_until);
  return { snoozedUntil: ms(row.snoozed_until), hold: since === null || until === null ? null : { since, until } };
}

function quietParams(q: Quieting): SqlParam[] {
  return [q.snoozedUntil, q.hold?.since ?? null, q.hold?.until ?? null];
}

/** A monitor as the server holds it; times are epoch milliseconds. */
export interface MonitorRecord extends Scheduling, Quieting {
  monitorId: string;
  accountId: string;
  name: string;
  slug: string;
  createdAt: number;
  lastOpenedAt: number | null;
}

const SCHEDULE_COLUMNS =
  'schedule, start_grace, max_runtime, failure_threshold, recovery_threshold, renotify_after, fail_alerts, paused, ' +
  'next_expected_at, missed_at, fail_streak, ok_streak, incident_opened_at, incident_cause, incident_failed_runs, ' +
  'incident_missed_runs, remind_at';
const COLUMNS = `id, account_id, name, slug, created_at, last_opened_at, ${SCHEDULE_COLUMNS}, ${QUIET_COLUMNS}`;

function toScheduling(row: ScheduleRow): Scheduling {
  return {
    schedule: row.schedule === null ? null : (JSON.parse(row.schedule) as StoredSchedule),
    startGrace: Number(row.start_grace),
    maxRuntime: row.max_runtime === null ? null : Number(row.max_runtime),
    failureThreshold: Number(row.failure_threshold),
    recoveryThreshold: Number(row.recovery_threshold),
    renotifyAfter: row.renotify_after === null ? null : Number(row.renotify_after),
    failAlerts: row.fail_alerts,
    paused: Boolean(row.paused),
    nextExpectedAt: ms(row.next_expected_at),
    missedAt: ms(row.missed_at),
    health: {
      failStreak: Number(row.fail_streak),
      okStreak: Number(row.ok_streak),
      incident:
        row.incident_opened_at === null || row.incident_cause === null
          ? null
          : {
              openedAt: ms(row.incident_opened_at),
              cause: row.incident_cause,
              failedRuns: Number(row.incident_failed_runs),
              missedRuns: Number(row.incident_missed_runs),
            },
      remindAt: ms(row.remind_at),
    },
  };
}

function toRecord(row: MonitorRow): MonitorRecord {
  return {
    monitorId: row.id,
    accountId: row.account_id,
    name: row.name,
    slug: row.slug,
    createdAt: ms(row.created_at),
    lastOpenedAt: ms(row.last_opened_at),
    ...toScheduling(row),
    ...toQuieting(row),
  };
}

/** The values of SCHEDULE_COLUMNS, in their order. */
function schedulingParams(s: Scheduling): SqlParam[] {
  const { health } = s;
  return [
    s.schedule === null ? null : JSON.stringify(s.schedule),
    s.startGrace,
    s.maxRuntime,
    s.failureThreshold,
    s.recoveryThreshold,
    s.renotifyAfter,
    s.failAlerts,
    s.paused,
    s.nextExpectedAt,
    s.missedAt,
    health.failStreak,
    health.okStreak,
    health.incident?.openedAt ?? null,
    health.incident?.cause ?? null,
    health.incident?.failedRuns ?? 0,
    health.incident?.missedRuns ?? 0,
    health.remindAt,
  ];
}

const INSERT_MONITOR =
  `insert into monitors (${COLUMNS}) values (${marks(COLUMNS.split(', '))}) ` +
  'on conflict (account_id, slug) do nothing';

/** Inserts a monitor; undefined when its account has a monitor of that slug already. */
export async function insertMonitor(
  sql: Sql,
  monitor: Omit<MonitorRecord, 'lastOpenedAt'>,
): Promise<MonitorRecord | undefined> {
  const inserted = await sql.changes(INSERT_MONITOR, [
    monitor.monitorId,
    monitor.accountId,
    monitor.name,
    monitor.slug,
    monitor.createdAt,
    null,
    ...schedulingParams(monitor),
    ...quietParams(monitor),
  ]);
  return inserted === 1 ? { ...monitor, lastOpenedAt: null } : undefined;
}

/** The id of the account's monitor of slug `slug`. */
export async function findMonitorId(sql: Sql, accountId: string, slug: string): Promise<string | undefined> {
  const [row] = await sql.rows<{ id: string }>('select id from monitors where account_id = ? and slug = ?', [
    accountId,
    slug,
  ]);
  return row?.id;
}

/** How many monitors the account has. */
export async function countMonitors(sql: Sql, accountId: string): Promise<number> {
  const [row] = await sql.rows<{ n: number | string }>('select count(*) as n from monitors where account_id = ?', [
    accountId,
  ]);
  return Number(row?.n ?? 0);
}

/** The account's slugs that are `slug` or begin with `slug-`: to number a new one made from a name. */
export async function findSlugsLike(sql: Sql, accountId: string, slug: string): Promise<Set<string>> {
  const pattern = `${slug.replace(/[\\%_]/g, (c) => `\\${c}`)}-%`;
  const rows = await sql.rows<{ slug: string }>(
    "select slug from monitors where account_id = ? and (slug = ? or slug like ? escape '\\')",
    [accountId, slug, pattern],
  );
  return new Set(rows.map((r) => r.slug));
}

export async function findMonitor(sql: Sql, accountId: string, monitorId: string): Promise<MonitorRecord | undefined> {
  const [row] = await sql.rows<MonitorRow>(`select ${COLUMNS} from monitors where id = ? and account_id = ?`, [
    monitorId,
    accountId,
  ]);
  return row && toRecord(row);
}

/** The account's monitor, its row locked until the transaction ends (PostgreSQL): for a change of its settings. */
export async function findMonitorForUpdate(
  sql: TransactionSql,
  accountId: string,
  monitorId: string,
): Promise<MonitorRecord | undefined> {
  const query = `select ${COLUMNS} from monitors where id = ? and account_id = ?`;
  const [row] = await sql.rows<MonitorRow>(sql.locking(query, 'update'), [monitorId, accountId]);
  return row && toRecord(row);
}

const UPDATE_MONITOR = `update monitors set name = ?, slug = ?, ${`${SCHEDULE_COLUMNS}, ${QUIET_COLUMNS}`
  .split(', ')
  .map((c) => `${c} = ?`)
  .join(', ')} where id = ?`;

/** Writes a monitor's name, settings and state as given (read with findMonitorForUpdate in the same transaction). */
export async function updateMonitor(sql: TransactionSql, monitor: MonitorRecord): Promise<void> {
  await sql.changes(UPDATE_MONITOR, [
    monitor.name,
    monitor.slug,
    ...schedulingParams(monitor),
    ...quietParams(monitor),
    monitor.monitorId,
  ]);
}

const SAVE_STATE =
  'update monitors set next_expected_at = ?, missed_at = ?, fail_streak = ?, ok_streak = ?, ' +
  'incident_opened_at = ?, incident_cause = ?, incident_failed_runs = ?, incident_missed_runs = ?, remind_at = ? ' +
  'where id = ?';

/** Stores where the monitor stands after a ping or a sweep; its row is the caller's (locked for update). */
export async function saveMonitorState(sql: TransactionSql, monitorId: string, state: MonitorState): Promise<void> {
  const { health } = state;
  await sql.changes(SAVE_STATE, [
    state.nextExpectedAt,
    state.missedAt,
    health.failStreak,
    health.okStreak,
    health.incident?.openedAt ?? null,
    health.incident?.cause ?? null,
    health.incident?.failedRuns ?? 0,
    health.incident?.missedRuns ?? 0,
    health.remindAt,
    monitorId,
  ]);
}

/**
 * Deletes a monitor; ON DELETE CASCADE takes its runs, logs, rules, alerts and channel links with it, in
 * the same statement. False when there was none. A ping holding the monitor's row finishes first, and any
 * ping after finds no monitor.
 */
export async function deleteMonitor(sql: Sql, accountId: string, monitorId: string): Promise<boolean> {
  return (await sql.changes('delete from monitors where id = ? and account_id = ?', [monitorId, accountId])) === 1;
}

/** A page of the account's monitors, newest first, starting after `after`. */
export async function listMonitors(
  sql: Sql,
  accountId: string,
  page: { limit: number; after?: CursorKey; monitorIds?: readonly string[] | null },
): Promise<MonitorRecord[]> {
  const where = ['account_id = ?'];
  const params: SqlParam[] = [accountId];
  // An API key limited to some monitors lists those alone.
  if (page.monitorIds) {
    where.push(page.monitorIds.length > 0 ? `id in (${marks(page.monitorIds)})` : '1 = 0');
    params.push(...page.monitorIds);
  }
  if (page.after) {
    const start = startAfter(page.after, 'created_at', 'id');
    where.push(start.sql);
    params.push(...start.params);
  }
  const rows = await sql.rows<MonitorRow>(
    `select ${COLUMNS} from monitors where ${where.join(' and ')} order by created_at desc, id desc limit ?`,
    [...params, page.limit],
  );
  return rows.map(toRecord);
}

/** What a ping needs of its monitor. */
export type { MonitorSettings, MonitorState, Scheduling };

export interface PingMonitor extends MonitorFacts, Quieting {
  /** The values UNCHANGED compares, as read: a write outside a transaction is made only while they hold. */
  asRead: SqlParam[];
}

interface PingMonitorRow extends ScheduleRow, QuietRow {
  rule_count: number | string;
  last_opened_at: number | string | null;
}

const PING_MONITOR =
  `select rule_count, last_opened_at, ${SCHEDULE_COLUMNS}, ${QUIET_COLUMNS} from monitors ` +
  'where id = ? and account_id = ?';

/**
 * What a ping needs of the monitor, or undefined when the account has no such monitor. In a transaction, `lock`
 * holds the row until the ping commits (the lock planPing chose): a monitor deleted meanwhile is then
 * not found, and a change of its settings waits for the ping.
 */
export async function findPingMonitor(
  sql: Sql,
  accountId: string,
  monitorId: string,
  lock?: 'key share' | 'no key update',
): Promise<PingMonitor | undefined> {
  const [row] = await sql.rows<PingMonitorRow>(lock ? sql.locking(PING_MONITOR, lock) : PING_MONITOR, [
    monitorId,
    accountId,
  ]);
  if (row === undefined) return undefined;
  return {
    ruleCount: Number(row.rule_count),
    lastOpenedAt: ms(row.last_opened_at),
    ...toScheduling(row),
    ...toQuieting(row),
    asRead: UNCHANGED_COLUMNS.map((c) => row[c]),
  };
}

// What a ping's decision to write its run alone rests on (domain/ping-writes.ts): pairing and health are
// decided on these. Compared with null as a value, so a null that stayed null counts as unchanged.
const UNCHANGED_COLUMNS = [
  'rule_count',
  'paused',
  'schedule',
  'start_grace',
  'max_runtime',
  'fail_streak',
  'ok_streak',
  'incident_opened_at',
  'remind_at',
  'next_expected_at',
] as const;
const unchanged = (columns: readonly string[]) =>
  'select 1 from monitors where id = ? and account_id = ? and ' +
  columns
    .map((c) =>
      c === 'schedule'
        ? "coalesce(schedule, '') = coalesce(cast(? as text), '')"
        : c === 'paused'
          ? 'paused = ?'
          : `coalesce(${c}, -1) = coalesce(cast(? as bigint), -1)`,
    )
    .join(' and ');
const UNCHANGED = unchanged(UNCHANGED_COLUMNS);
// A ping that moves the expected opening only ever moves it later: others may have moved it meanwhile.
const UNCHANGED_BUT_EXPECTED = unchanged(UNCHANGED_COLUMNS.slice(0, -1));

// Guards' texts, one object per locked select: a text built per ping was hashed again by every cache it met.
const existsTexts = new Map<string, string>();
const existsText = (select: string): string => {
  let text = existsTexts.get(select);
  if (text === undefined) existsTexts.set(select, (text = `exists (${select})`));
  return text;
};

/**
 * A condition for a statement outside a locked transaction: the monitor's row is as `monitor` was read (but for its
 * next expected opening, with `butExpected`), and no one holds it for update (a change of its settings: the
 * statement then changes nothing, and the ping takes a transaction, which waits for it). Its key is locked as the
 * run's foreign key would.
 */
export function unchangedMonitor(
  sql: Sql,
  ids: { accountId: string; monitorId: string },
  monitor: PingMonitor,
  butExpected = false,
): { text: string; params: SqlParam[] } {
  return {
    text: existsText(sql.locking(butExpected ? UNCHANGED_BUT_EXPECTED : UNCHANGED, 'key share skip locked')),
    params: [ids.monitorId, ids.accountId, ...(butExpected ? monitor.asRead.slice(0, -1) : monitor.asRead)],
  };
}

/** Moves the monitor's next expected opening (and its deadline) to `expected`, unless it is that late already. */
export async function moveExpectedOpening(
  sql: TransactionSql,
  monitorId: string,
  expected: { nextExpectedAt: number; missedAt: number | null },
): Promise<void> {
  await sql.changes(
    'update monitors set next_expected_at = ?, missed_at = ? ' +
      'where id = ? and (next_expected_at is null or next_expected_at < ?)',
    [expected.nextExpectedAt, expected.missedAt, monitorId, expected.nextExpectedAt],
  );
}

/**
 * Records that the monitor opens a run at `now`, unless it opened one less than `intervalMs` ago.
 * One conditional update, so concurrent pings on any number of servers let exactly one through.
 */
export async function claimRunOpening(
  sql: TransactionSql,
  monitorId: string,
  now: number,
  intervalMs: number,
): Promise<boolean> {
  const updated = await sql.changes(
    'update monitors set last_opened_at = ? where id = ? and (last_opened_at is null or last_opened_at <= ?)',
    [now, monitorId, now - intervalMs],
  );
  return updated === 1;
}

// The sweeper's claims skip rows that a ping or another server holds: they are swept later.
async function claimDue(
  sql: TransactionSql,
  column: 'missed_at' | 'remind_at' | 'held_until',
  now: number,
  limit: number,
) {
  const query = `select ${COLUMNS} from monitors where ${column} <= ? order by ${column} limit ?`;
  const rows = await sql.rows<MonitorRow>(sql.locking(query, 'update skip locked'), [now, limit]);
  return rows.map(toRecord);
}

/** Monitors whose expected run opening is past its deadline, earliest first, locked for this transaction. */
export function claimMissed(sql: TransactionSql, now: number, limit: number): Promise<MonitorRecord[]> {
  return claimDue(sql, 'missed_at', now, limit);
}

/** Monitors that are down with a reminder due, earliest first, locked for this transaction. */
export function claimReminders(sql: TransactionSql, now: number, limit: number): Promise<MonitorRecord[]> {
  return claimDue(sql, 'remind_at', now, limit);
}

/** A monitor's fresh grace after a gap in ms: its startGrace, at least `?` (the minimum, given twice). */
export const FRESH_GRACE =
  'case when cast(start_grace as bigint) * 1000 > ? then cast(start_grace as bigint) * 1000 else ? end';

/**
 * After no server swept from `gap.from` to `gap.to`: every expected opening whose time had come by `gap.to` and
 * whose deadline had not passed by `gap.from` gets a fresh grace from `gap.to` (its startGrace, at least
 * `minGraceMs`), unless its own is longer. Answers how many monitors it moved.
 */
export async function moveMissedDeadlines(
  sql: TransactionSql,
  gap: { from: number; to: number },
  minGraceMs: number,
): Promise<number> {
  // The casts: PostgreSQL would type the parameters as start_grace's integer, too small for epoch milliseconds.
  const deadline = `cast(? as bigint) + ${FRESH_GRACE}`;
  return sql.changes(
    `update monitors set missed_at = ${deadline} ` +
      `where missed_at > ? and next_expected_at <= ? and missed_at < ${deadline}`,
    [gap.to, minGraceMs, minGraceMs, gap.from, gap.to, gap.to, minGraceMs, minGraceMs],
  );
}

/**
 * After a gap in sweeping, a held alert due to be released in it or within the fresh grace waits out that grace:
 * the runs of its quiet time may still be in job hosts' spools, and one of them may be the recovery.
 */
export async function moveHeldAlerts(
  sql: TransactionSql,
  gap: { from: number; to: number },
  minGraceMs: number,
): Promise<number> {
  const until = `cast(? as bigint) + ${FRESH_GRACE}`;
  return sql.changes(`update monitors set held_until = ${until} where held_until > ? and held_until < ${until}`, [
    gap.to,
    minGraceMs,
    minGraceMs,
    gap.from,
    gap.to,
    minGraceMs,
    minGraceMs,
  ]);
}

/** Stores where several monitors stand, in one statement (the sweeper's batches); their rows are the caller's. */
export async function saveMonitorStates(
  sql: TransactionSql,
  states: ReadonlyArray<{ monitorId: string; state: MonitorState }>,
): Promise<void> {
  if (states.length === 0) return;
  // Each value cast to its column's type: PostgreSQL reads untyped VALUES as text.
  const row =
    '(?, cast(? as bigint), cast(? as bigint), cast(? as integer), cast(? as integer), cast(? as bigint), ?, ' +
    'cast(? as integer), cast(? as integer), cast(? as bigint))';
  await sql.changes(
    'with v (id, next_expected_at, missed_at, fail_streak, ok_streak, incident_opened_at, incident_cause, ' +
      `failed_runs, missed_runs, remind_at) as (values ${states.map(() => row).join(', ')}) ` +
      'update monitors set next_expected_at = v.next_expected_at, missed_at = v.missed_at, ' +
      'fail_streak = v.fail_streak, ok_streak = v.ok_streak, incident_opened_at = v.incident_opened_at, ' +
      'incident_cause = v.incident_cause, incident_failed_runs = v.failed_runs, ' +
      'incident_missed_runs = v.missed_runs, remind_at = v.remind_at from v where monitors.id = v.id',
    states.flatMap(({ monitorId, state }) => [
      monitorId,
      state.nextExpectedAt,
      state.missedAt,
      state.health.failStreak,
      state.health.okStreak,
      state.health.incident?.openedAt ?? null,
      state.health.incident?.cause ?? null,
      state.health.incident?.failedRuns ?? 0,
      state.health.incident?.missedRuns ?? 0,
      state.health.remindAt,
    ]),
  );
}

/** Monitors by id, locked for this transaction; on PostgreSQL those someone else holds are left out. */
export async function claimMonitors(sql: TransactionSql, monitorIds: readonly string[]): Promise<MonitorRecord[]> {
  if (monitorIds.length === 0) return [];
  const query = `select ${COLUMNS} from monitors where id in (${marks(monitorIds)}) order by id`;
  return (await sql.rows<MonitorRow>(sql.locking(query, 'update skip locked'), monitorIds)).map(toRecord);
}

/** A page of every account's monitor ids in id order, after `after`: for work that visits each monitor in turn. */
export async function listMonitorIds(sql: Sql, after: string, limit: number): Promise<string[]> {
  const rows = await sql.rows<{ id: string }>('select id from monitors where id > ? order by id limit ?', [
    after,
    limit,
  ]);
  return rows.map((r) => r.id);
}

/** Monitors alike in everything their status is derived from (domain/incidents.ts, monitorStatus), and how many. */
export interface StatusGroup {
  paused: boolean;
  down: boolean;
  /** The status of the monitor's latest run; null when it has none. */
  lastRunStatus: RunStatus | null;
  /** Its next expected opening is at or before `now`. */
  due: boolean;
  monitors: number;
}

// One indexed LIMIT 1 read of runs per monitor (as findLatestRuns), for a page of monitors in id order.
const STATUS_GROUPS = `select paused, down, last_run_status, due, count(*) as monitors, max(id) as last_id from (
    select m.id, m.paused,
      case when m.incident_opened_at is not null and m.incident_cause is not null then 1 else 0 end as down,
      (select r.status from runs r where r.monitor_id = m.id order by r.started_at desc, r.id desc limit 1)
        as last_run_status,
      case when m.next_expected_at <= ? then 1 else 0 end as due
    from monitors m where m.id > ? order by m.id limit ?) s
  group by paused, down, last_run_status, due`;

/**
 * Every account's monitors after `after` in id order, `limit` of them at most, grouped by what their status at
 * `now` is derived from (at most 32 groups): for metrics. `next` is where the next page starts; null after the last.
 */
export async function countStatusGroups(
  sql: Sql,
  now: number,
  after: string,
  limit: number,
): Promise<{ groups: StatusGroup[]; next: string | null }> {
  const rows = await sql.rows<{
    paused: boolean | number;
    down: number;
    last_run_status: RunStatus | null;
    due: number;
    monitors: number | string;
    last_id: string;
  }>(STATUS_GROUPS, [now, after, limit]);
  const groups = rows.map((r) => ({
    paused: Boolean(r.paused),
    down: Number(r.down) === 1,
    lastRunStatus: r.last_run_status,
    due: Number(r.due) === 1,
    monitors: Number(r.monitors),
  }));
  const full = groups.reduce((n, g) => n + g.monitors, 0) === limit;
  return { groups, next: full ? rows.reduce((last, r) => (r.last_id > last ? r.last_id : last), after) : null };
}

/** Monitors whose quiet was due to end with an alert held back, earliest first, locked for this transaction. */
export function claimHeld(sql: TransactionSql, now: number, limit: number): Promise<MonitorRecord[]> {
  return claimDue(sql, 'held_until', now, limit);
}

/** Stores the alerts held back by several monitors (null: none); their rows are the caller's. */
export async function saveHolds(
  sql: TransactionSql,
  holds: ReadonlyArray<{ monitorId: string; hold: Hold | null }>,
): Promise<void> {
  for (const { monitorId, hold } of holds) {
    await sql.changes('update monitors set held_since = ?, held_until = ? where id = ?', [
      hold?.since ?? null,
      hold?.until ?? null,
      monitorId,
    ]);
  }
}

/** The account's held alerts are looked at again in the next sweep: a maintenance window went, its quiet may too. */
export async function wakeHolds(sql: Sql, accountId: string, now: number): Promise<void> {
  await sql.changes('update monitors set held_until = ? where account_id = ? and held_until > ?', [
    now,
    accountId,
    now,
  ]);
}

/** The account's monitors of these ids, by id; ids of no monitor of the account are absent. */
export async function findMonitors(
  sql: Sql,
  accountId: string,
  monitorIds: readonly string[],
): Promise<Map<string, MonitorRecord>> {
  if (monitorIds.length === 0) return new Map();
  const rows = await sql.rows<MonitorRow>(
    `select ${COLUMNS} from monitors where account_id = ? and id in (${marks(monitorIds)})`,
    [accountId, ...monitorIds],
  );
  return new Map(rows.map((row) => [row.id, toRecord(row)]));
}
