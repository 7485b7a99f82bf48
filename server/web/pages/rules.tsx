import type { FormEvent } from 'react';
import { useState } from 'react';
import type { CreateRuleRequest, RuleList, RuleOp } from '@pingmon/sdk/wire';
import { RULE_OP_SYMBOLS, RULE_OP_WORDS, RULE_OPS } from '@pingmon/sdk/wire';
import { api, id } from '../api.js';
import { nameText } from '../format.js';
import { useAction } from '../components/action.js';
import { Failure, Problem } from '../components/problem.js';
import { RulePreview } from '../components/rule-preview.js';
import { usePoll } from '../use-poll.js';

/** The form as typed: a blank median compares with the value itself; a blank window judges one run. */
type Typed = { metric: string; op: RuleOp; value: string; medianOf: string; heldIn: string; ofLast: string };
const EMPTY: Typed = { metric: '', op: 'lt', value: '1', medianOf: '', heldIn: '', ofLast: '' };

/** The rule typed, once every number given reads; undefined before. */
function ruleOf(typed: Typed): CreateRuleRequest | undefined {
  const numbers = [typed.value, typed.medianOf, typed.heldIn, typed.ofLast].map((text) =>
    text.trim() === '' ? null : Number(text),
  );
  if (typed.metric === '' || numbers.some((n) => n !== null && !Number.isFinite(n))) return undefined;
  const [value, medianOf, heldIn, ofLast] = numbers;
  if (value === null) return undefined;
  const runs = ofLast ?? heldIn;
  return {
    ...{ metric: typed.metric, op: typed.op, value },
    baseline: medianOf === null ? null : { runs: medianOf },
    window: runs === null || runs <= 1 ? null : { runs, atLeast: heldIn ?? runs },
  };
}

/** A monitor's alert rules: a success whose meta matches one raises a silent_failure alert. */
export function Rules({ monitorId }: { monitorId: string }) {
  const path = `monitors/${id(monitorId)}/rules`;
  const { data, error, reload } = usePoll(path, () => api<RuleList>('GET', path));
  const action = useAction();

  // What is typed, kept as typed: the preview reads it as a rule once the metric and the value can be read.
  const [typed, setTyped] = useState(EMPTY);
  const rule = ruleOf(typed);

  const add = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // A rule that does not read is sent as typed: the server's refusal says what is wrong.
    if (await action.run(() => api('POST', path, rule ?? { ...typed, value: typed.value }))) {
      setTyped(EMPTY);
      reload();
    }
  };
  const number = (key: keyof Typed, label: string, placeholder = '') => (
    <label>
      {label}
      <input
        name={key}
        type="number"
        step={key === 'value' ? 'any' : 1}
        min={key === 'value' ? undefined : 1}
        required={key === 'value'}
        placeholder={placeholder}
        value={typed[key]}
        onChange={(e) => setTyped({ ...typed, [key]: e.currentTarget.value })}
      />
    </label>
  );
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
            <code>{nameText(rule.expression)}</code> <span className="muted">{nameText(rule.description)}</span>
            <button type="button" disabled={action.busy} onClick={() => void remove(rule.ruleId)}>
              Delete<span className="sr-only"> rule {nameText(rule.expression)}</span>
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
        {number('value', 'Value')}
        {number('medianOf', '× median of the last', 'none')}
        {number('heldIn', 'Held in', '1')}
        {number('ofLast', 'of the last', '1')}
        <button type="submit" disabled={action.busy}>
          Add rule
        </button>
      </form>
      <RulePreview monitorId={monitorId} rule={rule} />
      <Failure message={action.error} />
    </section>
  );
}
