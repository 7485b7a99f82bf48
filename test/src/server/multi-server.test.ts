import t from 'tap';
import { createServer, loadConfig } from '@pingmon/server';
import type { Server } from '@hapi/hapi';
import { DATABASE_KINDS, createTestDatabase } from '../helpers/databases.js';
import type { TestDatabase } from '../helpers/databases.js';
import { TestServer } from '../helpers/server.js';
import { request } from '../helpers/http.js';

/** Several servers on one database, each with its own connections, started at the same moment. */
async function startServers(
  t: { teardown(fn: () => unknown): void },
  db: TestDatabase,
  count: number,
): Promise<string[]> {
  const config = (monitorCacheSize?: number) =>
    loadConfig(
      {},
      {
        host: '127.0.0.1',
        port: 0,
        dataDir: db.dataDir,
        databaseUrl: db.databaseUrl,
        databaseSchema: db.databaseSchema,
        logLevel: 'silent',
        monitorCacheSize,
      },
    );
  // The last one remembers no monitor (PINGMON_MONITOR_CACHE=0): each of its pings reads its monitor.
  const servers: Server[] = await Promise.all(
    Array.from({ length: count }, (_, i) => createServer(config(i === count - 1 ? 0 : undefined))),
  );
  await Promise.all(servers.map((s) => s.start()));
  t.teardown(() => Promise.all(servers.map((s) => s.stop())));
  return servers.map((s) => `${s.info.uri}/api/v1`);
}

for (const kind of DATABASE_KINDS) {
  t.test(`several servers on one ${kind} database`, async (t) => {
    // The first server creates the account; four more start together on the same database.
    const first = await TestServer.start(t, kind);
    const db = first.database;
    const urls = await startServers(t, await reuse(db), 4);
    t.equal(urls.length, 4, 'four servers migrated and started at once');

    t.test('20 concurrent starts spread over the servers: exactly one 200', async (t) => {
      const account = await first.account('free');
      const monitorId = await first.monitor(account);
      const replies = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          request(`${urls[i % urls.length]}/ping/${monitorId}/start`, { method: 'POST', apiKey: account.apiKey }),
        ),
      );
      t.same(replies.map((r) => r.status).sort(), [200, ...Array(19).fill(429)]);
    });

    t.test('a start and its result sent at once to two servers: both accepted, the run finished', async (t) => {
      const account = await first.account('free');
      for (let i = 0; i < 8; i++) {
        const monitorId = await first.monitor(account, `race ${i}`);
        const [start, success] = await Promise.all([
          request(`${urls[0]}/ping/${monitorId}/start`, { method: 'POST', apiKey: account.apiKey }),
          request(`${urls[1]}/ping/${monitorId}/success`, { method: 'POST', apiKey: account.apiKey }),
        ]);
        t.equal(success.status, 200, `round ${i}: the result is accepted: ${start.text} ${success.text}`);
        const runs = await first.query((knex) => knex('runs').where({ monitor_id: monitorId }));
        const statuses = runs.map((r: { status: string }) => r.status);
        // The result finished the start's run, or reached the server first (and the start, a second opening, was
        // limited).
        t.notOk(statuses.includes('running'), `round ${i}: no run left open: ${statuses}`);
      }
    });

    t.test('a monitor one server remembers, changed through another: its next ping follows the change', async (t) => {
      const account = await first.account('unlimited');
      const monitorId = await first.monitor(account);
      const ping = (url: string, kind: string) =>
        request(`${url}/ping/${monitorId}/${kind}`, { method: 'POST', apiKey: account.apiKey });
      t.equal((await ping(urls[0]!, 'success')).status, 200, 'server 0 remembers the monitor up');
      t.equal((await ping(urls[1]!, 'fail')).status, 200, 'server 1 opens an incident');
      const down = await first.request(`/monitors/${monitorId}`, { token: account.token });
      t.not(down.body.incident, null);
      t.equal((await ping(urls[0]!, 'success')).status, 200);
      const up = await first.request(`/monitors/${monitorId}`, { token: account.token });
      t.equal(up.body.incident, null, 'the success on server 0 closed the incident it did not know of');
      const alerts = await first.query((knex) => knex('alerts').where({ monitor_id: monitorId }).pluck('event'));
      t.same(alerts.sort(), ['fail', 'recovered']);
    });

    t.test('pings racing the deletion of their monitor get 200 or 404, never an error', async (t) => {
      const account = await first.account('unlimited');
      const monitorId = await first.monitor(account);
      const pings = Array.from({ length: 40 }, (_, i) =>
        request(`${urls[i % urls.length]}/ping/${monitorId}/${i % 2 ? 'success' : 'start'}`, {
          method: 'POST',
          apiKey: account.apiKey,
        }),
      );
      const deletion = request(`${urls[0]}/monitors/${monitorId}`, { method: 'DELETE', token: account.token });
      const replies = await Promise.all(pings);
      t.equal((await deletion).status, 204);
      t.ok(
        replies.every((r) => r.status === 200 || r.status === 404),
        replies.map((r) => r.status).join(' '),
      );
      const left = await first.query((knex) => knex('runs').where({ monitor_id: monitorId }).count({ n: '*' }).first());
      t.equal(Number(left!.n), 0, 'no run outlived its monitor');
    });
  });
}

/** The same database again, without dropping it twice. */
async function reuse(db: TestDatabase): Promise<TestDatabase> {
  return { ...db, drop: async () => undefined };
}

t.test('servers starting together on a fresh database all migrate it', async (t) => {
  for (const kind of DATABASE_KINDS) {
    const db = await createTestDatabase(kind);
    t.teardown(() => db.drop());
    const urls = await startServers(t, db, 4);
    const health = await Promise.all(urls.map((u) => request(`${u}/health`)));
    t.same(
      health.map((h) => h.status),
      [200, 200, 200, 200],
      kind,
    );
  }
});
