import t from 'tap';
import type { Knex } from 'knex';
import { DATABASE_KINDS } from '../helpers/databases.js';
import type { DatabaseKind } from '../helpers/databases.js';
import { TestServer } from '../helpers/server.js';
import type { TestAccount } from '../helpers/server.js';

const SETTINGS = {
  name: 'Nightly backup',
  schedule: { cron: '0 3 * * *', timezone: 'Europe/Berlin' },
  startGrace: 600,
  maxRuntime: 7200,
  failureThreshold: 2,
};

/** Counts the writes of a monitor's settings (never made by a ping without settings), in a table of the test's. */
async function countSettingsWrites(kind: DatabaseKind, knex: Knex): Promise<void> {
  await knex.raw('create table settings_writes (n integer not null)');
  await knex.raw('insert into settings_writes values (0)');
  const columns = 'name, schedule, start_grace, max_runtime, failure_threshold, recovery_threshold, paused';
  if (kind === 'sqlite') {
    await knex.raw(
      `create trigger settings_written after update of ${columns} on monitors ` +
        'begin update settings_writes set n = n + 1; end',
    );
    return;
  }
  await knex.raw(
    'create function settings_written() returns trigger language plpgsql as ' +
      '$$ begin update settings_writes set n = n + 1; return null; end $$',
  );
  await knex.raw(
    `create trigger settings_written after update of ${columns} on monitors ` +
      'for each row execute function settings_written()',
  );
}

