import type { AlertEvent, IncidentCause, MatchedRule, Meta, MonitorStatus, RunStatus } from '@pingmon/sdk/wire';
import type { CursorKey } from './cursor.js';
import { startAfter } from './cursor.js';
import { storedMatch } from '../domain/rules.js';
import type { ServerGap } from '../domain/server-gaps.js';
import { ms } from './index.js';
import type { Sql, SqlParam, TransactionSql } from './sql.js';
import { marks } from './sql.js';

/** An alert as stored: what a channel is told. */
export interface AlertRecord {
  alertId: string;
  accountId: string;
  event: AlertEvent;
  monitorId: string;
  /** null for an alert about no run (missed, still_down). */
  runId: string | null;
  status: RunStatus | MonitorStatus;
  errorMessage: string | null;
  logSnippet: string | null;
  /** Fail alerts of runs with a log: its last lines (domain/log-tail.ts). */
  logTail: string | null;
  meta: Meta;
  matchedRules: MatchedRule[];
  /** The expected opening a missed alert is about. */
  expectedAt: number | null;
  /** Missed alerts: when the monitor's last run started, and its status then (null when no longer kept). */
  lastRunAt: number | null;
  lastRunStatus: RunStatus | null;
  /** When no server was sweeping while the expected run a missed alert is about was due (the sweeper's alerts). */
  serverGap?: ServerGap | null;
  /** A missed alert: the host the monitor's last run came from, if it named one. */
  host?: string | null;
  /** The incident it belongs to (domain/incidents.ts incidentKey), and why that opened; null outside one. */
  incidentKey?: string | null;
  cause?: IncidentCause | null;
  /** A fail alert: how many failed runs in a row just before its run had the same fingerprint (0: a new failure). */
  repeats?: number | null;
  /** One of a group of missed alerts sent as one message: the id of the alert whose deliveries carry it. */
  groupId?: string | null;
  createdAt: number;
}

/** An alert as read back, with its monitor's name and slug. */
export type StoredAlert = AlertRecord & { monitorName: string; monitorSlug: string };

interface AlertRow {
  id: string;
  account_id: string;
  event: AlertEvent;
  monitor_id: string;
  run_id: string | null;
  status: RunStatus | MonitorStatus;
  error_message: string | null;
  log_snippet: string | null;
  log_tail: string | null;
  meta: string;
  matched_rules: string;
  expected_at: number | string | null;
  last_run_at: number | string | null;
  last_run_status: RunStatus | null;
  server_gap_from: number | string | null;
  server_gap_to: number | string | null;
  host: string | null;
  group_id: string | null;
  incident_key: string | null;
  cause: IncidentCause | null;
  repeats: number | string | null;
  created_at: number | string;
  monitor_name: string;
  monitor_slug: string;
}

function toRecord(row: AlertRow): StoredAlert {
  return {
    alertId: row.id,
    accountId: row.account_id,
    event: row.event,
    monitorId: row.monitor_id,
    runId: row.run_id,
    status: row.status,
    errorMessage: row.error_message,
    logSnippet: row.log_snippet,
    logTail: row.log_tail,
    meta: JSON.parse(row.meta) as Meta,
    matchedRules: (JSON.parse(row.matched_rules) as MatchedRule[]).map(storedMatch),
    expectedAt: ms(row.expected_at),
    lastRunAt: ms(row.last_run_at),
    lastRunStatus: row.last_run_status,
    serverGap:
      row.server_gap_from === null || row.server_gap_to === null
        ? null
        : { from: ms(row.server_gap_from), to: ms(row.server_gap_to) },
    host: row.host,
    groupId: row.group_id,
    incidentKey: row.incident_key,
    cause: row.cause,
    repeats: row.repeats === null ? null : Number(row.repeats),
    createdAt: ms(row.created_at),
    monitorName: row.monitor_name,
    monitorSlug: row.monitor_slug,
  };
}

