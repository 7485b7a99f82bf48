import type { FormEvent } from 'react';
import { useState } from 'react';
import type { CreateRuleRequest, RuleList, RuleOp } from '@pingmon/sdk/wire';
import { formatRule, RULE_OP_SYMBOLS, RULE_OP_WORDS, RULE_OPS } from '@pingmon/sdk/wire';
import { api, id } from '../api.js';
import { nameText } from '../format.js';
import { useAction } from '../components/action.js';
import { Failure, Problem } from '../components/problem.js';
import { RulePreview } from '../components/rule-preview.js';
import { usePoll } from '../use-poll.js';

/** A monitor's alert rules: a success whose meta matches one raises a silent_failure alert. */
export function Rules({ monitorId }: { monitorId: string }) {
  const path = `monitors/${id(monitorId)}/rules`;
  const { data, error, reload } = usePoll(path, () => api<RuleList>('GET', path));
  const action = useAction();

  // What is typed, kept as typed: the preview reads it as a rule once the metric and the value can be read.
  const [typed, setTyped] = useState({ metric: '', op: 'lt' as RuleOp, value: '1' });
  const value = Number(typed.value);
  const rule: CreateRuleRequest | undefined =
    typed.metric !== '' && typed.value.trim() !== '' && Number.isFinite(value)
      ? { metric: typed.metric, op: typed.op, value }
      : undefined;

  const add = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (await action.run(() => api('POST', path, rule ?? { ...typed, value: typed.value }))) {
      setTyped({ metric: '', op: 'lt', value: '1' });
      reload();
    }
  };
  const remove = async (ruleId: string) => {
    if (await action.run(() => api('DELETE', `${path}/${id(ruleId)}`))) reload();
  };

  return (
    <section aria-labelledby="rules-title">
      <h2 id="rules-title">Alert rules</h2>
      <p className="muted">A success whose meta matches a rule is a silent failure, and raises an alert.</p>
      <Problem error={error} stale={data !== undefined} />
      {data?.rules.length === 0 && <p className="empty">No rules.</p>}
      <ul className="items">
        {data?.rules.map((rule) => (
          <li key={rule.ruleId}>
            <code>{nameText(formatRule(rule))}</code>
            <button type="button" disabled={action.busy} onClick={() => void remove(rule.ruleId)}>
              Delete<span className="sr-only"> rule {nameText(formatRule(rule))}</span>
            </button>
          </li>
        ))}
      </ul>
      <form className="inline" onSubmit={(e) => void add(e)} aria-label="Add a rule">
        <label>
          Metric
          <input
            name="metric"
            required
            maxLength={64}
            placeholder="rowsProcessed"
            value={typed.metric}
            onChange={(e) => setTyped({ ...typed, metric: e.currentTarget.value })}
          />
        </label>
        <label>
          Operator
          <select
            name="op"
            value={typed.op}
            onChange={(e) => setTyped({ ...typed, op: e.currentTarget.value as RuleOp })}
          >
            {RULE_OPS.map((op) => (
              <option key={op} value={op}>
                {RULE_OP_SYMBOLS[op]} {RULE_OP_WORDS[op]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Value
          <input
            name="value"
            type="number"
            step="any"
            required
            value={typed.value}
            onChange={(e) => setTyped({ ...typed, value: e.currentTarget.value })}
          />
        </label>
        <button type="submit" disabled={action.busy}>
          Add rule
        </button>
      </form>
      <RulePreview monitorId={monitorId} rule={rule} />
      <Failure message={action.error} />
    </section>
  );
}
