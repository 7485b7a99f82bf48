import t from 'tap';
import { closeDatabase, openDatabase } from '@pingmon/server';
import { findPingMonitor, finishRun, insertRunIf, unchangedMonitor } from '@pingmon/server/internal';
import type { RunRecord } from '@pingmon/server/internal';
import { DATABASE_KINDS } from '../../helpers/databases.js';
import { TestServer } from '../../helpers/server.js';

// Run writes of pings batched together (on PostgreSQL one statement over arrays per kind): each learns its own
// outcome, as if written one by one in the order sent.
for (const kind of DATABASE_KINDS) {
  t.test(`batched run writes on ${kind}`, async (t) => {
    const api = await TestServer.start(t, kind);
    const account = await api.account('unlimited');
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((name) => api.monitor(account, name)));
    const db = await openDatabase(api.config);
    t.teardown(() => closeDatabase(db));
    const { accountId } = account;
    const guardOf = async (monitorId: string) =>
      unchangedMonitor(db.sql, { accountId, monitorId }, (await findPingMonitor(db.sql, accountId, monitorId))!);
    const [guardA, guardB, guardC] = await Promise.all([guardOf(a!), guardOf(b!), guardOf(c!)]);
    // B changes after its guard was read: its writes are refused.
    await api.query((knex) => knex('monitors').where('id', b!).update({ max_runtime: 60 }));
    const now = Date.now();
    const run = (monitorId: string, runId: string, status: RunRecord['status'], meta = {}): RunRecord => ({
      runId,
      monitorId,
      accountId,
      status,
      startedAt: now,
      finishedAt: status === 'running' ? null : now,
      durationMs: status === 'running' ? null : 0,
      meta,
      errorMessage: null,
      hasLog: false,
      matchedRules: null,
      host: null,
      fingerprint: null,
      redactions: 0,
    });

    t.test('openings: written, refused by their guard, or in conflict on their run id', async (t) => {
      const outcomes = await Promise.all([
        insertRunIf(db.batched, run(a!, 'a1', 'success'), null, guardA, false),
        insertRunIf(db.batched, run(a!, 'a1', 'success'), null, guardA, false),
        insertRunIf(db.batched, run(a!, 'a2', 'success'), null, guardA, true),
        insertRunIf(db.batched, run(b!, 'b1', 'success'), null, guardB, false),
        insertRunIf(db.batched, run(c!, 'c1', 'running'), now + 60_000, guardC, false),
        // Sent after c1 opened: a result without runId finds a run open, as it would one by one.
        insertRunIf(db.batched, run(c!, 'c2', 'success'), null, guardC, true),
        insertRunIf(db.batched, run(a!, 'a3', 'running'), null, guardA, false),
      ]);
      t.same(outcomes, [true, false, true, false, true, false, true]);
      const stored = await api.query((knex) => knex('runs').select('id', 'status').orderBy('id'));
      t.same(
        stored.map((r) => `${r.id} ${r.status}`),
        ['a1 success', 'a2 success', 'a3 running', 'c1 running'],
      );
    });

    t.test('finishes: written, refused by their guard, or already finished', async (t) => {
      const outcomes = await Promise.all([
        finishRun(db.batched, run(c!, 'c1', 'success', { rows: 1 }), guardC),
        finishRun(db.batched, run(c!, 'c1', 'failed'), guardC),
        finishRun(db.batched, run(a!, 'a3', 'success'), guardB),
        finishRun(db.batched, run(a!, 'a3', 'failed'), guardA),
        finishRun(db.batched, run(a!, 'a1', 'failed'), guardA),
      ]);
      t.same(outcomes, [true, false, false, true, false]);
      const stored = await api.query((knex) => knex('runs').select('id', 'status', 'meta').orderBy('id'));
      t.same(
        stored.map((r) => `${r.id} ${r.status} ${r.meta}`),
        ['a1 success {}', 'a2 success {}', 'a3 failed {}', 'c1 success {"rows":1}'],
      );
    });

    t.test('a value the database refuses fails only its own write', async (t) => {
      const results = await Promise.allSettled([
        insertRunIf(db.batched, run(a!, 'a4', 'success'), null, guardA, false),
        insertRunIf(db.batched, { ...run(a!, 'a5', 'success'), errorMessage: 'nul \u0000 byte' }, null, guardA, false),
        insertRunIf(db.batched, run(a!, 'a6', 'success'), null, guardA, false),
      ]);
      const settled = results.map((r) => (r.status === 'fulfilled' ? r.value : 'rejected'));
      // SQLite stores a NUL as any other character.
      t.same(settled, [true, kind === 'postgres' ? 'rejected' : true, true]);
    });

    t.test('outside a batch, the same answers one at a time', async (t) => {
      t.equal(await insertRunIf(db.sql, run(a!, 'a7', 'success'), null, guardA, true), true, 'written');
      t.equal(await insertRunIf(db.sql, run(b!, 'b2', 'success'), null, guardB, false), false, 'refused by its guard');
      t.equal(await insertRunIf(db.sql, run(c!, 'c3', 'running'), null, guardC, false), true, 'a run opened');
      t.equal(await insertRunIf(db.sql, run(c!, 'c4', 'success'), null, guardC, true), false, 'refused: c3 is open');
      t.equal(await insertRunIf(db.sql, run(a!, 'a7', 'success'), null, guardA, false), false, 'its run id is taken');
      const stored = await api.query((knex) => knex('runs').whereIn('id', ['a7', 'b2', 'c3', 'c4']).pluck('id'));
      t.same([...stored].sort(), ['a7', 'c3']);
    });
  });
}
