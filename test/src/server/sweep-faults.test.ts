import t from 'tap';
import type { Alert, Monitor } from '@pingmon/sdk';
import type { Knex } from 'knex';
import { TestClock } from '../helpers/clock.js';
import { DATABASE_KINDS } from '../helpers/databases.js';
import type { DatabaseKind } from '../helpers/databases.js';
import { TestServer } from '../helpers/server.js';

// A sweep that fails after its beat was stored (here: the batch that times runs out) leaves a process that was
// sweeping all along. Its next sweep is no restart: no gap is declared and no missed deadline is moved, so a job
// that does not start is still missed at its own deadline while the fault lasts.

const TEST_TIME = { sweepIntervalMs: 3_600_000, alertPollMs: 50, alertRetryBaseMs: 20, alertTimeoutMs: 30_000 };

/**
 * A real fault in the database, not in our code: updating the runs of `monitorId` raises, so the sweep's
 * timed-out batch (a transaction after the beat's) fails every time while the trigger stands.
 */
async function breakRunsOf(knex: Knex, kind: DatabaseKind, monitorId: string): Promise<void> {
  if (kind === 'sqlite') {
    await knex.raw(
      `create trigger test_fault before update on runs when old.monitor_id = '${monitorId}' ` +
        "begin select raise(abort, 'test fault: runs of this monitor cannot be updated'); end",
    );
    return;
  }
  await knex.raw(
    'create function test_fault() returns trigger language plpgsql as ' +
      "$$ begin raise exception 'test fault: runs of this monitor cannot be updated'; end $$",
  );
  await knex.raw(
    `create trigger test_fault before update on runs for each row when (old.monitor_id = '${monitorId}') ` +
      'execute function test_fault()',
  );
}

async function repairRuns(knex: Knex, kind: DatabaseKind): Promise<void> {
  await knex.raw(kind === 'sqlite' ? 'drop trigger test_fault' : 'drop trigger test_fault on runs');
}

for (const kind of DATABASE_KINDS) {
  t.test(`on ${kind}, a sweep that fails after its beat is no restart: missed still fires on time`, async (t) => {
    const clock = new TestClock(Date.parse('2027-03-27T12:00:00.000Z'));
    const server = await TestServer.start(t, kind, { ...TEST_TIME, clock: clock.read });
    const account = await server.account();
    const create = (body: object) => server.request<Monitor>('/monitors', { token: account.token, body });
    const job = (await create({ name: 'every minute', schedule: { cron: '* * * * *' }, startGrace: 5 })).body;
    const stuck = (await create({ name: 'stuck', maxRuntime: 30 })).body;
    t.equal((await server.ping(account, stuck.monitorId, 'start', { runId: 'stuck-run' })).status, 200);
    const sweeper = server.server.app.sweeper;
    clock.set('2027-03-27T12:00:10.000Z');
    t.match(await sweeper.sweepNow(), { missed: 0, timedOut: 0, outage: null }, 'a first sweep that succeeds');

    await server.query((knex) => breakRunsOf(knex, kind, stuck.monitorId));
    clock.set('2027-03-27T12:00:40.000Z');
    await t.rejects(sweeper.sweepNow(), /test fault/, 'the stuck run cannot be timed out: the sweep fails');
    // The every-minute job's 12:01:05 deadline passes while every sweep fails after its beat.
    for (const at of ['12:01:10', '12:02:10', '12:03:10']) {
      clock.set(`2027-03-27T${at}.000Z`);
      await t.rejects(sweeper.sweepNow(), /test fault/, `the sweep at ${at} fails after its beat`);
    }
    const outage = await server.query((knex) => knex('settings').where('key', 'last_outage').first());
    t.equal(outage, undefined, 'no gap was declared: this server swept all along');
    const alerts = (
      await server.request<{ alerts: Alert[] }>(`/alerts?monitorId=${job.monitorId}`, { token: account.token })
    ).body.alerts;
    t.match(
      alerts.map((a) => [a.event, a.expectedAt]),
      [['missed', '2027-03-27T12:01:00.000Z']],
      'the job that did not start was missed at its own deadline, not postponed',
    );
    t.notMatch(alerts[0]?.errorMessage, /not running/, 'and its alert names no gap');

    await server.query((knex) => repairRuns(knex, kind));
    clock.set('2027-03-27T12:03:20.000Z');
    t.match(await sweeper.sweepNow(), { timedOut: 1, outage: null }, 'repaired, the stuck run times out');
  });
}
