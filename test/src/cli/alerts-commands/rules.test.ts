import t from 'tap';

import { alertsCli, USAGE_HINT } from '../../helpers/alerts-cli.js';

t.test('rules from the command line against a real server', async (t) => {
  const { api, as } = await alertsCli(t);

  t.test('rules add understands every operator, as a symbol (spaces or not) or a word, quoted or not', async (t) => {
    const alice = await api.account();
    const { cli, json } = as(alice);
    const m = await api.monitor(alice, 'rules');
    // Every spelling of every operator is read in-process by rule-expression.test.ts; here, through the real
    // command, one quoted expression with and one without spaces, and the words given as separate arguments.
    const forms: Array<[string[], string, number]> = [
      [['rowsProcessed<=1.5'], 'lte', 1.5],
      [['rowsProcessed >1e3'], 'gt', 1000],
      [['rowsProcessed', 'GT', '3'], 'gt', 3],
      [['rowsProcessed neq -6'], 'neq', -6],
    ];
    // Independent commands run side by side: each is a process of its own.
    const results = await Promise.all(forms.map(([words]) => cli('rules', 'add', m, ...words)));
    for (const [i, result] of results.entries()) {
      t.equal(result.code, 0, `${forms[i]![0].join(' ')}: ${result.stderr}`);
      t.match(
        result.stdout,
        new RegExp(
          `^Added rule_\\w+ to ${m}: rowsProcessed \\S+ ${forms[i]![2]}\\.\\n` +
            `Alert when a success reports rowsProcessed [a-z ]+ ${forms[i]![2]}: a silent_failure alert\\.\\n$`,
        ),
      );
    }
    const rules = await json('rules', 'list', m);
    const key = (rule: unknown[]) => JSON.stringify(rule);
    t.same(
      rules.map((r: { metric: string; op: string; value: number }) => key([r.metric, r.op, r.value])).sort(),
      forms.map(([, op, value]) => key(['rowsProcessed', op, value])).sort(),
    );
    const table = await cli('rules', 'list', m);
    t.match(table.stdout, /^ID\s+RULE\s+CREATED\n/);
    const lte = rules.find((r: { value: number }) => r.value === 1.5);
    t.match(table.stdout, new RegExp(`${lte.ruleId}\\s+rowsProcessed <= 1\\.5\\s+\\d{4}-`));
    t.match(table.stdout, /rowsProcessed != -6/);

    const added = await json('rules', 'add', m, 'errors > 0');
    t.match(added, { ruleId: /^rule_/, monitorId: m, metric: 'errors', op: 'gt', value: 0 });
    const removed = await cli('rules', 'remove', m, added.ruleId);
    t.equal(removed.code, 0);
    t.equal(removed.stdout, `Removed ${added.ruleId} from ${m}; runs it matched keep their marks.\n`);
    t.notOk((await json('rules', 'list', m)).some((r: { ruleId: string }) => r.ruleId === added.ruleId));
    const again = await cli('rules', 'remove', m, added.ruleId);
    t.equal(again.code, 1);
    t.equal(again.stderr, `pingmon: No rule ${added.ruleId} on monitor ${m}.\n`);
  });

  t.test('a rule that cannot be read is a usage error (exit 2) that shows the form; nothing is added', async (t) => {
    const alice = await api.account();
    const { cli, json } = as(alice);
    const m = await api.monitor(alice, 'typos');
    // Every kind of unreadable rule is refused in-process by rule-expression.test.ts; here, that the command says so.
    const bad = [['rows => 1'], ['rows', 'less', '1']];
    const results = await Promise.all(bad.map((words) => cli('rules', 'add', m, ...words)));
    for (const [i, result] of results.entries()) {
      t.equal(result.code, 2, bad[i]!.join(' '));
      t.match(result.stderr, USAGE_HINT);
      t.equal(result.stderr.split('\n').length, 2, 'one line');
      t.equal(result.stdout, '');
    }
    const missing = await cli('rules', 'add', m);
    t.equal(missing.code, 2);
    t.same(await json('rules', 'list', m), []);
    const empty = await cli('rules', 'list', m);
    t.equal(empty.stdout, `No rules on ${m}: add one with \`pingmon rules add ${m} 'rowsProcessed < 1'\`.\n`);
    const foreign = await cli('rules', 'add', await api.monitor(await api.account()), 'rows < 1');
    t.equal(foreign.code, 1);
    t.match(foreign.stderr, /^pingmon: No monitor mon_\w+ in your account\.\n$/);
  });

  t.test('rules test replays a rule over the latest successes, and stores nothing', async (t) => {
    const alice = await api.account();
    const { cli, json } = as(alice);
    const m = await api.monitor(alice, 'export');
    for (const rows of [40_000, 0, 39_500, 12, undefined]) {
      const meta = rows === undefined ? {} : { rowsProcessed: rows };
      const reply = await api.ping(alice, m, 'success', { meta });
      t.equal(reply.status, 200, reply.text);
    }
    const words = await cli('rules', 'test', m, 'rowsProcessed < 100');
    t.equal(words.code, 0, words.stderr);
    const lines = words.stdout.split('\n');
    t.equal(
      lines[0],
      'Alert when a success reports rowsProcessed less than 100: would have matched 2 of the 5 latest successful runs.',
    );
    t.equal(
      lines[1],
      '1 of them do not report rowsProcessed: the rule never matches those (a misspelt metric shows here).',
    );
    t.match(lines[2], /^RUN\s+STARTED\s+ROWSPROCESSED$/);
    t.match(lines[3], /\s12$/, 'newest first');
    t.match(lines[4], /\s0$/);
    const few = await json('rules', 'test', m, 'rowsProcessed', 'lt', '100', '--runs', '2');
    t.match(few, { checked: 2, withoutMetric: 1, matches: [{ actual: 12 }] });
    const bad = await cli('rules', 'test', m, 'rows => 1');
    t.equal(bad.code, 2);
    t.match(bad.stderr, /e\.g\. pingmon rules test /);
    t.same(await json('rules', 'list', m), [], 'nothing was stored');
  });
});
