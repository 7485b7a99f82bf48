import t from 'tap';
import type { Monitor, Rule, RuleList, RulePreview, RunDetail, RunList } from '@pingmon/sdk';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { startOnTestTime as setup } from '../helpers/test-time.js';
import type { OnTestTime as Setup } from '../helpers/test-time.js';
import { waitFor } from '../helpers/wait.js';

// Issue 30, points 1, 2, 3 and 6 (docs/alerts.md#rules-that-look-back): a rule compared with the median of the
// successes before, a rule that must hold over several runs, and the preview that replays either, on test time.

const MINUTE = 60_000;

async function monitor(s: Setup): Promise<string> {
  const reply = await s.api.request<Monitor>('/monitors', { token: s.account.token, body: { name: 'export' } });
  if (reply.status !== 201) throw new Error(`creating a monitor failed: ${reply.text}`);
  return reply.body.monitorId;
}

async function addRule(s: Setup, monitorId: string, body: object): Promise<Rule> {
  const reply = await s.api.request<Rule>(`/monitors/${monitorId}/rules`, { token: s.account.token, body });
  if (reply.status !== 201) throw new Error(`adding a rule failed: ${reply.text}`);
  return reply.body;
}

/** A success with `meta`, a minute after the last ping; its run as the API shows it. */
async function success(s: Setup, monitorId: string, meta: Record<string, number>): Promise<RunDetail> {
  s.clock.advance(MINUTE);
  const reply = await s.api.ping(s.account, monitorId, 'success', { meta });
  if (reply.status !== 200) throw new Error(`a success ping failed: ${reply.text}`);
  const runId = reply.body.data.runId as string;
  return (await s.api.request<RunDetail>(`/monitors/${monitorId}/runs/${runId}`, { token: s.account.token })).body;
}

/** A run that took `ms`: its start, the clock moved, its success. */
async function timedRun(s: Setup, monitorId: string, runId: string, ms: number): Promise<RunDetail> {
  s.clock.advance(MINUTE);
  await s.api.ping(s.account, monitorId, 'start', { runId });
  s.clock.advance(ms);
  await s.api.ping(s.account, monitorId, 'success', { runId });
  return (await s.api.request<RunDetail>(`/monitors/${monitorId}/runs/${runId}`, { token: s.account.token })).body;
}

const matched = (run: RunDetail) => run.matchedRules.map((r) => `${r.metric}=${r.actual}/${r.median}`);

