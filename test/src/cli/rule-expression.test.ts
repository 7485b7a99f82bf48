import t from 'tap';
import { formatRule, parseRuleExpression, ruleExample } from 'pingmon/internal';

/** A rule that compares with its value alone, on one run. */
const ONE = { baseline: null, window: null };

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
    t.same(parseRuleExpression(text), { ok: true, rule: { metric, op, value, ...ONE } }, text);
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
      t.match(parsed.error, /expected METRIC OP NUMBER .*\(OP: < <= > >= == != or lt lte gt gte eq neq\)$/, text);
  }
  const long = parseRuleExpression(`${'m'.repeat(65)} < 1`);
  t.match(long, { ok: false, error: /longer than 64 characters/ });
  t.equal(parseRuleExpression(`${'m'.repeat(64)} < 1`).ok, true);
});

t.test('formatRule writes what parseRuleExpression reads', async (t) => {
  for (const op of ['lt', 'lte', 'gt', 'gte', 'eq', 'neq'] as const) {
    const rule = { metric: 'rowsProcessed', op, value: -1.5, ...ONE };
    t.same(parseRuleExpression(formatRule(rule)), { ok: true, rule });
  }
  t.equal(formatRule({ metric: 'rowsProcessed', op: 'lt', value: 1 }), 'rowsProcessed < 1');
  const lookingBack = [
    { metric: 'rowsProcessed', op: 'lt', value: 0.5, baseline: { runs: 20, minRuns: 20 }, window: null },
    { metric: 'durationMs', op: 'gt', value: 3, baseline: { runs: 20, minRuns: 5 }, window: { runs: 5, atLeast: 3 } },
    { metric: 'durationMs', op: 'lt', value: 0.1, baseline: null, window: { runs: 3, atLeast: 3 } },
  ] as const;
  for (const rule of lookingBack) t.same(parseRuleExpression(formatRule(rule)), { ok: true, rule }, formatRule(rule));
});

t.test('a median and a window: the forms the issue and docs/alerts.md write', async (t) => {
  const median = (runs: number, minRuns = runs) => ({ runs, minRuns });
  const cases: Array<[string, object]> = [
    ['rowsProcessed < 0.5 × median(20)', { metric: 'rowsProcessed', op: 'lt', value: 0.5, baseline: median(20) }],
    ['durationMs > 3 x median(20)', { metric: 'durationMs', op: 'gt', value: 3, baseline: median(20) }],
    ['durationMs>3*median( 20 , min 5 )', { metric: 'durationMs', op: 'gt', value: 3, baseline: median(20, 5) }],
    ['durationMs lt 0.1 × median(20)', { metric: 'durationMs', op: 'lt', value: 0.1, baseline: median(20) }],
    ['exitCode != 0 for 3 runs', { metric: 'exitCode', op: 'neq', value: 0, window: { runs: 3, atLeast: 3 } }],
    ['rows < 1 in 3 of the last 5', { metric: 'rows', op: 'lt', value: 1, window: { runs: 5, atLeast: 3 } }],
    ['rows < 1 in 3 of last 5 runs', { metric: 'rows', op: 'lt', value: 1, window: { runs: 5, atLeast: 3 } }],
    [
      'rows < 0.5 × median(10) for 2 runs',
      { metric: 'rows', op: 'lt', value: 0.5, baseline: median(10), window: { runs: 2, atLeast: 2 } },
    ],
  ];
  for (const [text, rule] of cases) t.same(parseRuleExpression(text), { ok: true, rule: { ...ONE, ...rule } }, text);
  const refused: Array<[string, RegExp]> = [
    ['rows < 0 × median(20)', /multiplies a median: give a number above 0/],
    ['rows < 0.5 × median(101)', /a median is over 1 to 100 runs, not 101/],
    ['rows < 0.5 × median(0)', /a median is over 1 to 100 runs, not 0/],
    ['rows < 0.5 × median(5, min 6)', /min is how many of the 5 must report the metric, 1 to 5/],
    ['rows < 1 for 21 runs', /a window is 1 to 20 runs, not 21/],
    ['rows < 1 in 6 of the last 5', /cannot hold: K is 1 to RUNS/],
    ['rows < 0.5 × mean(20)', /is not a number: expected METRIC OP NUMBER/],
  ];
  for (const [text, error] of refused) t.match(parseRuleExpression(text), { ok: false, error }, text);
});

t.test("a refused rule's example is of the kind being written", async (t) => {
  t.equal(ruleExample('rows = 0'), 'rowsProcessed < 1');
  t.equal(ruleExample('rows < 0.5 × median(5, min 6)'), 'rowsProcessed < 0.5 × median(20, min 5)');
  t.equal(ruleExample('rows < 1 in 6 of the last 5'), 'errors > 0 in 3 of the last 5');
  t.equal(ruleExample('rows < 1 for 21 runs'), 'errors > 0 in 3 of the last 5');
  for (const example of [
    'rowsProcessed < 1',
    'rowsProcessed < 0.5 × median(20, min 5)',
    'errors > 0 in 3 of the last 5',
  ])
    t.equal(parseRuleExpression(example).ok, true, `${example} is a rule`);
});
