import t from 'tap';
import { closeDatabase, openDatabase } from '@pingmon/server';
import { DeliveryWorker } from '@pingmon/server/internal';
import { DATABASE_KINDS } from '../../helpers/databases.js';
import { json, startReceiver } from '../../helpers/receiver.js';
import { TestServer } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait.js';

const ATTEMPT_TIMEOUT_MS = 2_000;

for (const kind of DATABASE_KINDS) {
  t.test(`on ${kind}, a claim with less than one attempt timeout of its lease left is given back unsent`, async (t) => {
    const api = await TestServer.start(t, kind, { alertTimeoutMs: ATTEMPT_TIMEOUT_MS });
    // The server's own sender stops at once: only the workers of this test claim from its outbox.
    api.server.app.deliveries.abandon();
    const alice = await api.account();
    const receiver = await startReceiver(t, (_req, _n, res) => json(res, 200, {}));
    const monitorId = await api.monitor(alice);
    await api.request('/channels', { token: alice.token, body: { type: 'webhook', url: receiver.url } });
    await api.ping(alice, monitorId, 'fail', { errorMessage: 'x' });
    const db = await openDatabase(api.config);
    t.teardown(() => closeDatabase(db));
    const logged: string[] = [];
    const worker = (leaseMs: number) => {
      const created = new DeliveryWorker(db, {
        clock: Date.now,
        pollMs: 20,
        attemptTimeoutMs: ATTEMPT_TIMEOUT_MS,
        leaseMs,
        publicOnly: false,
        policy: { maxAttempts: 3, baseDelayMs: 20, maxDelayMs: 1_000 },
        concurrency: 1,
        log: (_tags, message) => logged.push(message),
      });
      t.teardown(() => created.stop());
      created.start();
      return created;
    };

    // Every claim this worker makes has less than an attempt timeout to run: as if the outbox had been slow to read.
    const short = worker(ATTEMPT_TIMEOUT_MS - 500);
    await waitFor(() => logged.some((line) => line.startsWith('gave back')), { what: 'a claim given back' });
    await short.stop();
    await short.drained();
    t.equal(receiver.received.length, 0, 'nothing was sent');
    t.match(logged[0], /^gave back the delivery of alert alert_\w+ to channel ch_\w+ unsent: \d+ ms of its claim/);
    const row = await api.query((knex) => knex('alert_deliveries').first());
    t.match(row, { state: 'pending', claimed_until: null, claim_token: null });
    t.equal(Number(row.attempts), 0, 'an attempt given back is not counted');

    // With the lease the server gives (the attempt and its recording fit in it), the same delivery goes out once.
    const full = worker(2 * ATTEMPT_TIMEOUT_MS + 2_000);
    const delivered = await waitFor(
      async () => {
        const r = await api.query((knex) => knex('alert_deliveries').first());
        return r.state === 'delivered' && r;
      },
      { what: 'the delivery made by a worker with a full lease' },
    );
    t.equal(Number(delivered.attempts), 1);
    t.equal(receiver.received.length, 1);
    await full.stop();
  });
}
