import t from 'tap';
import { POSTGRES_URL } from '../../helpers/databases.js';
import { TestServer } from '../../helpers/server.js';

// PINGMON_DATABASE_POOL_SIZE at its least, 2: the server starts (migrations hold two connections), and every kind
// of ping taken at once — group-committed statements, transactions, failures raising alerts — still gets its
// answer: nothing waits for a connection that a waiting request holds.

const skip = POSTGRES_URL ? false : 'no test PostgreSQL';

t.test('a PostgreSQL pool of 2 connections takes 60 concurrent pings of every kind', { skip }, async (t) => {
  const api = await TestServer.start(t, 'postgres', { databasePoolSize: 2 });
  const account = await api.account('unlimited');
  const plain = await api.monitor(account, 'plain');
  const ruled = await api.monitor(account, 'with a rule');
  const rule = await api.request(`/monitors/${ruled}/rules`, {
    token: account.token,
    body: { metric: 'rows', op: 'lt', value: 1 },
  });
  t.equal(rule.status, 201, rule.text);

  const pings = Array.from({ length: 20 }, (_, i) => {
    const runId = `pool-${String(i).padStart(6, '0')}`;
    const monitorId = i % 2 === 0 ? plain : ruled;
    return [
      api.ping(account, monitorId, 'start', { runId: `${runId}-s` }),
      api.ping(account, monitorId, 'success', { runId, meta: { rows: i % 4 } }),
      api.ping(account, monitorId, 'fail', { runId: `${runId}-f`, errorMessage: 'exit code 1' }),
    ];
  }).flat();
  const replies = await Promise.all(pings);
  t.same(
    replies.filter((r) => r.status !== 200).map((r) => r.text),
    [],
    'every ping answered 200',
  );
  const stored = await api.query((knex) => knex('runs').count({ n: '*' }).where('id', 'like', 'pool-%'));
  t.equal(Number(stored[0]!.n), 60, 'every run stored');
});