for (const kind of DATABASE_KINDS) {
  t.test(`rules that look back on ${kind}`, async (t) => {
    t.test('value × median(N): silent until N earlier successes, then against their median', async (t) => {
      const s = await setup(t, kind);
      const m = await monitor(s);
      const rule = await addRule(s, m, { metric: 'rowsProcessed', op: 'lt', value: 0.5, baseline: { runs: 5 } });
      t.same(rule.baseline, { runs: 5, minRuns: 5 }, 'minRuns defaults to runs');
      t.equal(rule.expression, 'rowsProcessed < 0.5 × median(5)');
      t.equal(
        rule.description,
        'Alert when a success reports rowsProcessed less than 0.5 × the median of the 5 successes before it, ' +
          'once 5 earlier successes report it',
      );
      const early = [40_000, 41_000, 200, 39_000];
      for (const rows of early) t.same(matched(await success(s, m, { rowsProcessed: rows })), [], `${rows}: too few`);
      // Failures are not among the N.
      await s.api.ping(s.account, m, 'fail', { errorMessage: 'exit code 1' });
      t.same(matched(await success(s, m, { rowsProcessed: 100 })), [], 'four successes before: no verdict yet');
      // Before: 40000, 41000, 200, 39000 and 100 → median 39000, threshold 19500.
      t.same(matched(await success(s, m, { rowsProcessed: 40_500 })), []);
      const low = await success(s, m, { rowsProcessed: 19_000 });
      t.same(matched(low), ['rowsProcessed=19000/39000'], 'under half the median of the five before');
      t.equal(low.silentFailure, true);
      t.same(matched(await success(s, m, { rowsProcessed: 19_600 })), [], 'the median moved down to 19000');
      // A success without the metric is one of the five before the next: four of them report it, no verdict.
      await success(s, m, {});
      t.same(matched(await success(s, m, { rowsProcessed: 500 })), [], 'four of the five before report it');

      await waitFor(() => s.hooks.some((h) => JSON.parse(h.body).event === 'silent_failure'), {
        what: 'the silent_failure alert',
      });
      const alert = JSON.parse(s.hooks.find((h) => JSON.parse(h.body).event === 'silent_failure')!.body);
      t.match(alert.matchedRules, [{ metric: 'rowsProcessed', value: 0.5, actual: 19_000, median: 39_000 }]);
      t.match(alert.matchedRules[0].baseline, { runs: 5, minRuns: 5 });
    });

    t.test('durationMs too slow and too fast against the median of the runs before', async (t) => {
      const s = await setup(t, kind);
      const m = await monitor(s);
      await addRule(s, m, { metric: 'durationMs', op: 'gt', value: 3, baseline: { runs: 3, minRuns: 2 } });
      await addRule(s, m, { metric: 'durationMs', op: 'lt', value: 0.1, baseline: { runs: 3 } });
      const min40 = 40 * MINUTE;
      t.same(matched(await timedRun(s, m, 'export-run-0001', min40)), []);
      t.same(matched(await timedRun(s, m, 'export-run-0002', min40 + 60_000)), []);
      const slow = await timedRun(s, m, 'export-run-0003', 130 * MINUTE);
      t.same(matched(slow), [`durationMs=${130 * MINUTE}/${(min40 * 2 + 60_000) / 2}`], 'min 2: judged on the third');
      const fast = await timedRun(s, m, 'export-run-0004', 4_000);
      t.same(matched(fast), [`durationMs=4000/${min40 + 60_000}`], 'the backup that backed up nothing');
    });

    t.test('for N runs, and K of the last N: the run judged among them', async (t) => {
      const s = await setup(t, kind);
      const m = await monitor(s);
      const row = await addRule(s, m, { metric: 'errors', op: 'gt', value: 0, window: { runs: 3, atLeast: 3 } });
      t.equal(row.expression, 'errors > 0 for 3 runs');
      const some = await addRule(s, m, { metric: 'skipped', op: 'gte', value: 10, window: { runs: 4, atLeast: 2 } });
      t.equal(some.expression, 'skipped >= 10 in 2 of the last 4');
      t.equal(some.description, 'Alert when a success reports skipped at least 10, in 2 of the last 4 successes');
      const steps: Array<[Record<string, number>, string[]]> = [
        [{ errors: 1, skipped: 12 }, []],
        [{ errors: 2, skipped: 0 }, []],
        [{ errors: 1, skipped: 0 }, ['errors=1/null']],
        [{ errors: 5, skipped: 0 }, ['errors=5/null']],
        [{ errors: 0, skipped: 11 }, []],
        [{ errors: 1, skipped: 10 }, ['skipped=10/null']],
        [{ errors: 1, skipped: 9 }, []],
        [{ errors: 1, skipped: 30 }, ['errors=1/null', 'skipped=30/null']],
      ];
      for (const [i, [meta, expected]] of steps.entries()) {
        t.same(matched(await success(s, m, meta)), expected, `run ${i + 1}: ${JSON.stringify(meta)}`);
      }
    });

    t.test('the preview replays a look-back rule as the pings judged it, with the runs before', async (t) => {
      const s = await setup(t, kind);
      const m = await monitor(s);
      const series = [100, 110, 90, 105, 20, 100, 95, 30, 25, 102];
      for (const rows of series) await success(s, m, { rows });
      const body = { metric: 'rows', op: 'lt', value: 0.5, baseline: { runs: 4 }, window: { runs: 2, atLeast: 2 } };
      const preview = await s.api.request<RulePreview>(`/monitors/${m}/rules/preview?runs=5`, {
        token: s.account.token,
        body,
      });
      t.equal(preview.status, 200, preview.text);
      t.equal(preview.body.expression, 'rows < 0.5 × median(4) for 2 runs');
      t.equal(preview.body.checked, 5);
      // The five latest: 100, 95, 30, 25, 102. 30 is under half the median before it (97.5), and 25 under half
      // its own (62.5) right after: for 2 runs. 20, earlier, was under half too, alone.
      t.same(
        preview.body.matches.map((x) => [x.actual, x.median]),
        [[25, 62.5]],
      );
      // Added now, the rule judges the pings to come exactly as the preview judged the runs.
      await addRule(s, m, body);
      t.same(matched(await success(s, m, { rows: 20 })), [], 'under half of 62.5, but after 102: once');
      t.same(matched(await success(s, m, { rows: 10 })), ['rows=10/27.5'], 'under half of 27.5, twice in a row');
      const runs = (await s.api.request<RunList>(`/monitors/${m}/runs?limit=20`, { token: s.account.token })).body;
      t.equal(runs.runs.filter((r) => r.silentFailure).length, 1, 'rules judge runs from their adding on');
      const again = await s.api.request<RulePreview>(`/monitors/${m}/rules/preview?runs=6`, {
        token: s.account.token,
        body,
      });
      t.same(
        again.body.matches.map((x) => x.actual),
        [10, 25],
      );
    });

    t.test('what cannot be a look-back rule is refused, saying why', async (t) => {
      const s = await setup(t, kind);
      const m = await monitor(s);
      const base = { metric: 'rows', op: 'lt', value: 0.5 };
      const bad: Array<[object, RegExp]> = [
        [{ ...base, value: 0, baseline: { runs: 5 } }, /"value" must be greater than 0/],
        [{ ...base, baseline: { runs: 101 } }, /"baseline.runs" must be less than or equal to 100/],
        [
          { ...base, baseline: { runs: 5, minRuns: 6 } },
          /"baseline.minRuns" \(6\) must be at most "baseline.runs" \(5\)/,
        ],
        [{ ...base, window: { runs: 21, atLeast: 1 } }, /"window.runs" must be less than or equal to 20/],
        [
          { ...base, window: { runs: 3, atLeast: 4 } },
          /"window.atLeast" \(4\) must be at most "window.runs" \(3\): it cannot hold/,
        ],
        [{ ...base, window: { runs: 3 } }, /"window.atLeast" is required/],
      ];
      for (const [body, message] of bad) {
        const reply = await s.api.request(`/monitors/${m}/rules`, { token: s.account.token, body });
        t.equal(reply.status, 400, JSON.stringify(body));
        t.match(reply.body, { code: 'invalid_request', message }, JSON.stringify(body));
      }
      const list = await s.api.request<RuleList>(`/monitors/${m}/rules`, { token: s.account.token });
      t.same(list.body.rules, [], 'nothing was added');
    });
  });
}