for (const kind of DATABASE_KINDS) {
  t.test(`monitors made or updated by their pings on ${kind}`, async (t) => {
    const api = await TestServer.start(t, kind, {
      planMonitors: { free: 100, pro: 1_000, business: 10_000, unlimited: 0 },
    });
    const alice = await api.account();
    const show = (ref: string, account: TestAccount = alice) =>
      api.request(`/monitors/${ref}`, { token: account.token });
    const runsOf = async (ref: string) =>
      (await api.request(`/monitors/${ref}/runs`, { token: alice.token })).body.runs;
    await api.query((knex) => countSettingsWrites(kind, knex));
    const settingsWrites = () => api.query(async (knex) => Number((await knex('settings_writes').first()).n));

    t.test('an unknown slug with settings is created with them, and the ping recorded', async (t) => {
      const reply = await api.ping(alice, 'nightly-backup', 'start', { runId: 'run-00000001', monitor: SETTINGS });
      t.equal(reply.status, 200, reply.text);
      const { body: monitor } = await show('nightly-backup');
      t.match(monitor, { ...SETTINGS, slug: 'nightly-backup', recoveryThreshold: 1, status: 'running' });
      t.equal(reply.body.data.monitorId, monitor.monitorId);
      t.equal((await runsOf('nightly-backup'))[0].runId, 'run-00000001');
      const unnamed = await api.ping(alice, 'queue-drain', 'success', { monitor: { schedule: { every: 900 } } });
      t.equal(unnamed.status, 200);
      t.match((await show('queue-drain')).body, { name: 'queue-drain', schedule: { every: 900 }, startGrace: 300 });
      const empty = await api.ping(alice, 'bare', 'start', { monitor: {} });
      t.equal(empty.status, 200, 'empty settings: created with the defaults');
      t.match((await show('bare')).body, { name: 'bare', schedule: null });
    });

    t.test('a known monitor is updated where the settings differ, and only there', async (t) => {
      const before = await settingsWrites();
      const same = await api.ping(alice, 'nightly-backup', 'start', { monitor: SETTINGS });
      t.equal(same.status, 200);
      t.equal(await settingsWrites(), before, 'nothing written when nothing differs');
      const unchangedCron = { ...SETTINGS, schedule: { cron: ' 0  3 * * * ', timezone: 'Europe/Berlin' } };
      await api.ping(alice, 'nightly-backup', 'start', { monitor: unchangedCron });
      t.equal(await settingsWrites(), before, 'the same schedule written differently is the same');
      const changed = await api.ping(alice, 'nightly-backup', 'start', { monitor: { startGrace: 60, name: 'db' } });
      t.equal(changed.status, 200);
      t.equal(await settingsWrites(), before + 1);
      t.match((await show('nightly-backup')).body, { ...SETTINGS, startGrace: 60, name: 'db' });
      const byId = await api.ping(alice, changed.body.data.monitorId, 'start', { monitor: { schedule: null } });
      t.equal(byId.status, 200, 'by id too');
      t.equal((await show('nightly-backup')).body.schedule, null);
    });

    t.test('without settings an unknown slug is a 404 that says how to create it', async (t) => {
      const reply = await api.ping(alice, 'not-yet', 'start');
      t.equal(reply.status, 404);
      t.match(reply.body.message, /No monitor not-yet .*Send its settings with the ping.*pingmon monitors create/);
      const unknownId = await api.ping(alice, 'mon_0mwre28zi1ycax5mit1', 'start', { monitor: SETTINGS });
      t.equal(unknownId.status, 404, 'an unknown id is never created');
      t.equal((await show('not-yet')).status, 404);
    });

    t.test('invalid settings are a 400 naming the field, and nothing is recorded', async (t) => {
      const cases: Array<[unknown, RegExp]> = [
        [{ startGrace: -1 }, /startGrace must be a whole number of seconds from 1 to 2678400 \(got -1\)/],
        [{ schedule: { cron: '61 * * * *' } }, /schedule\.cron: "61 \* \* \* \*" cannot be read/],
        [{ schedule: { cron: '0 3 * * *', timezone: 'Europe/Berln' } }, /unknown timezone "Europe\/Berln"/],
        [{ schedule: { cron: '0 3 * * *', tz: 'UTC' } }, /"schedule\.tz" is not a schedule field/],
        [{ name: '   ' }, /"name" is not allowed to be empty/],
        [{ failAlerts: 'some' }, /failAlerts must be "every"/],
        ['daily', /The monitor settings are refused: "value" must be of type object/],
      ];
      for (const [monitor, message] of cases) {
        const reply = await api.ping(alice, 'refused-job', 'start', { monitor });
        t.equal(reply.status, 400, JSON.stringify(monitor));
        t.equal(reply.body.code, 'invalid_settings');
        t.match(reply.body.message, message);
        t.match(reply.body.message, /Nothing was recorded\.$/);
      }
      t.equal((await show('refused-job')).status, 404);
      const before = (await runsOf('nightly-backup')).length;
      const known = await api.ping(alice, 'nightly-backup', 'start', { monitor: { maxRuntime: 0 } });
      t.equal(known.body.code, 'invalid_settings');
      t.equal((await runsOf('nightly-backup')).length, before, 'no run recorded');
    });

    t.test('20 pings at once for one new slug make one monitor', async (t) => {
      const replies = await Promise.all(
        Array.from({ length: 20 }, () =>
          api.ping(alice, 'burst', 'start', { monitor: { ...SETTINGS, name: 'burst' } }),
        ),
      );
      t.same(
        replies.map((r) => r.status),
        replies.map(() => 200),
      );
      t.equal(new Set(replies.map((r) => r.body.data.monitorId)).size, 1);
      const rows = await api.query((knex) => knex('monitors').where({ account_id: alice.accountId, slug: 'burst' }));
      t.equal(rows.length, 1);
      t.equal((await runsOf('burst')).length, 20);
    });

    t.test('a key made with provision false pings, and never makes or changes a monitor', async (t) => {
      const made = await api.request('/api-keys', { token: alice.token, body: { name: 'ci', provision: false } });
      t.equal(made.status, 201);
      t.equal(made.body.provision, false);
      const keys = await api.request('/api-keys', { token: alice.token });
      t.equal(keys.body.apiKeys.find((k: { keyId: string }) => k.keyId === made.body.keyId).provision, false);
      t.equal(keys.body.apiKeys.find((k: { name: string }) => k.name === 'default').provision, true);
      const pingOnly = { apiKey: made.body.key as string };
      const create = await api.ping(pingOnly, 'not-by-ci', 'start', { monitor: SETTINGS });
      t.equal(create.status, 403);
      t.equal(create.body.code, 'provision_refused');
      t.match(create.body.message, /may not create or change monitors .*"provision": false/);
      t.equal((await show('not-by-ci')).status, 404);
      const { body: current } = await show('queue-drain');
      const change = await api.ping(pingOnly, 'queue-drain', 'start', { monitor: { schedule: { every: 60 } } });
      t.equal(change.status, 403);
      t.same((await show('queue-drain')).body.schedule, current.schedule);
      t.equal(
        (await api.ping(pingOnly, 'queue-drain', 'start', { monitor: { schedule: { every: 900 } } })).status,
        200,
      );
      t.equal((await api.ping(pingOnly, 'queue-drain', 'success')).status, 200);
    });
  });

  t.test(`an account's monitors are bounded by its plan on ${kind}`, async (t) => {
    const api = await TestServer.start(t, kind, { planMonitors: { free: 2, pro: 5, business: 0, unlimited: 0 } });
    const bob = await api.account('free');
    await api.monitor(bob, 'one');
    t.equal((await api.ping(bob, 'two', 'start', { monitor: {} })).status, 200);
    const third = await api.request('/monitors', { token: bob.token, body: { name: 'three' } });
    t.equal(third.status, 403);
    t.equal(third.body.code, 'monitor_limit_reached');
    t.match(third.body.message, /Your account has 2 monitors, the most its free plan allows: delete one/);
    const byPing = await api.ping(bob, 'three', 'start', { monitor: {} });
    t.equal(byPing.status, 403);
    t.equal(byPing.body.code, 'monitor_limit_reached');
    // A success: it finishes the run the start opened, which the free plan's rate limit never refuses.
    const update = await api.ping(bob, 'two', 'success', { monitor: { startGrace: 60 } });
    t.equal(update.status, 200, 'updates go on');
    await api.request('/monitors/one', { token: bob.token, method: 'DELETE' });
    t.equal((await api.ping(bob, 'three', 'start', { monitor: {} })).status, 200);
    const unlimited = await api.account('business');
    for (let i = 0; i < 3; i++) t.equal((await api.ping(unlimited, `job-${i}`, 'start', { monitor: {} })).status, 200);
  });
}
