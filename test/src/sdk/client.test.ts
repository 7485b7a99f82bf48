import t from 'tap';
import type { PingmonError } from '@pingmon/sdk';
import { createClient, createPinger } from '@pingmon/sdk';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { TestServer } from '../helpers/server.js';

for (const kind of DATABASE_KINDS) {
  t.test(`the management client on ${kind}`, async (t) => {
    const api = await TestServer.start(t, kind, { apiKeyCacheMs: 0 });
    const alice = await api.account();
    const bob = await api.account();
    const client = createClient({ baseUrl: api.url });
    const login = await client.login(alice.email, alice.password);
    t.equal(client.token, login.token);
    const bobClient = createClient({ baseUrl: api.url, token: bob.token });

    t.test('login and me', async (t) => {
      t.same((await client.me()).user.userId, alice.userId);
      const wrong = (await createClient({ baseUrl: api.url })
        .login(alice.email, 'not the password')
        .catch((e: unknown) => e)) as PingmonError;
      t.match(wrong, { status: 401, code: 'invalid_credentials' });
    });

    t.test('monitors: create, get, rename, list with their last run, delete', async (t) => {
      const created = await client.createMonitor({ name: 'etl' });
      t.match(created, { monitorId: /^mon_/, name: 'etl', lastRun: null });
      t.same(await client.getMonitor(created.monitorId), created);
      const renamed = await client.updateMonitor(created.monitorId, { name: 'nightly etl' });
      t.equal(renamed.name, 'nightly etl');
      const pinger = createPinger({ monitorId: created.monitorId, apiKey: alice.apiKey, baseUrl: api.url });
      await pinger.start();
      const failed = await pinger.fail({ message: 'exit 1', log: 'boom' });
      const listed = (await client.listMonitors()).monitors.find((m) => m.monitorId === created.monitorId)!;
      t.match(listed.lastRun, { runId: failed.runId, status: 'failed', finishedAt: failed.timestamp });
      t.ok(listed.lastRun!.durationMs! >= 0);
      t.same((await client.getMonitor(created.monitorId)).lastRun, listed.lastRun);

      await client.deleteMonitor(created.monitorId);
      const gone = (await client.getMonitor(created.monitorId).catch((e: unknown) => e)) as PingmonError;
      t.match(gone, { status: 404, code: 'monitor_not_found' });
      const left = await api.query(async (knex) => ({
        runs: Number((await knex('runs').where({ monitor_id: created.monitorId }).count({ n: '*' }).first())!.n),
        logs: Number((await knex('run_logs').where({ monitor_id: created.monitorId }).count({ n: '*' }).first())!.n),
      }));
      t.same(left, { runs: 0, logs: 0 }, 'its runs and logs went with it');
      const again = (await client.deleteMonitor(created.monitorId).catch((e: unknown) => e)) as PingmonError;
      t.equal(again.status, 404);
    });

    t.test('runs: newest first, filtered by status, page by page, never with their log', async (t) => {
      const { monitorId } = await client.createMonitor({ name: 'runs' });
      const pinger = createPinger({ monitorId, apiKey: alice.apiKey, baseUrl: api.url });
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) {
        const ack =
          i % 3 === 0
            ? await pinger.fail({ message: `failure ${i}`, log: `log ${i}` })
            : await pinger.success({ meta: { i } });
        ids.push(ack.runId);
      }
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listRuns(monitorId, { limit: 3, cursor });
        t.ok(page.runs.length <= 3);
        for (const run of page.runs) {
          t.notOk('log' in run || 'content' in run, 'no log in lists');
          seen.push(run.runId);
        }
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      t.same(seen, [...ids].reverse());
      const failed = await client.listRuns(monitorId, { status: 'failed' });
      t.same(
        failed.runs.map((r) => r.runId),
        [ids[6], ids[3], ids[0]],
      );
      t.ok(failed.runs.every((r) => r.hasLog && r.status === 'failed'));
      const run = await client.getRun(monitorId, ids[3]!);
      t.match(run, { runId: ids[3], monitorId, status: 'failed', errorMessage: 'failure 3', hasLog: true, meta: {} });
      t.same(await client.getLog(monitorId, ids[3]!), { hasLog: true, content: 'log 3' });
      t.same(await client.getLog(monitorId, ids[1]!), { hasLog: false, content: null });
      const bad = (await client
        .listRuns(monitorId, { status: 'weird' as never })
        .catch((e: unknown) => e)) as PingmonError;
      t.match(bad, { status: 400, code: 'invalid_request' });
    });

    t.test('API keys: create (shown once), list, use, revoke', async (t) => {
      const created = await client.createApiKey({ name: 'ci runner' });
      t.match(created, { keyId: /^key_/, name: 'ci runner', key: /^pm_/, revokedAt: null });
      t.equal(created.key.slice(0, created.prefix.length), created.prefix);
      const listed = (await client.listApiKeys()).apiKeys;
      t.ok(listed.some((k) => k.keyId === created.keyId));
      t.notOk(JSON.stringify(listed).includes(created.key), 'the key is never listed');
      const { monitorId } = await client.createMonitor({ name: 'keyed' });
      const pinger = createPinger({ monitorId, apiKey: created.key, baseUrl: api.url });
      t.equal((await pinger.success()).status, 'success');
      await client.revokeApiKey(created.keyId);
      t.ok((await client.listApiKeys()).apiKeys.find((k) => k.keyId === created.keyId)!.revokedAt);
      const refused = (await pinger.success().catch((e: unknown) => e)) as PingmonError;
      t.match(refused, { status: 401, code: 'invalid_api_key' });
      await client.revokeApiKey(created.keyId);
      t.pass('revoking twice is fine');
      const first = await client.listApiKeys({ limit: 1 });
      t.equal(first.apiKeys.length, 1, 'keys page like every list');
      t.ok(first.nextCursor);
      const second = await client.listApiKeys({ limit: 200, cursor: first.nextCursor! });
      t.notOk(
        second.apiKeys.some((k) => k.keyId === first.apiKeys[0]!.keyId),
        'the next page goes on after it',
      );
      t.equal(first.apiKeys.length + second.apiKeys.length, listed.length, 'and together they are every key');
    });

    t.test('another account sees none of it', async (t) => {
      const { monitorId } = await client.createMonitor({ name: 'private' });
      const ack = await createPinger({ monitorId, apiKey: alice.apiKey, baseUrl: api.url }).fail({ log: 'secret log' });
      const key = await client.createApiKey({ name: 'mine' });
      const attempts: Array<[string, () => Promise<unknown>]> = [
        ['getMonitor', () => bobClient.getMonitor(monitorId)],
        ['updateMonitor', () => bobClient.updateMonitor(monitorId, { name: 'hijacked' })],
        ['deleteMonitor', () => bobClient.deleteMonitor(monitorId)],
        ['listRuns', () => bobClient.listRuns(monitorId)],
        ['getRun', () => bobClient.getRun(monitorId, ack.runId)],
        ['getLog', () => bobClient.getLog(monitorId, ack.runId)],
        ['revokeApiKey', () => bobClient.revokeApiKey(key.keyId)],
      ];
      for (const [name, attempt] of attempts) {
        const err = (await attempt().catch((e: unknown) => e)) as PingmonError;
        t.equal(err.status, 404, name);
      }
      t.notOk((await bobClient.listMonitors()).monitors.some((m) => m.monitorId === monitorId));
      t.notOk((await bobClient.listApiKeys()).apiKeys.some((k) => k.keyId === key.keyId));
      t.equal((await client.getMonitor(monitorId)).name, 'private', 'nothing changed');
      t.equal((await client.listApiKeys()).apiKeys.find((k) => k.keyId === key.keyId)!.revokedAt, null);
    });

    t.test('validation answers 400 with the field named', async (t) => {
      const { monitorId } = await client.createMonitor({ name: 'x' });
      const err = (await client.updateMonitor(monitorId, { name: '' }).catch((e: unknown) => e)) as PingmonError;
      t.match(err, { status: 400, code: 'invalid_request' });
      t.match(err.message, /name/);
    });
  });
}
