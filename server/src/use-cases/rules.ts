import type { Database } from '../db/index.js';
import type { InsertRuleOutcome, RuleRecord } from '../db/rules.js';
import { deleteRule, insertRule } from '../db/rules.js';
import { MAX_RULES_PER_MONITOR } from '../domain/rules.js';

// A rule and its monitor's rule count change together: the count is what holds concurrent additions to the limit.

export async function addRule(db: Database, accountId: string, rule: RuleRecord): Promise<InsertRuleOutcome> {
  return db.transaction((sql) => insertRule(sql, accountId, rule, MAX_RULES_PER_MONITOR));
}

/** False when the monitor has no such rule. */
export async function removeRule(db: Database, accountId: string, monitorId: string, ruleId: string): Promise<boolean> {
  return db.transaction((sql) => deleteRule(sql, accountId, monitorId, ruleId));
}
