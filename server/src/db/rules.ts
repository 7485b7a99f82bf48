import type { Rule, RuleOp } from '@pingmon/sdk/wire';
import type { RuleCondition } from '../domain/rules.js';
import { iso } from '../domain/runs.js';
import type { Database } from './index.js';
import { ms } from './index.js';
import type { Sql } from './sql.js';
import { inTransaction } from './sql.js';

interface RuleRow {
  id: string;
  monitor_id: string;
  metric: string;
  op: RuleOp;
  value: number | string;
  created_at: number | string;
}

function toRule(row: RuleRow): Rule {
  return { ruleId: row.id, monitorId: row.monitor_id, metric: row.metric, op: row.op, value: Number(row.value), createdAt: iso(ms(row.created_at)) };
}

const COLUMNS = 'id, monitor_id, metric, op, value, created_at';

/** A monitor's rules in the order they were added; read by success pings of monitors that have some. */
export async function listRules(sql: Sql, accountId: string, monitorId: string): Promise<Rule[]> {
  const rows = await sql.rows<RuleRow>(`select ${COLUMNS} from rules where account_id = ? and monitor_id = ? order by created_at, id`, [accountId, monitorId]);
  return rows.map(toRule);
}

const FIND_CONDITIONS = 'select id, metric, op, value from rules where monitor_id = ? order by created_at, id';

/** What the success pings of a monitor are matched against (read only when the monitor counts rules). */
export async function findRuleConditions(sql: Sql, monitorId: string): Promise<RuleCondition[]> {
  const rows = await sql.rows<{ id: string; metric: string; op: RuleOp; value: number | string }>(FIND_CONDITIONS, [monitorId]);
  return rows.map((r) => ({ ruleId: r.id, metric: r.metric, op: r.op, value: Number(r.value) }));
}

export type InsertRuleOutcome = { kind: 'inserted'; rule: Rule } | { kind: 'monitor_not_found' } | { kind: 'limit_reached' };

/**
 * Adds a rule unless the monitor already has `max`. Counting is a conditional update of the monitor's
 * rule_count, so concurrent additions on any number of servers never pass the limit.
 */
export async function insertRule(
  db: Database,
  rule: { ruleId: string; accountId: string; monitorId: string; metric: string; op: RuleOp; value: number; now: number },
  max: number,
): Promise<InsertRuleOutcome> {
  return inTransaction(db, async (sql) => {
    const counted = await sql.changes(
      'update monitors set rule_count = rule_count + 1 where id = ? and account_id = ? and rule_count < ?',
      [rule.monitorId, rule.accountId, max],
    );
    if (counted === 0) {
      const [monitor] = await sql.rows('select 1 as found from monitors where id = ? and account_id = ?', [rule.monitorId, rule.accountId]);
      return monitor ? { kind: 'limit_reached' } : { kind: 'monitor_not_found' };
    }
    await sql.changes(
      `insert into rules (${COLUMNS}, account_id) values (?, ?, ?, ?, ?, ?, ?)`,
      [rule.ruleId, rule.monitorId, rule.metric, rule.op, rule.value, rule.now, rule.accountId],
    );
    return {
      kind: 'inserted',
      rule: { ruleId: rule.ruleId, monitorId: rule.monitorId, metric: rule.metric, op: rule.op, value: rule.value, createdAt: iso(rule.now) },
    };
  });
}

/** Deletes a rule and uncounts it, in one transaction; false when the monitor has no such rule. */
export async function deleteRule(db: Database, accountId: string, monitorId: string, ruleId: string): Promise<boolean> {
  return inTransaction(db, async (sql) => {
    const deleted = await sql.changes('delete from rules where id = ? and monitor_id = ? and account_id = ?', [ruleId, monitorId, accountId]);
    if (deleted === 0) return false;
    await sql.changes('update monitors set rule_count = rule_count - 1 where id = ? and account_id = ?', [monitorId, accountId]);
    return true;
  });
}
