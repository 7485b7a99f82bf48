import type { RuleBaseline, RuleOp, RuleWindow } from '@pingmon/sdk/wire';
import type { RuleCondition } from '../domain/rules.js';
import { ms } from './index.js';
import type { Sql, TransactionSql } from './sql.js';

interface RuleRow {
  id: string;
  monitor_id: string;
  metric: string;
  op: RuleOp;
  value: number | string;
  baseline_runs: number | null;
  baseline_min_runs: number | null;
  window_runs: number | null;
  window_at_least: number | null;
  created_at: number | string;
}

/** An alert rule as the server holds it; `createdAt` in epoch milliseconds. */
export interface RuleRecord {
  ruleId: string;
  monitorId: string;
  metric: string;
  op: RuleOp;
  value: number;
  baseline: RuleBaseline | null;
  window: RuleWindow | null;
  createdAt: number;
}

type LookBack = Pick<RuleRow, 'baseline_runs' | 'baseline_min_runs' | 'window_runs' | 'window_at_least'>;

function lookBack(row: LookBack): Pick<RuleRecord, 'baseline' | 'window'> {
  return {
    baseline: row.baseline_runs === null ? null : { runs: row.baseline_runs, minRuns: row.baseline_min_runs! },
    window: row.window_runs === null ? null : { runs: row.window_runs, atLeast: row.window_at_least! },
  };
}

function toRecord(row: RuleRow): RuleRecord {
  const { id: ruleId, monitor_id: monitorId, metric, op } = row;
  return { ruleId, monitorId, metric, op, value: Number(row.value), ...lookBack(row), createdAt: ms(row.created_at) };
}

const LOOK_BACK = 'baseline_runs, baseline_min_runs, window_runs, window_at_least';
const COLUMNS = `id, monitor_id, metric, op, value, ${LOOK_BACK}, created_at`;

/** A monitor's rules in the order they were added, for the rules list. */
export async function listRules(sql: Sql, accountId: string, monitorId: string): Promise<RuleRecord[]> {
  const rows = await sql.rows<RuleRow>(
    `select ${COLUMNS} from rules where account_id = ? and monitor_id = ? order by created_at, id`,
    [accountId, monitorId],
  );
  return rows.map(toRecord);
}

const FIND_CONDITIONS =
  `select id, metric, op, value, ${LOOK_BACK} from rules where monitor_id = ? ` + 'order by created_at, id';

/** What the success pings of a monitor are matched against (read only when the monitor counts rules). */
export async function findRuleConditions(sql: Sql, monitorId: string): Promise<RuleCondition[]> {
  type Row = LookBack & { id: string; metric: string; op: RuleOp; value: number | string };
  const rows = await sql.rows<Row>(FIND_CONDITIONS, [monitorId]);
  return rows.map((r) => ({ ruleId: r.id, metric: r.metric, op: r.op, value: Number(r.value), ...lookBack(r) }));
}

export type InsertRuleOutcome =
  { kind: 'inserted'; rule: RuleRecord } | { kind: 'monitor_not_found' } | { kind: 'limit_reached' };

/**
 * Adds a rule unless the monitor already has `max`. Counting is a conditional update of the monitor's
 * rule_count, so concurrent additions on any number of servers never pass the limit.
 */
export async function insertRule(
  sql: TransactionSql,
  accountId: string,
  rule: RuleRecord,
  max: number,
): Promise<InsertRuleOutcome> {
  const counted = await sql.changes(
    'update monitors set rule_count = rule_count + 1 where id = ? and account_id = ? and rule_count < ?',
    [rule.monitorId, accountId, max],
  );
  if (counted === 0) {
    const [monitor] = await sql.rows('select 1 as found from monitors where id = ? and account_id = ?', [
      rule.monitorId,
      accountId,
    ]);
    return monitor ? { kind: 'limit_reached' } : { kind: 'monitor_not_found' };
  }
  await sql.changes(`insert into rules (${COLUMNS}, account_id) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
    rule.ruleId,
    rule.monitorId,
    rule.metric,
    rule.op,
    rule.value,
    rule.baseline?.runs ?? null,
    rule.baseline?.minRuns ?? null,
    rule.window?.runs ?? null,
    rule.window?.atLeast ?? null,
    rule.createdAt,
    accountId,
  ]);
  return { kind: 'inserted', rule };
}

/** Deletes a rule and uncounts it; false when the monitor has no such rule. */
export async function deleteRule(
  sql: TransactionSql,
  accountId: string,
  monitorId: string,
  ruleId: string,
): Promise<boolean> {
  const deleted = await sql.changes('delete from rules where id = ? and monitor_id = ? and account_id = ?', [
    ruleId,
    monitorId,
    accountId,
  ]);
  if (deleted === 0) return false;
  await sql.changes('update monitors set rule_count = rule_count - 1 where id = ? and account_id = ?', [
    monitorId,
    accountId,
  ]);
  return true;
}