const INSERTED_COLUMNS =
  'id, account_id, monitor_id, run_id, event, status, error_message, log_snippet, log_tail, meta, matched_rules, ' +
  'expected_at, last_run_at, last_run_status, server_gap_from, server_gap_to, host, group_id, incident_key, cause, ' +
  'repeats, created_at';

/** The values of INSERTED_COLUMNS, in their order. */
function insertedValues(alert: AlertRecord): SqlParam[] {
  return [
    alert.alertId,
    alert.accountId,
    alert.monitorId,
    alert.runId,
    alert.event,
    alert.status,
    alert.errorMessage,
    alert.logSnippet,
    alert.logTail,
    JSON.stringify(alert.meta),
    JSON.stringify(alert.matchedRules),
    alert.expectedAt,
    alert.lastRunAt,
    alert.lastRunStatus,
    alert.serverGap?.from ?? null,
    alert.serverGap?.to ?? null,
    alert.host ?? null,
    alert.groupId ?? null,
    alert.incidentKey ?? null,
    alert.cause ?? null,
    alert.repeats ?? null,
    alert.createdAt,
  ];
}

const INSERT_ALERT =
  `insert into alerts (${INSERTED_COLUMNS}) values (${marks(INSERTED_COLUMNS.split(', '))}) ` +
  'on conflict (monitor_id, run_id, event) do nothing';

// One delivery per enabled channel of the account that takes this monitor's alerts. A channel that escalates is
// told of incidents only, and not before its wait (its recovery at once: the worker sends it if it was told).
const DUE_AT =
  "a.created_at + case when c.escalate_after is null or a.event = 'recovered' then 0 else c.escalate_after * 1000 end";
const TAKES_IT = '(c.escalate_after is null or a.incident_key is not null)';
const QUEUE_DELIVERIES =
  'insert into alert_deliveries (alert_id, channel_id, state, attempts, next_attempt_at) ' +
  `select a.id, c.id, 'pending', 0, ${DUE_AT} from alerts a join channels c on c.account_id = a.account_id ` +
  `where a.id = ? and c.enabled = ? and ${TAKES_IT} and (c.restricted = ? or exists ` +
  '(select 1 from channel_monitors cm where cm.channel_id = c.id and cm.monitor_id = a.monitor_id))';

/**
 * Writes the alert and its outbox of deliveries, in the transaction of the ping or sweep that raised it: the
 * alert exists if and only if what it is about was recorded. Answers how many deliveries were queued (0 for a
 * second alert of the same run and event, which is not written; alerts without a run are made once by the
 * sweeper's claim of the monitor).
 */
export async function insertAlert(sql: TransactionSql, alert: AlertRecord): Promise<number> {
  const inserted = await sql.changes(INSERT_ALERT, insertedValues(alert));
  if (inserted === 0) return 0;
  return sql.changes(QUEUE_DELIVERIES, [alert.alertId, true, false]);
}

const ALERT_COLUMNS =
  'a.id, a.account_id, a.event, a.monitor_id, a.run_id, a.status, a.error_message, a.log_snippet, a.log_tail, ' +
  'a.meta, a.matched_rules, a.expected_at, a.last_run_at, a.last_run_status, a.server_gap_from, a.server_gap_to, ' +
  'a.host, a.group_id, a.incident_key, a.cause, a.repeats, a.created_at, ' +
  'm.name as monitor_name, m.slug as monitor_slug';

/** A page of the account's alerts (optionally of one monitor), newest first, after `after`. */
export async function listAlerts(
  sql: Sql,
  accountId: string,
  page: { limit: number; monitorId?: string; monitorIds?: readonly string[] | null; after?: CursorKey },
): Promise<Array<StoredAlert>> {
  const where = ['a.account_id = ?'];
  const params: SqlParam[] = [accountId];
  // An API key limited to some monitors lists their alerts alone.
  if (page.monitorIds) {
    where.push(page.monitorIds.length > 0 ? `a.monitor_id in (${marks(page.monitorIds)})` : '1 = 0');
    params.push(...page.monitorIds);
  }
  if (page.monitorId !== undefined) {
    where.push('a.monitor_id = ?');
    params.push(page.monitorId);
  }
  if (page.after) {
    const start = startAfter(page.after, 'a.created_at', 'a.id');
    where.push(start.sql);
    params.push(...start.params);
  }
  const rows = await sql.rows<AlertRow>(
    `select ${ALERT_COLUMNS} from alerts a join monitors m on m.id = a.monitor_id ` +
      `where ${where.join(' and ')} order by a.created_at desc, a.id desc limit ?`,
    [...params, page.limit],
  );
  return rows.map(toRecord);
}

