import type { ChannelType, DeliveryState } from '@pingmon/sdk/wire';
import { ms } from './index.js';
import type { Sql, TransactionSql } from './sql.js';
import { marks } from './sql.js';

/** A delivery this process has claimed: it holds the lease until `claimedUntil`, as `token`. */
export interface ClaimedDelivery {
  alertId: string;
  channelId: string;
  /** The number of this attempt, 1 for the first, counted across the delivery's repeats. */
  attempt: number;
  /** The message it sends: 0, then 1 for the first repeat of an open incident's alert, and so on. */
  repeats: number;
  /** The number of this attempt at this message (what retries count). */
  messageAttempt: number;
  token: string;
  /** When the lease ends (epoch ms): after it another server may make the same attempt. */
  claimedUntil: number;
}

const DUE = "state = 'pending' and next_attempt_at <= ? and (claimed_until is null or claimed_until <= ?)";
const SET_CLAIM = 'set claimed_until = ?, claim_token = ?, attempts = attempts + 1';

// The rows are chosen (and locked, on PostgreSQL) once, in a materialized CTE: in an `in (subquery … limit)` the
// subquery can run again for rows that concurrent writes touched, and then claims more rows than asked.
const DUE_ROWS = `select alert_id, channel_id from alert_deliveries where ${DUE} order by next_attempt_at limit ?`;
const claimText = (due: string) =>
  `with due (due_alert, due_channel) as materialized (${due})
   update alert_deliveries ${SET_CLAIM} from due
   where alert_deliveries.alert_id = due.due_alert and alert_deliveries.channel_id = due.due_channel
   returning alert_id, channel_id, attempts, repeats, repeat_attempts`;

/**
 * Claims up to `limit` due deliveries for `leaseMs`, in one statement. On PostgreSQL rows another server
 * is claiming are skipped, and a row locked here is re-checked against the newest version of itself, so
 * no two servers claim one delivery; SQLite has a single writer. A claim counts as an attempt.
 */
export async function claimDeliveries(
  sql: Sql,
  claim: { now: number; leaseMs: number; token: string; limit: number },
): Promise<ClaimedDelivery[]> {
  const { now, token } = claim;
  const claimedUntil = now + claim.leaseMs;
  const lease = [claimedUntil, token];
  const due = [now, now, claim.limit];
  const rows = await sql.rows<{
    alert_id: string;
    channel_id: string;
    attempts: number | string;
    repeats: number | string;
    repeat_attempts: number | string;
  }>(claimText(sql.locking(DUE_ROWS, 'update skip locked')), [...due, ...lease]);
  return rows.map((r) => ({
    alertId: r.alert_id,
    channelId: r.channel_id,
    attempt: Number(r.attempts),
    repeats: Number(r.repeats),
    messageAttempt: Number(r.attempts) - Number(r.repeat_attempts),
    token,
    claimedUntil,
  }));
}

/** What became of one attempt, and so of the delivery. */
export interface AttemptRecord {
  attemptedAt: number;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  /** The delivery's state after it; pending means another attempt at `nextAttemptAt`. */
  state: DeliveryState;
  nextAttemptAt: number;
  /** Delivered, and to be sent again at nextAttemptAt (a repeat of an open incident's alert). */
  repeat?: boolean;
}

/**
 * Records an attempt and the delivery's new state, releasing the claim. The state changes only while
 * the claim is still this process's (a lease that ran out may have passed to another server); the
 * attempt is recorded either way, since it was made. Answers whether the state changed.
 */
export async function recordAttempt(
  sql: TransactionSql,
  claimed: ClaimedDelivery,
  record: AttemptRecord,
): Promise<boolean> {
  const updated = await sql.changes(
    `update alert_deliveries set state = ?, next_attempt_at = ?, claimed_until = null, claim_token = null,
       delivered_at = coalesce(?, delivered_at), last_error = ?, repeats = repeats + ?,
       repeat_attempts = case when ? then attempts else repeat_attempts end
     where alert_id = ? and channel_id = ? and claim_token = ?`,
    [
      record.repeat ? 'pending' : record.state,
      record.nextAttemptAt,
      record.state === 'delivered' ? record.attemptedAt : null,
      record.error,
      record.repeat ? 1 : 0,
      record.repeat === true,
      claimed.alertId,
      claimed.channelId,
      claimed.token,
    ],
  );
  await sql.changes(
    `insert into delivery_attempts (alert_id, channel_id, attempt, attempted_at, duration_ms, status_code, error)
     select ?, ?, ?, ?, ?, ?, ? where exists (select 1 from alert_deliveries where alert_id = ? and channel_id = ?)
     on conflict do nothing`,
    [
      claimed.alertId,
      claimed.channelId,
      claimed.attempt,
      record.attemptedAt,
      record.durationMs,
      record.statusCode,
      record.error,
      claimed.alertId,
      claimed.channelId,
    ],
  );
  return updated === 1;
}

/**
 * Ends a delivery without an attempt: failed (its channel was disabled, it ran out of attempts), skipped (its
 * incident closed before the channel's escalation), or delivered (an incident's repeats end with it).
 */
export async function abandonDelivery(
  sql: Sql,
  claimed: ClaimedDelivery,
  reason: string | null,
  state: DeliveryState = 'failed',
): Promise<boolean> {
  const updated = await sql.changes(
    // The claim counted an attempt that is not made.
    'update alert_deliveries set state = ?, attempts = attempts - 1, ' +
      'claimed_until = null, claim_token = null, last_error = coalesce(?, last_error) ' +
      'where alert_id = ? and channel_id = ? and claim_token = ?',
    [state, reason, claimed.alertId, claimed.channelId, claimed.token],
  );
  return updated === 1;
}

