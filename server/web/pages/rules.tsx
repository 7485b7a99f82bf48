import type { FormEvent } from 'react';
import type { RuleList, RuleOp } from '@pingmon/sdk/wire';
import { formatRule, RULE_OP_SYMBOLS, RULE_OPS } from '@pingmon/sdk/wire';
import { api, id } from '../api.js';
import { nameText } from '../format.js';
import { useAction } from '../components/action.js';
import { Failure, Problem } from '../components/problem.js';
import { usePoll } from '../use-poll.js';

/** A monitor's alert rules: a success whose meta matches one raises a silent_failure alert. */
export function Rules({ monitorId }: { monitorId: string }) {
  const path = `monitors/${id(monitorId)}/rules`;
  const { data, error, reload } = usePoll(path, () => api<RuleList>('GET', path));
  const action = useAction();

  const add = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const fields = new FormData(form);
    const rule = {
      metric: String(fields.get('metric')),
      op: fields.get('op') as RuleOp,
      value: Number(fields.get('value')),
    };
    if (await action.run(() => api('POST', path, rule))) {
      form.reset();
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
          <input name="metric" required maxLength={64} placeholder="rowsProcessed" />
        </label>
        <label>
          Operator
          <select name="op" defaultValue="lt">
            {RULE_OPS.map((op) => (
              <option key={op} value={op}>
                {RULE_OP_SYMBOLS[op]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Value
          <input name="value" type="number" step="any" required defaultValue="1" />
        </label>
        <button type="submit" disabled={action.busy}>
          Add rule
        </button>
      </form>
      <Failure message={action.error} />
    </section>
  );
}
