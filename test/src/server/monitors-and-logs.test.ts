import t from 'tap';
import type { Monitor, MonitorList } from '@pingmon/sdk';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { TestServer } from '../helpers/server.js';
import type { TestAccount } from '../helpers/server.js';

const NO_RUNS = { runs: 0, failed: 0, silentFailures: 0 };

for (const kind of DATABASE_KINDS) {
  t.test(`monitors and logs on ${kind}`, async (t) => {
    const api = await TestServer.start(t, kind);
    const alice = await api.account();
    const bob = await api.account();

    t.test('POST /monitors answers 201 with the monitor', async (t) => {
      const reply = await api.request('/monitors', { token: alice.token, body: { name: '  db backup  ' } });
      t.equal(reply.status, 201);
      t.same(Object.keys(reply.body).sort(), [
        'createdAt',
        'failAlerts',
        'failureThreshold',
        'incident',
        'lastRun',
        'maxRuntime',
        'monitorId',
        'name',
        'nextExpectedAt',
        'paused',
        'recentRuns',
        'recoveryThreshold',
        'renotifyAfter',
        'schedule',
        'slug',
        'snoozedUntil',
        'startGrace',
        'status',
      ]);
      t.match(reply.body, { schedule: null, status: 'new', nextExpectedAt: null, incident: null, paused: false });
      t.equal(reply.body.lastRun, null);
      t.same(reply.body.recentRuns, NO_RUNS);
      t.match(reply.body.monitorId, /^mon_/);
      t.equal(reply.body.name, 'db backup');
    });

    t.test('monitor names are validated', async (t) => {
      for (const body of [{}, { name: '' }, { name: 'x'.repeat(201) }, { name: 7 }]) {
        const reply = await api.request('/monitors', { token: alice.token, body });
        t.equal(reply.status, 400, JSON.stringify(body).slice(0, 40));
        t.equal(reply.body.code, 'invalid_request');
        t.match(reply.body.message, /name/);
      }
    });

    t.test("GET /monitors lists the account's monitors newest first, page by page", async (t) => {
      const owner = await api.account();
      const created: string[] = [];
      for (let i = 0; i < 5; i++) created.push(await api.monitor(owner, `job ${i}`));
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const query: string = cursor ? `?limit=2&cursor=${cursor}` : '?limit=2';
        const page = await api.request(`/monitors${query}`, { token: owner.token });
        t.equal(page.status, 200);
        t.ok(page.body.monitors.length <= 2);
        seen.push(...page.body.monitors.map((m: { monitorId: string }) => m.monitorId));
        cursor = page.body.nextCursor;
      } while (cursor);
      t.same(seen, [...created].reverse());
      const bad = await api.request('/monitors?cursor=bogus', { token: owner.token });
      t.equal(bad.status, 400);
      t.equal(bad.body.code, 'invalid_cursor');
      const empty = await api.request('/monitors?cursor=', { token: owner.token });
      t.equal(empty.body.code, 'invalid_cursor');
      const tooMany = await api.request('/monitors?limit=1000', { token: owner.token });
      t.equal(tooMany.status, 400);
      t.match(tooMany.body.message, /limit/);
      const unknown = await api.request('/monitors?sort=name', { token: owner.token });
      t.equal(unknown.status, 200, 'unknown query parameters are ignored');
    });

    t.test("accounts never see each other's monitors", async (t) => {
      const mine = await api.monitor(alice, 'mine');
      const list = await api.request('/monitors', { token: bob.token });
      t.notOk(list.body.monitors.some((m: { monitorId: string }) => m.monitorId === mine));
    });

    // Run ids rise with every run reported here, so runs that start in the same millisecond keep this order too.
    let reported = 0;
    const report = async (
      account: TestAccount,
      monitorId: string,
      kind: 'start' | 'success' | 'fail',
      meta?: Record<string, number>,
    ) => {
      const runId = `run-${String(++reported).padStart(6, '0')}`;
      const reply = await api.ping(account, monitorId, kind, { runId, meta });
      if (reply.status !== 200) throw new Error(`ping failed: ${reply.text}`);
      return runId;
    };
    const reportMany = async (account: TestAccount, monitorId: string, kind: 'success' | 'fail', count: number) => {
      for (let i = 0; i < count; i++) await report(account, monitorId, kind);
    };
    /** The counts a client would make from the first 20 runs of the runs list. */
    const countedFromRunsList = async (account: TestAccount, monitorId: string) => {
      const { runs } = (await api.request(`/monitors/${monitorId}/runs?limit=20`, { token: account.token })).body as {
        runs: Array<{ status: string; silentFailure: boolean }>;
      };
      return {
        runs: runs.length,
        failed: runs.filter((r) => r.status === 'failed').length,
        silentFailures: runs.filter((r) => r.silentFailure).length,
      };
    };
    const listed = async (account: TestAccount) => {
      const reply = await api.request<MonitorList>('/monitors?limit=200', { token: account.token });
      return new Map<string, Monitor>(reply.body.monitors.map((m) => [m.monitorId, m]));
    };

    t.test('recentRuns counts runs, failed runs and silent failures; running runs count as runs only', async (t) => {
      const m = await api.monitor(alice, 'imports');
      t.same((await api.request(`/monitors/${m}`, { token: alice.token })).body.recentRuns, NO_RUNS);
      t.equal(
        (
          await api.request(`/monitors/${m}/rules`, {
            token: alice.token,
            body: { metric: 'rows', op: 'lt', value: 1 },
          })
        ).status,
        201,
      );
      await report(alice, m, 'success', { rows: 5 });
      await report(alice, m, 'fail');
      await report(alice, m, 'success', { rows: 0 });
      await report(alice, m, 'fail');
      const running = await report(alice, m, 'start');
      const one = await api.request(`/monitors/${m}`, { token: alice.token });
      t.same(one.body.recentRuns, { runs: 5, failed: 2, silentFailures: 1 });
      t.same(one.body.recentRuns, await countedFromRunsList(alice, m));
      t.match(one.body.lastRun, { runId: running, status: 'running', finishedAt: null, silentFailure: false });
      t.same((await listed(alice)).get(m), one.body, 'the list says the same');

      t.equal((await api.ping(alice, m, 'success', { runId: running, meta: { rows: 0 } })).status, 200);
      const renamed = await api.request(`/monitors/${m}`, {
        method: 'PATCH',
        token: alice.token,
        body: { name: 'imports (prod)' },
      });
      t.same(renamed.body.recentRuns, { runs: 5, failed: 2, silentFailures: 2 });
      t.match(renamed.body.lastRun, { runId: running, status: 'success', silentFailure: true });
    });

    t.test('only the latest 20 runs count: failures before them do not', async (t) => {
      const m = await api.monitor(alice, 'busy');
      await reportMany(alice, m, 'fail', 3);
      await reportMany(alice, m, 'success', 18);
      let monitor = (await api.request(`/monitors/${m}`, { token: alice.token })).body;
      t.same(monitor.recentRuns, { runs: 20, failed: 2, silentFailures: 0 }, 'the oldest failure is the 21st run');
      t.same(monitor.recentRuns, await countedFromRunsList(alice, m));
      const newest = await report(alice, m, 'success');
      await report(alice, m, 'start');
      monitor = (await api.request(`/monitors/${m}`, { token: alice.token })).body;
      t.same(monitor.recentRuns, { runs: 20, failed: 0, silentFailures: 0 });
      t.same(monitor.recentRuns, await countedFromRunsList(alice, m));
      t.equal(monitor.lastRun.status, 'running');
      t.not(monitor.lastRun.runId, newest);
    });

    t.test("one page of monitors counts each monitor's own runs", async (t) => {
      const owner = await api.account();
      const failing = await api.monitor(owner, 'failing');
      const mixed = await api.monitor(owner, 'mixed');
      const idle = await api.monitor(owner, 'idle');
      const started = await api.monitor(owner, 'started');
      await reportMany(owner, failing, 'fail', 25);
      await reportMany(owner, mixed, 'success', 2);
      await reportMany(owner, mixed, 'fail', 1);
      await report(owner, started, 'start');
      const expected = new Map([
        [failing, { runs: 20, failed: 20, silentFailures: 0 }],
        [mixed, { runs: 3, failed: 1, silentFailures: 0 }],
        [idle, NO_RUNS],
        [started, { runs: 1, failed: 0, silentFailures: 0 }],
      ]);
      const monitors = await listed(owner);
      t.same([...monitors.keys()].sort(), [...expected.keys()].sort());
      for (const [id, counts] of expected) {
        t.same(monitors.get(id)!.recentRuns, counts, monitors.get(id)!.name);
        t.same(counts, await countedFromRunsList(owner, id));
      }
      t.equal(monitors.get(idle)!.lastRun, null);
      const page = await api.request('/monitors?limit=2', { token: owner.token });
      t.same(
        page.body.monitors.map((m: { recentRuns: unknown }) => m.recentRuns),
        [expected.get(started), expected.get(idle)],
        'a short page too',
      );
    });

    t.test('runs of one account never count for another', async (t) => {
      const carol = await api.account();
      const dave = await api.account();
      const carols = await api.monitor(carol, 'shared name');
      const daves = await api.monitor(dave, 'shared name');
      await reportMany(carol, carols, 'fail', 3);
      await reportMany(dave, daves, 'success', 1);
      t.same(
        [...(await listed(carol)).values()].map((m) => [m.monitorId, m.recentRuns]),
        [[carols, { runs: 3, failed: 3, silentFailures: 0 }]],
      );
      t.same(
        [...(await listed(dave)).values()].map((m) => [m.monitorId, m.recentRuns]),
        [[daves, { runs: 1, failed: 0, silentFailures: 0 }]],
      );
      t.equal((await api.request(`/monitors/${carols}`, { token: dave.token })).status, 404);
    });

    t.test('the log endpoint answers hasLog and content', async (t) => {
      const m = await api.monitor(alice, 'with logs');
      const failed = (
        await api.ping(alice, m, 'fail', { errorMessage: 'exit 1', logOutput: 'Traceback…\nError: boom' })
      ).body.data.runId;
      const ok = (await api.ping(alice, m, 'success')).body.data.runId;
      const withLog = await api.request(`/monitors/${m}/runs/${failed}/log`, { token: alice.token });
      t.equal(withLog.status, 200);
      t.same(withLog.body, { hasLog: true, content: 'Traceback…\nError: boom' });
      const without = await api.request(`/monitors/${m}/runs/${ok}/log`, { token: alice.token });
      t.same(without.body, { hasLog: false, content: null });
      const failedNoLog = (await api.ping(alice, m, 'fail', { errorMessage: 'no log' })).body.data.runId;
      t.same((await api.request(`/monitors/${m}/runs/${failedNoLog}/log`, { token: alice.token })).body, {
        hasLog: false,
        content: null,
      });
    });

    t.test("the log endpoint refuses API keys and hides other accounts' runs", async (t) => {
      const m = await api.monitor(alice, 'private');
      const runId = (await api.ping(alice, m, 'fail', { logOutput: 'secret stuff' })).body.data.runId;
      const path = `/monitors/${m}/runs/${runId}/log`;
      const withKey = await api.request(path, { apiKey: alice.apiKey });
      t.equal(withKey.status, 401);
      t.equal(withKey.body.code, 'user_token_required');
      const foreign = await api.request(path, { token: bob.token });
      t.equal(foreign.status, 404);
      t.notOk(foreign.text.includes('secret stuff'));
      const missingRun = await api.request(`/monitors/${m}/runs/run_missing/log`, { token: alice.token });
      t.equal(missingRun.status, 404);
      t.equal(missingRun.body.code, 'run_not_found');
      t.same(Object.keys(foreign.body).sort(), Object.keys(missingRun.body).sort());
    });

    t.test("pings with one account's key never touch another's monitors", async (t) => {
      const m = await api.monitor(bob, 'bob only');
      for (const kindOfPing of ['start', 'success', 'fail'] as const) {
        t.equal((await api.ping(alice, m, kindOfPing)).status, 404);
      }
    });

    t.test('monitor endpoints need a user token', async (t) => {
      t.equal((await api.request('/monitors')).status, 401);
      t.equal((await api.request('/monitors', { apiKey: alice.apiKey })).body.code, 'user_token_required');
      t.equal((await api.request('/monitors', { apiKey: alice.apiKey, body: { name: 'x' } })).status, 401);
    });
  });
}
