import t from 'tap';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { TestServer } from '../helpers/server.js';
import { addKey } from '../helpers/team.js';
import { waitFor } from '../helpers/wait.js';

for (const kind of DATABASE_KINDS) {
  t.test(`API key scopes on ${kind}`, async (t) => {
    const api = await TestServer.start(t, kind, { apiKeyCacheMs: 0 });
    const owner = await api.account();
    const monitorA = await api.request('/monitors', { token: owner.token, body: { name: 'a', slug: 'job-a' } });
    const monitorB = await api.request('/monitors', { token: owner.token, body: { name: 'b', slug: 'job-b' } });
    const a = monitorA.body.monitorId as string;
    const b = monitorB.body.monitorId as string;
    const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

    t.test(
      "the account's first key pings, and its listing shows scope, monitors and last use, never the key",
      async (t) => {
        t.equal((await api.ping(owner, a, 'success')).status, 200);
        const listed = await api.request('/api-keys', { token: owner.token });
        t.match(listed.body.apiKeys, [{ name: 'default', scope: 'ping', provision: true, monitorIds: null }]);
        t.notOk(listed.text.includes(owner.apiKey), 'never the key');
        const used = await waitFor(async () => {
          const keys = (await api.request('/api-keys', { token: owner.token })).body.apiKeys;
          return keys[0].lastUsedAt as string | null;
        });
        t.ok(Math.abs(Date.parse(used) - Date.now()) < 60_000, `last used ${used}`);
        for (let i = 0; i < 3; i++) await api.ping(owner, a, 'success');
        await api.request('/monitors', { headers: bearer(owner.apiKey) });
        const again = (await api.request('/api-keys', { token: owner.token })).body.apiKeys[0];
        t.equal(again.lastUsedAt, used, 'written at most once a minute');
      },
    );

    t.test('a ping key on the management API is told which key would do', async (t) => {
      const reply = await api.request('/monitors', { apiKey: owner.apiKey });
      t.equal(reply.status, 401);
      t.equal(reply.body.code, 'user_token_required');
      t.match(reply.body.message, /ping key: it sends pings only/);
      t.match(reply.body.message, /user token or a read or write key/);
      t.match(reply.body.message, /pingmon keys create --scope read/);
      const users = await api.request('/users', { apiKey: owner.apiKey });
      t.match(users.body.message, /needs a user token, never an API key/);
    });

    t.test('a read key reads, with either header, and neither writes nor pings', async (t) => {
      const read = await addKey(api, owner, { name: 'grafana', scope: 'read' });
      for (const headers of [bearer(read), { 'x-api-key': read }]) {
        const listed = await api.request('/monitors', { headers });
        t.equal(listed.status, 200, listed.text);
        t.equal(listed.body.monitors.length, 2);
      }
      await api.ping(owner, a, 'fail', { logOutput: 'the log' });
      const runs = await api.request(`/monitors/job-a/runs?status=failed`, { headers: bearer(read) });
      const log = await api.request(`/monitors/${a}/runs/${runs.body.runs[0].runId}/log`, { headers: bearer(read) });
      t.same(log.body, { hasLog: true, content: 'the log' }, 'logs included');
      const write = await api.request('/monitors', { headers: bearer(read), body: { name: 'c' } });
      t.equal(write.status, 403);
      t.equal(write.body.code, 'key_scope');
      t.match(write.body.message, /read scope: it reads only/);
      t.match(write.body.message, /pingmon keys create --scope write/);
      const ping = await api.request(`/ping/${a}/success`, { method: 'POST', headers: bearer(read) });
      t.equal(ping.status, 403);
      t.equal(ping.body.code, 'key_scope');
      t.match(ping.body.message, /does not ping/);
      for (const path of ['/users', '/api-keys', '/me']) {
        const reply = await api.request(path, { headers: bearer(read) });
        t.equal(reply.status, 403, path);
        t.match(reply.body.message, /API keys are never accepted/);
      }
    });

    t.test('a write key changes monitors, and still does not manage keys or users', async (t) => {
      const write = await addKey(api, owner, { name: 'deploy', scope: 'write' });
      const created = await api.request('/monitors', { headers: bearer(write), body: { name: 'c', slug: 'job-c' } });
      t.equal(created.status, 201, created.text);
      const renamed = await api.request('/monitors/job-c', {
        method: 'PATCH',
        headers: bearer(write),
        body: { name: 'cee' },
      });
      t.equal(renamed.body.name, 'cee');
      t.equal((await api.request('/monitors/job-c', { method: 'DELETE', headers: bearer(write) })).status, 204);
      const key = await api.request('/api-keys', { headers: bearer(write), body: { scope: 'write' } });
      t.equal(key.status, 403);
      t.equal(key.body.code, 'key_scope');
    });

    t.test('a key limited to some monitors sees and changes those alone', async (t) => {
      const read = await addKey(api, owner, { name: 'a only', scope: 'read', monitorIds: ['job-a'] });
      const keys = (await api.request('/api-keys', { token: owner.token })).body.apiKeys;
      t.same(keys.find((k: { name: string }) => k.name === 'a only').monitorIds, [a], 'slugs stored as ids');
      const monitors = await api.request('/monitors', { headers: bearer(read) });
      t.same(
        monitors.body.monitors.map((m: { monitorId: string }) => m.monitorId),
        [a],
      );
      t.equal((await api.request(`/monitors/${a}`, { headers: bearer(read) })).status, 200);
      for (const path of [`/monitors/${b}`, '/monitors/job-b/runs', `/alerts?monitorId=${b}`]) {
        const reply = await api.request(path, { headers: bearer(read) });
        t.equal(reply.status, 404, path);
        t.equal(reply.body.code, 'monitor_not_found');
      }
      await api.ping(owner, b, 'fail');
      await api.ping(owner, a, 'fail');
      const alerts = await api.request('/alerts', { headers: bearer(read) });
      t.equal(alerts.status, 200);
      t.ok(alerts.body.alerts.length > 0, 'the fail of a raised an alert');
      t.ok(
        alerts.body.alerts.every((alert: { monitorId: string }) => alert.monitorId === a),
        'alerts of its monitors alone',
      );
      const channels = await api.request('/channels', { headers: bearer(read) });
      t.equal(channels.status, 403);
      t.equal(channels.body.code, 'key_monitors');
      t.match(channels.body.message, /concerns the whole account/);

      const write = await addKey(api, owner, { name: 'a writer', scope: 'write', monitorIds: [a] });
      const patched = await api.request(`/monitors/${a}`, {
        method: 'PATCH',
        headers: bearer(write),
        body: { name: 'A' },
      });
      t.equal(patched.status, 200);
      const other = await api.request(`/monitors/${b}`, {
        method: 'PATCH',
        headers: bearer(write),
        body: { name: 'B' },
      });
      t.equal(other.status, 404);
      const create = await api.request('/monitors', { headers: bearer(write), body: { name: 'new' } });
      t.equal(create.body.code, 'key_monitors');

      const ping = await addKey(api, owner, { name: 'a pinger', monitorIds: ['job-a'] });
      t.equal((await api.ping({ apiKey: ping }, 'job-a', 'success')).status, 200);
      t.equal((await api.ping({ apiKey: ping }, b, 'success')).status, 404);
      const provision = await api.ping({ apiKey: ping }, 'job-new', 'start', {
        monitor: { name: 'new job', schedule: { every: 3600 } },
      });
      t.equal(provision.status, 404, 'nor makes other monitors through ping settings');
      t.equal((await api.request('/monitors/job-new', { token: owner.token })).status, 404);

      const unknown = await api.request('/api-keys', { token: owner.token, body: { monitorIds: ['no-such-job'] } });
      t.equal(unknown.status, 400);
      t.equal(unknown.body.code, 'unknown_monitor');
    });

    t.test(
      'a ping key made with provision false pings but never makes monitors; provision is for ping keys',
      async (t) => {
        const key = await addKey(api, owner, { name: 'ping only', provision: false });
        t.equal((await api.ping({ apiKey: key }, a, 'success')).status, 200);
        const made = await api.ping({ apiKey: key }, 'job-z', 'start', {
          monitor: { name: 'new job', schedule: { every: 3600 } },
        });
        t.equal(made.status, 403);
        t.equal(made.body.code, 'provision_refused');
        const wrong = await api.request('/api-keys', { token: owner.token, body: { scope: 'read', provision: true } });
        t.equal(wrong.status, 400);
        t.match(wrong.body.message, /provision is for ping keys/);
        const scope = await api.request('/api-keys', { token: owner.token, body: { scope: 'admin' } });
        t.equal(scope.status, 400);
        t.match(scope.body.message, /scope must be one of ping, read, write/);
      },
    );

    t.test('keys of one account find nothing of another; revoked keys stop at once', async (t) => {
      const other = await api.account();
      const write = await addKey(api, other, { name: 'theirs', scope: 'write' });
      for (const path of [`/monitors/${a}`, `/monitors/${a}/runs`, `/alerts?monitorId=${a}`]) {
        t.equal((await api.request(path, { headers: bearer(write) })).status, 404, path);
      }
      const del = await api.request(`/monitors/${a}`, { method: 'DELETE', headers: bearer(write) });
      t.equal(del.status, 404);
      t.equal((await api.request('/monitors', { headers: bearer(write) })).body.monitors.length, 0);
      const keys = (await api.request('/api-keys', { token: other.token })).body.apiKeys;
      const keyId = keys.find((k: { name: string }) => k.name === 'theirs').keyId;
      await api.request(`/api-keys/${keyId}`, { method: 'DELETE', token: other.token });
      const revoked = await api.request('/monitors', { headers: bearer(write) });
      t.equal(revoked.status, 401);
      t.equal(revoked.body.code, 'invalid_api_key');
    });
  });
}
