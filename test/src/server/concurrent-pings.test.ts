import t from 'tap';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { KeepAliveClient } from '../helpers/http.js';
import { TestServer } from '../helpers/server.js';

// 20 concurrent clients × 500 pings with client runIds, to one monitor and spread over 50: exactly the runs and
// the alerts expected, none twice, none lost (every run's start and result are its client's, in order; every
// tenth run fails, and each failure raises one fail alert).

const CLIENTS = 20;
const PINGS = 500;

for (const kind of DATABASE_KINDS) {
  for (const monitors of [1, 50]) {
    t.test(`${CLIENTS} clients × ${PINGS} pings on ${kind}, ${monitors} monitor(s)`, async (t) => {
      const api = await TestServer.start(t, kind);
      const account = await api.account('unlimited');
      const ids = await Promise.all(Array.from({ length: monitors }, (_, i) => api.monitor(account, `busy ${i}`)));
      const refused: string[] = [];
      // The clients' sockets are kept for the whole load: a server closing one as idle while a starved test
      // process reuses it would be a reset of the test's making.
      api.server.listener.keepAliveTimeout = 600_000;
      const http = new KeepAliveClient(CLIENTS);
      t.teardown(() => http.close());
      const ping = (monitorId: string, kind: string, body: unknown) =>
        http.send(`${api.url}/ping/${monitorId}/${kind}`, { apiKey: account.apiKey, body });
      const client = async (c: number) => {
        for (let p = 0; p < PINGS / 2; p++) {
          const n = c * (PINGS / 2) + p;
          const monitorId = ids[n % ids.length]!;
          const runId = `conc-${String(n).padStart(6, '0')}`;
          const start = await ping(monitorId, 'start', { runId });
          const fails = n % 10 === 0;
          const body = fails ? { runId, errorMessage: `run ${n} failed` } : { runId, meta: { rows: n } };
          const result = await ping(monitorId, fails ? 'fail' : 'success', body);
          for (const reply of [start, result]) if (reply.status !== 200) refused.push(`${runId}: ${reply.text}`);
        }
      };
      await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
      t.same(refused, [], 'every ping acknowledged');
      const runs = CLIENTS * (PINGS / 2);
      const stored = await api.query((knex) =>
        knex('runs').select('id', 'status', 'duration_ms').where('id', 'like', 'conc-%'),
      );
      t.equal(stored.length, runs, 'one run per runId');
      t.equal(new Set(stored.map((r) => r.id)).size, runs, 'none twice');
      const failed = stored.filter((r) => r.status === 'failed').length;
      t.equal(failed, runs / 10);
      t.equal(stored.filter((r) => r.status === 'success').length, runs - runs / 10);
      t.ok(
        stored.every((r) => r.duration_ms !== null),
        'every run finished from its own start',
      );
      const alerts = await api.query((knex) => knex('alerts').where({ event: 'fail' }).count({ n: '*' }));
      t.equal(Number(alerts[0]!.n), failed, 'one fail alert per failed run');
    });
  }
}
