import t from 'tap';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { TestServer } from '../helpers/server.js';

for (const kind of DATABASE_KINDS) {
  t.test(`monitors and logs on ${kind}`, async (t) => {
    const api = await TestServer.start(t, kind);
    const alice = await api.account();
    const bob = await api.account();

    t.test('POST /monitors answers 201 with the monitor', async (t) => {
      const reply = await api.request('/monitors', { token: alice.token, body: { name: '  db backup  ' } });
      t.equal(reply.status, 201);
      t.same(Object.keys(reply.body).sort(), ['createdAt', 'lastRun', 'monitorId', 'name']);
      t.equal(reply.body.lastRun, null);
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

    t.test('GET /monitors lists the account\'s monitors newest first, page by page', async (t) => {
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

    t.test('accounts never see each other\'s monitors', async (t) => {
      const mine = await api.monitor(alice, 'mine');
      const list = await api.request('/monitors', { token: bob.token });
      t.notOk(list.body.monitors.some((m: { monitorId: string }) => m.monitorId === mine));
    });

    t.test('the log endpoint answers hasLog and content', async (t) => {
      const m = await api.monitor(alice, 'with logs');
      const failed = (await api.ping(alice, m, 'fail', { errorMessage: 'exit 1', logOutput: 'Traceback…\nError: boom' })).body.data.runId;
      const ok = (await api.ping(alice, m, 'success')).body.data.runId;
      const withLog = await api.request(`/monitors/${m}/runs/${failed}/log`, { token: alice.token });
      t.equal(withLog.status, 200);
      t.same(withLog.body, { hasLog: true, content: 'Traceback…\nError: boom' });
      const without = await api.request(`/monitors/${m}/runs/${ok}/log`, { token: alice.token });
      t.same(without.body, { hasLog: false, content: null });
      const failedNoLog = (await api.ping(alice, m, 'fail', { errorMessage: 'no log' })).body.data.runId;
      t.same((await api.request(`/monitors/${m}/runs/${failedNoLog}/log`, { token: alice.token })).body, { hasLog: false, content: null });
    });

    t.test('the log endpoint refuses API keys and hides other accounts\' runs', async (t) => {
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

    t.test('pings with one account\'s key never touch another\'s monitors', async (t) => {
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