/** The alerts with these ids, whatever their account: for the delivery worker. */
export async function findAlerts(sql: Sql, alertIds: readonly string[]): Promise<Map<string, StoredAlert>> {
  const found = new Map<string, StoredAlert>();
  if (alertIds.length === 0) return found;
  const rows = await sql.rows<AlertRow>(
    `select ${ALERT_COLUMNS} from alerts a join monitors m on m.id = a.monitor_id where a.id in (${marks(alertIds)})`,
    alertIds,
  );
  for (const row of rows) found.set(row.id, toRecord(row));
  return found;
}

/** The alerts of these groups (groupId), in the order they were raised: for the delivery worker. */
export async function findAlertGroups(sql: Sql, groupIds: readonly string[]): Promise<Map<string, Array<StoredAlert>>> {
  const groups = new Map<string, Array<StoredAlert>>();
  if (groupIds.length === 0) return groups;
  const rows = await sql.rows<AlertRow>(
    `select ${ALERT_COLUMNS} from alerts a join monitors m on m.id = a.monitor_id ` +
      `where a.group_id in (${marks(groupIds)}) order by a.created_at, a.id`,
    groupIds,
  );
  for (const row of rows) groups.set(row.group_id!, [...(groups.get(row.group_id!) ?? []), toRecord(row)]);
  return groups;
}

/**
 * Writes several alerts and their outboxes in two statements (the sweeper's batches); answers the deliveries
 * queued. As insertAlert, an alert that would be a second one of its run and event is not written. A group of
 * alerts (groupId) is one message: its first alert gets one delivery per channel that takes any of the group's
 * monitors, and the others none.
 */
export async function insertAlerts(sql: TransactionSql, alerts: readonly AlertRecord[]): Promise<number> {
  if (alerts.length === 0) return 0;
  const rows = alerts.map(() => `(${marks(INSERTED_COLUMNS.split(', '))})`).join(', ');
  await sql.changes(
    `insert into alerts (${INSERTED_COLUMNS}) values ${rows} on conflict (monitor_id, run_id, event) do nothing`,
    alerts.flatMap(insertedValues),
  );
  const ids = alerts.filter((a) => (a.groupId ?? a.alertId) === a.alertId).map((a) => a.alertId);
  if (ids.length === 0) return 0;
  return sql.changes(
    'insert into alert_deliveries (alert_id, channel_id, state, attempts, next_attempt_at) ' +
      `select a.id, c.id, 'pending', 0, ${DUE_AT} from alerts a join channels c on c.account_id = a.account_id ` +
      `and c.enabled = ? and ${TAKES_IT} and (c.restricted = ? or exists ` +
      '(select 1 from channel_monitors cm where cm.channel_id = c.id and (cm.monitor_id = a.monitor_id or ' +
      'cm.monitor_id in (select g.monitor_id from alerts g where g.group_id = a.id)))) ' +
      `where a.id in (${marks(ids)})`,
    [true, false, ...ids],
  );
}

/**
 * Deletes at most `limit` of the oldest alerts created before `before` (with their deliveries and attempts);
 * returns how many. Alerts about a run go with their run too.
 */
export async function deleteAlertsBefore(sql: Sql, before: number, limit: number): Promise<number> {
  return sql.changes(
    'delete from alerts where id in (select id from alerts where created_at < ? order by created_at limit ?)',
    [before, limit],
  );
}
