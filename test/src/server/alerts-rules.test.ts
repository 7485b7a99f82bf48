import t from 'tap';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { FIXED_RULE } from '../helpers/alert-fixtures.js';
import { TestServer } from '../helpers/server.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

for (const kind of DATABASE_KINDS) {
  t.test(`alert rules on ${kind}`, async (t) => {
    const api = await TestServer.start(t, kind, { alertPollMs: 60_000 });
    const alice = await api.account();
    const bob = await api.account();

    t.test('POST adds a rule (201), GET lists them in the order added, DELETE removes one (204)', async (t) => {
      const m = await api.monitor(alice);
      const created = await api.request(`/monitors/${m}/rules`, {
        token: alice.token,
        body: { metric: 'rowsProcessed', op: 'lt', value: 1, extra: 'ignored' },
      });
      t.equal(created.status, 201);
      const keys = ['baseline', 'createdAt', 'description', 'expression', 'metric', 'monitorId', 'op', 'ruleId'];
      t.same(Object.keys(created.body).sort(), [...keys, 'value', 'window']);
      t.match(created.body, {
        monitorId: m,
        metric: 'rowsProcessed',
        op: 'lt',
        value: 1,
        baseline: null,
        window: null,
      });
      t.equal(created.body.expression, 'rowsProcessed < 1');
      t.equal(created.body.description, 'Alert when a success reports rowsProcessed less than 1');
      t.match(created.body.ruleId, /^rule_/);
      t.match(created.body.createdAt, ISO_MS);
      const second = (
        await api.request(`/monitors/${m}/rules`, {
          token: alice.token,
          body: { metric: 'seconds', op: 'gte', value: -2.5 },
        })
      ).body;
      const list = await api.request(`/monitors/${m}/rules`, { token: alice.token });
      t.equal(list.status, 200);
      t.same(list.body, { rules: [created.body, second], nextCursor: null });
      const removed = await api.request(`/monitors/${m}/rules/${created.body.ruleId}`, {
        method: 'DELETE',
        token: alice.token,
      });
      t.equal(removed.status, 204);
      t.equal(removed.text, '');
      t.same((await api.request(`/monitors/${m}/rules`, { token: alice.token })).body.rules, [second]);
      const again = await api.request(`/monitors/${m}/rules/${created.body.ruleId}`, {
        method: 'DELETE',
        token: alice.token,
      });
      t.equal(again.status, 404);
      t.equal(again.body.code, 'rule_not_found');
    });

    t.test('rules are validated with 400 invalid_request naming the field', async (t) => {
      const m = await api.monitor(alice);
      const cases: Array<[unknown, RegExp]> = [
        [{ op: 'lt', value: 1 }, /metric/],
        [{ metric: '', op: 'lt', value: 1 }, /metric/],
        [{ metric: 'x'.repeat(65), op: 'lt', value: 1 }, /metric/],
        [{ metric: 7, op: 'lt', value: 1 }, /metric/],
        [{ metric: 'rows', op: '<', value: 1 }, /op/],
        [{ metric: 'rows', op: 'LT', value: 1 }, /op/],
        [{ metric: 'rows', value: 1 }, /op/],
        [{ metric: 'rows', op: 'lt' }, /value/],
        [{ metric: 'rows', op: 'lt', value: '1' }, /value/],
        [{ metric: 'rows', op: 'lt', value: null }, /value/],
      ];
      for (const [body, field] of cases) {
        const reply = await api.request(`/monitors/${m}/rules`, { token: alice.token, body });
        t.equal(reply.status, 400, JSON.stringify(body).slice(0, 60));
        t.equal(reply.body.code, 'invalid_request');
        t.match(reply.body.message, field);
      }
      const overflow = await api.request(`/monitors/${m}/rules`, {
        token: alice.token,
        body: '{"metric":"rows","op":"lt","value":1e999}',
        headers: { 'content-type': 'application/json' },
      });
      t.equal(overflow.status, 400, 'a value that overflows to infinity is refused');
      t.match(overflow.body.message, /value/);
      t.same((await api.request(`/monitors/${m}/rules`, { token: alice.token })).body.rules, [], 'nothing was added');
      const metric64 = await api.request(`/monitors/${m}/rules`, {
        token: alice.token,
        body: { metric: 'm'.repeat(64), op: 'eq', value: 0 },
      });
      t.equal(metric64.status, 201, 'a 64-character metric, like a meta key');
    });

    t.test('any finite value makes a rule, beyond 2^53 too, as meta numbers can be', async (t) => {
      const m = await api.monitor(alice);
      for (const value of [1e16, -18014398509481984, 1.5e300, 5e-324]) {
        const reply = await api.request(`/monitors/${m}/rules`, {
          token: alice.token,
          body: { metric: 'bytesWritten', op: 'gt', value },
        });
        t.equal(reply.status, 201, `${value}: ${reply.text}`);
        t.equal(reply.body.value, value);
      }
      const ack = await api.ping(alice, m, 'success', { meta: { bytesWritten: 2e16 } });
      const run = (await api.request(`/monitors/${m}/runs/${ack.body.data.runId}`, { token: alice.token })).body;
      t.same(
        run.matchedRules.map((r: { value: number }) => r.value),
        [1e16, -18014398509481984, 5e-324],
        'matched as stored',
      );
    });

    t.test('a monitor has at most 20 rules: the 21st is 400 rule_limit_reached, even when sent at once', async (t) => {
      const m = await api.monitor(alice);
      const replies = await Promise.all(
        Array.from({ length: 25 }, (_, i) =>
          api.request(`/monitors/${m}/rules`, { token: alice.token, body: { metric: `m${i}`, op: 'gt', value: i } }),
        ),
      );
      t.equal(replies.filter((r) => r.status === 201).length, 20);
      const refused = replies.filter((r) => r.status !== 201);
      t.equal(refused.length, 5);
      for (const r of refused) {
        t.equal(r.status, 400);
        t.equal(r.body.code, 'rule_limit_reached');
        t.match(r.body.message, /20 rules/);
      }
      t.equal((await api.request(`/monitors/${m}/rules`, { token: alice.token })).body.rules.length, 20);
      const first = replies.find((r) => r.status === 201)!.body.ruleId;
      await api.request(`/monitors/${m}/rules/${first}`, { method: 'DELETE', token: alice.token });
      const after = await api.request(`/monitors/${m}/rules`, {
        token: alice.token,
        body: { metric: 'again', op: 'gt', value: 0 },
      });
      t.equal(after.status, 201, 'deleting one makes room for one');
    });

    t.test(
      'a success ping is checked against every rule: each operator, missing metrics, the run marked',
      async (t) => {
        const m = await api.monitor(alice);
        const rules: Array<[string, string, number]> = [
          ['a', 'lt', 1],
          ['b', 'lte', 1],
          ['c', 'gt', 1],
          ['d', 'gte', 1],
          ['e', 'eq', 1],
          ['f', 'neq', 1],
        ];
        const ids: Record<string, string> = {};
        for (const [metric, op, value] of rules)
          ids[metric] = (
            await api.request(`/monitors/${m}/rules`, { token: alice.token, body: { metric, op, value } })
          ).body.ruleId;
        const check = async (meta: Record<string, number>) => {
          const runId = (await api.ping(alice, m, 'success', { meta })).body.data.runId;
          return (await api.request(`/monitors/${m}/runs/${runId}`, { token: alice.token })).body;
        };
        const below = await check({ a: 0, b: 0, c: 0, d: 0, e: 0, f: 0 });
        t.equal(below.status, 'success', 'the run stays a success');
        t.equal(below.silentFailure, true);
        t.same(below.matchedRules, [
          { ruleId: ids.a, metric: 'a', op: 'lt', value: 1, actual: 0, ...FIXED_RULE },
          { ruleId: ids.b, metric: 'b', op: 'lte', value: 1, actual: 0, ...FIXED_RULE },
          { ruleId: ids.f, metric: 'f', op: 'neq', value: 1, actual: 0, ...FIXED_RULE },
        ]);
        const equal = await check({ a: 1, b: 1, c: 1, d: 1, e: 1, f: 1 });
        t.same(
          equal.matchedRules.map((r: { metric: string }) => r.metric),
          ['b', 'd', 'e'],
        );
        const above = await check({ a: 2, b: 2, c: 2, d: 2, e: 2, f: 2 });
        t.same(
          above.matchedRules.map((r: { metric: string }) => r.metric),
          ['c', 'd', 'f'],
        );
        const missing = await check({ unrelated: 0 });
        t.equal(missing.silentFailure, false, 'rules whose metric is missing do not match, not even neq');
        t.same(missing.matchedRules, []);
        const noMeta = (await api.ping(alice, m, 'success')).body.data.runId;
        t.equal((await api.request(`/monitors/${m}/runs/${noMeta}`, { token: alice.token })).body.silentFailure, false);
        const list = await api.request(`/monitors/${m}/runs?limit=5`, { token: alice.token });
        t.same(
          list.body.runs.map((r: { silentFailure: boolean }) => r.silentFailure),
          [false, false, true, true, true],
          'GET runs shows the flag too',
        );
      },
    );

    t.test('the rules apply to a success that finishes a started run, never to fail pings or starts', async (t) => {
      const m = await api.monitor(alice);
      await api.request(`/monitors/${m}/rules`, { token: alice.token, body: { metric: 'rows', op: 'lt', value: 1 } });
      const started = (await api.ping(alice, m, 'start', { runId: 'paired-run-1' })).body.data.runId;
      await api.ping(alice, m, 'success', { runId: started, meta: { rows: 0 } });
      t.equal((await api.request(`/monitors/${m}/runs/${started}`, { token: alice.token })).body.silentFailure, true);
      const failed = (await api.ping(alice, m, 'fail', { meta: { rows: 0 } })).body.data.runId;
      const run = (await api.request(`/monitors/${m}/runs/${failed}`, { token: alice.token })).body;
      t.match(run, { status: 'failed', silentFailure: false, matchedRules: [] });
    });

    t.test('rules of another account are out of reach: 404 for every rule endpoint', async (t) => {
      const m = await api.monitor(alice);
      const rule = (
        await api.request(`/monitors/${m}/rules`, { token: alice.token, body: { metric: 'rows', op: 'lt', value: 1 } })
      ).body;
      const list = await api.request(`/monitors/${m}/rules`, { token: bob.token });
      t.equal(list.status, 404);
      t.equal(list.body.code, 'monitor_not_found');
      const add = await api.request(`/monitors/${m}/rules`, {
        token: bob.token,
        body: { metric: 'rows', op: 'lt', value: 1 },
      });
      t.equal(add.status, 404);
      t.equal(add.body.code, 'monitor_not_found');
      const del = await api.request(`/monitors/${m}/rules/${rule.ruleId}`, { method: 'DELETE', token: bob.token });
      t.equal(del.status, 404);
      t.equal(del.body.code, 'monitor_not_found');
      const bobs = await api.monitor(bob);
      const cross = await api.request(`/monitors/${bobs}/rules/${rule.ruleId}`, { method: 'DELETE', token: bob.token });
      t.equal(cross.status, 404, 'a rule of another monitor');
      t.equal(cross.body.code, 'rule_not_found');
      t.equal((await api.request(`/monitors/${m}/rules`, { token: alice.token })).body.rules.length, 1, 'still there');
      const withKey = await api.request(`/monitors/${m}/rules`, { apiKey: alice.apiKey });
      t.equal(withKey.status, 401);
      t.equal(withKey.body.code, 'user_token_required');
    });

    t.test('deleting a monitor deletes its rules', async (t) => {
      const m = await api.monitor(alice);
      await api.request(`/monitors/${m}/rules`, { token: alice.token, body: { metric: 'rows', op: 'lt', value: 1 } });
      await api.request(`/monitors/${m}`, { method: 'DELETE', token: alice.token });
      const left = await api.query((knex) => knex('rules').where({ monitor_id: m }));
      t.same(left, []);
    });
  });
}
