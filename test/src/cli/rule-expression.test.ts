import t from 'tap';
import { formatRule, parseRuleExpression } from 'pingmon/internal';

t.test('a rule expression: metric, operator (symbol or word), number', async (t) => {
  const cases: Array<[string, string, string, number]> = [
    ['rowsProcessed < 1', 'rowsProcessed', 'lt', 1],
    ['rowsProcessed<1', 'rowsProcessed', 'lt', 1],
    ['  rowsProcessed <= 1.5 ', 'rowsProcessed', 'lte', 1.5],
    ['rowsProcessed>1e3', 'rowsProcessed', 'gt', 1000],
    ['rowsProcessed >= -2', 'rowsProcessed', 'gte', -2],
    ['rowsProcessed==0', 'rowsProcessed', 'eq', 0],
    ['rowsProcessed != 7', 'rowsProcessed', 'neq', 7],
    ['rowsProcessed lt 1', 'rowsProcessed', 'lt', 1],
    ['rowsProcessed lte 2', 'rowsProcessed', 'lte', 2],
    ['rowsProcessed GT 3', 'rowsProcessed', 'gt', 3],
    ['rowsProcessed gte 4', 'rowsProcessed', 'gte', 4],
    ['rowsProcessed eq 5', 'rowsProcessed', 'eq', 5],
    ['rowsProcessed neq -6', 'rowsProcessed', 'neq', -6],
    ['rows processed < 1', 'rows processed', 'lt', 1],
    ['ltCount lt 1', 'ltCount', 'lt', 1],
    ['queue.depth > 0.25', 'queue.depth', 'gt', 0.25],
  ];
  for (const [text, metric, op, value] of cases)
    t.same(parseRuleExpression(text), { ok: true, rule: { metric, op, value } }, text);
});

t.test('what is not a rule says the form', async (t) => {
  const bad = [
    '',
    'rowsProcessed',
    'rows is low',
    'rows = 1',
    'rows => 1',
    '=< 1',
    '< 1',
    'rows <',
    'rows < abc',
    'rows < 1 2',
    'rows < Infinity',
    'rows lt',
    'rowslt1',
    'rows less 1',
  ];
  for (const text of bad) {
    const parsed = parseRuleExpression(text);
    t.equal(parsed.ok, false, text);
    if (!parsed.ok)
      t.match(parsed.error, /expected METRIC OP NUMBER \(OP: < <= > >= == != or lt lte gt gte eq neq\)$/, text);
  }
  const long = parseRuleExpression(`${'m'.repeat(65)} < 1`);
  t.match(long, { ok: false, error: /longer than 64 characters/ });
  t.equal(parseRuleExpression(`${'m'.repeat(64)} < 1`).ok, true);
});

t.test('formatRule writes what parseRuleExpression reads', async (t) => {
  for (const op of ['lt', 'lte', 'gt', 'gte', 'eq', 'neq'] as const) {
    const rule = { metric: 'rowsProcessed', op, value: -1.5 };
    t.same(parseRuleExpression(formatRule(rule)), { ok: true, rule });
  }
  t.equal(formatRule({ metric: 'rowsProcessed', op: 'lt', value: 1 }), 'rowsProcessed < 1');
});
