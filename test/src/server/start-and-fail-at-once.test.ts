import t from 'tap';
import { TestClock } from '../helpers/clock.js';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { TestServer } from '../helpers/server.js';
import type { TestAccount } from '../helpers/server.js';
import { TEST_TIME } from '../helpers/test-time.js';

// A scheduled monitor's on-time start writes its run, then the monitor's next expected opening; a fail of the same
// runId at that moment (the SDK sends a result without waiting for a slow start) locks the monitor's row, then writes
// the run. Taking the two in opposite orders, they deadlocked on PostgreSQL: a 500 after a 1 s stall, for about
// every second pair. Each pair goes to a monitor of its own, a slot after its creation: its start is the slot's first.

const PAIRS = 64;
const AT_ONCE = 8;
const SLOT_MS = 60_000;

async function scheduledMonitors(api: TestServer, account: TestAccount): Promise<string[]> {
  const body = { name: 'every minute', schedule: { every: SLOT_MS / 1000 } };
  const ids: string[] = [];
  while (ids.length < PAIRS) {
    const wave = Array.from({ length: AT_ONCE }, () => api.request('/monitors', { token: account.token, body }));
    for (const reply of await Promise.all(wave)) {
      if (reply.status !== 201) throw new Error(`creating a monitor failed: ${reply.text}`);
      ids.push(reply.body.monitorId);
    }
  }
  return ids.slice(0, PAIRS);
}

/** A start and a fail of one runId sent together; what was not answered 200. */
async function pair(api: TestServer, account: TestAccount, monitorId: string, runId: string): Promise<string[]> {
  const replies = await Promise.all([
    api.ping(account, monitorId, 'start', { runId }),
    api.ping(account, monitorId, 'fail', { runId, errorMessage: `${runId} failed` }),
  ]);
  const kinds = ['start', 'fail'];
  return replies.flatMap((reply, i) => (reply.status === 200 ? [] : [`${kinds[i]} ${runId}: ${reply.status}`]));
}

for (const kind of DATABASE_KINDS) {
  t.test(`a start and a fail of one runId at the same moment, on ${kind}: both answered, the run failed`, async (t) => {
    const clock = new TestClock();
    const api = await TestServer.start(t, kind, { ...TEST_TIME, clock: clock.read });
    const account = await api.account('unlimited');
    const ids = await scheduledMonitors(api, account);
    clock.advance(SLOT_MS);
    const refused: string[] = [];
    let sent = 0;
    // In waves, stopped at the first refusal: each deadlock cost a second (PostgreSQL's deadlock_timeout).
    while (sent < PAIRS && refused.length === 0) {
      const wave = ids.slice(sent, sent + AT_ONCE);
      const runIds = wave.map((_, i) => `pair-${String(sent + i).padStart(3, '0')}`);
      const answers = await Promise.all(wave.map((id, i) => pair(api, account, id, runIds[i]!)));
      refused.push(...answers.flat());
      sent += wave.length;
    }
    t.same(refused, [], 'every ping answered 200');
    const runs = await api.query((knex) => knex('runs').select('id', 'status').where('id', 'like', 'pair-%'));
    t.equal(runs.length, sent, 'one run per pair');
    const notFailed = runs.filter((r) => r.status !== 'failed').map((r) => `${r.id}: ${r.status}`);
    t.same(notFailed, [], 'every run failed');
  });
}