/**
 * Gives a claim back uncounted, for any server to take at once: this one is stopping mid-attempt, or too
 * little of the lease is left for an attempt.
 */
export async function releaseDelivery(sql: Sql, claimed: ClaimedDelivery): Promise<void> {
  await sql.changes(
    'update alert_deliveries set claimed_until = null, claim_token = null, attempts = attempts - 1 ' +
      'where alert_id = ? and channel_id = ? and claim_token = ?',
    [claimed.alertId, claimed.channelId, claimed.token],
  );
}

interface DeliveryRow {
  alert_id: string;
  channel_id: string;
  channel_name: string;
  channel_type: ChannelType;
  state: DeliveryState;
  attempts: number | string;
  next_attempt_at: number | string;
  delivered_at: number | string | null;
  last_error: string | null;
}

interface AttemptColumns {
  attempt: number | string | null;
  attempted_at: number | string | null;
  duration_ms: number | string | null;
  status_code: number | string | null;
  error: string | null;
}

/** A delivery of an alert to one channel, with every attempt made; times are epoch milliseconds. */
export interface DeliveryRecord {
  channelId: string;
  channelName: string;
  channelType: ChannelType;
  state: DeliveryState;
  attemptCount: number;
  nextAttemptAt: number;
  deliveredAt: number | null;
  lastError: string | null;
  attempts: DeliveryAttemptRecord[];
}

export interface DeliveryAttemptRecord {
  attempt: number;
  attemptedAt: number;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/**
 * The deliveries of these alerts with every attempt, by alert id. One statement, so one snapshot: a
 * delivery's state and its attempts are always read as one transaction left them.
 */
export async function listDeliveries(sql: Sql, alertIds: readonly string[]): Promise<Map<string, DeliveryRecord[]>> {
  const byAlert = new Map<string, DeliveryRecord[]>();
  if (alertIds.length === 0) return byAlert;
  const rows = await sql.rows<DeliveryRow & AttemptColumns>(
    `select d.alert_id, d.channel_id, c.name as channel_name, c.type as channel_type, ` +
      `d.state, d.attempts, d.next_attempt_at, d.delivered_at, d.last_error,
       a.attempt, a.attempted_at, a.duration_ms, a.status_code, a.error
     from alert_deliveries d
     join channels c on c.id = d.channel_id
     left join delivery_attempts a on a.alert_id = d.alert_id and a.channel_id = d.channel_id
     where d.alert_id in (${marks(alertIds)})
     order by c.created_at, c.id, d.alert_id, a.attempt`,
    alertIds,
  );
  let delivery: DeliveryRecord | undefined;
  let key = '';
  for (const row of rows) {
    if (`${row.alert_id} ${row.channel_id}` !== key) {
      key = `${row.alert_id} ${row.channel_id}`;
      delivery = {
        channelId: row.channel_id,
        channelName: row.channel_name,
        channelType: row.channel_type,
        state: row.state,
        attemptCount: Number(row.attempts),
        nextAttemptAt: ms(row.next_attempt_at),
        deliveredAt: ms(row.delivered_at),
        lastError: row.last_error,
        attempts: [],
      };
      byAlert.set(row.alert_id, [...(byAlert.get(row.alert_id) ?? []), delivery]);
    }
    if (row.attempt === null) continue;
    delivery!.attempts.push({
      attempt: Number(row.attempt),
      attemptedAt: ms(row.attempted_at!),
      statusCode: row.status_code === null ? null : Number(row.status_code),
      error: row.error,
      durationMs: Number(row.duration_ms),
    });
  }
  return byAlert;
}

/** Deliveries still to make, across every account (the outbox's depth): for metrics. Reads the due index. */
export async function countPendingDeliveries(sql: Sql): Promise<number> {
  const [row] = await sql.rows<{ deliveries: number | string }>(
    "select count(*) as deliveries from alert_deliveries where state = 'pending'",
    [],
  );
  return Number(row?.deliveries ?? 0);
}

/**
 * Whether the monitor's incident `incidentKey` is still open; with `latest`, also whether this channel has been
 * queued no later alert of it (which repeats in its place).
 */
export async function incidentStillOpen(
  sql: Sql,
  alert: { alertId: string; monitorId: string; incidentKey: string; createdAt: number },
  channelId: string,
  latest: boolean,
): Promise<boolean> {
  const [row] = await sql.rows<{ incident_opened_at: number | string | null; later: number | string }>(
    'select m.incident_opened_at, (select count(*) from alerts a join alert_deliveries d on d.alert_id = a.id ' +
      'where a.incident_key = ? and d.channel_id = ? and (a.created_at > ? or (a.created_at = ? and a.id > ?))) ' +
      'as later from monitors m where m.id = ?',
    [alert.incidentKey, channelId, alert.createdAt, alert.createdAt, alert.alertId, alert.monitorId],
  );
  if (!row || row.incident_opened_at === null) return false;
  return (
    `${alert.monitorId}:${ms(row.incident_opened_at)}` === alert.incidentKey && (!latest || Number(row.later) === 0)
  );
}

/** Whether this channel was told of the incident: a recovery goes only where the incident went. */
export async function toldOfIncident(sql: Sql, incidentKey: string, channelId: string): Promise<boolean> {
  const [row] = await sql.rows<{ told: number | string }>(
    'select count(*) as told from alerts a join alert_deliveries d on d.alert_id = a.id ' +
      "where a.incident_key = ? and d.channel_id = ? and a.event <> 'recovered' and d.delivered_at is not null",
    [incidentKey, channelId],
  );
  return Number(row?.told ?? 0) > 0;
}
