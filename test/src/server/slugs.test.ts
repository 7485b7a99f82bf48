import t from 'tap';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { TestServer } from '../helpers/server.js';

for (const kind of DATABASE_KINDS) {
  t.test(`slugs on ${kind}`, async (t) => {
    const api = await TestServer.start(t, kind);
    const alice = await api.account();
    const bob = await api.account();
    const create = (body: object, token = alice.token) => api.request('/monitors', { token, body });

    t.test('a monitor made without a slug gets one from its name, numbered when taken', async (t) => {
      const first = await create({ name: '  Nightly Backup (db1) ' });
      t.equal(first.status, 201);
      t.equal(first.body.slug, 'nightly-backup-db1');
      t.equal((await create({ name: 'nightly backup: db1' })).body.slug, 'nightly-backup-db1-2');
      t.equal((await create({ name: 'Nightly-Backup DB1!' })).body.slug, 'nightly-backup-db1-3');
      t.equal((await create({ name: 'Nightly backup db1' }, bob.token)).body.slug, 'nightly-backup-db1', 'per account');
      t.equal((await create({ name: 'Übersicht café' })).body.slug, 'ubersicht-cafe');
      t.equal((await create({ name: '日本語' })).body.slug, 'monitor');
      t.equal((await create({ name: 'mon_report' })).body.slug, 'mon-report', 'never of the form of an id');
      t.equal((await create({ name: 'x'.repeat(100) })).body.slug, 'x'.repeat(64));
      t.equal((await create({ name: 'x'.repeat(90) })).body.slug, `${'x'.repeat(62)}-2`);
    });

    t.test('a slug given is kept; one taken is a 409, one malformed a 400 naming it', async (t) => {
      const given = await create({ name: 'db dump', slug: 'db_dump-7' });
      t.equal(given.status, 201);
      t.equal(given.body.slug, 'db_dump-7');
      const taken = await create({ name: 'other', slug: 'db_dump-7' });
      t.equal(taken.status, 409);
      t.equal(taken.body.code, 'slug_taken');
      t.match(taken.body.message, /db_dump-7.*choose another/);
      for (const slug of ['', 'Upper', 'with space', 'a/b', 'x'.repeat(65), 'mon_0mwre28zi1ycax5mit1', 'é', 7]) {
        const reply = await create({ name: 'bad', slug });
        t.equal(reply.status, 400, JSON.stringify(slug));
        t.equal(reply.body.code, 'invalid_request');
        t.match(reply.body.message, /^slug must be 1 to 64 of a-z, 0-9, - and _/);
      }
    });

    t.test('every /monitors/:monitorId path takes the slug', async (t) => {
      const { body: monitor } = await create({ name: 'weekly report', schedule: { every: 3600 } });
      const slug = monitor.slug as string;
      t.equal(slug, 'weekly-report');
      const shown = await api.request(`/monitors/${slug}`, { token: alice.token });
      t.equal(shown.body.monitorId, monitor.monitorId);
      const expected = await api.request(`/monitors/${slug}/expected?count=2`, { token: alice.token });
      t.equal(expected.body.times.length, 2);
      const rule = await api.request(`/monitors/${slug}/rules`, {
        token: alice.token,
        body: { metric: 'rows', op: 'lt', value: 1 },
      });
      t.equal(rule.status, 201);
      t.equal(rule.body.monitorId, monitor.monitorId);
      const rules = await api.request(`/monitors/${slug}/rules`, { token: alice.token });
      t.equal(rules.body.rules.length, 1);
      const ping = await api.ping(alice, slug, 'fail', { errorMessage: 'boom', logOutput: 'the log' });
      t.equal(ping.status, 200);
      t.equal(ping.body.data.monitorId, monitor.monitorId, 'the ack names the id');
      const runs = await api.request(`/monitors/${slug}/runs`, { token: alice.token });
      t.equal(runs.body.runs.length, 1);
      const { runId } = runs.body.runs[0];
      t.equal((await api.request(`/monitors/${slug}/runs/${runId}`, { token: alice.token })).status, 200);
      const log = await api.request(`/monitors/${slug}/runs/${runId}/log`, { token: alice.token });
      t.same(log.body, { hasLog: true, content: 'the log' });
      const alerts = await api.request(`/alerts?monitorId=${slug}`, { token: alice.token });
      t.equal(alerts.status, 200);
      const removed = await api.request(`/monitors/${slug}/rules/${rule.body.ruleId}`, {
        token: alice.token,
        method: 'DELETE',
      });
      t.equal(removed.status, 204);
      const deleted = await api.request(`/monitors/${slug}`, { token: alice.token, method: 'DELETE' });
      t.equal(deleted.status, 204);
      t.equal((await api.request(`/monitors/${monitor.monitorId}`, { token: alice.token })).status, 404);
    });

    t.test("another account's slug is a 404, as its id is", async (t) => {
      const { body: theirs } = await create({ name: 'private job', slug: 'private-job' }, bob.token);
      const shown = await api.request('/monitors/private-job', { token: alice.token });
      t.equal(shown.status, 404);
      t.equal(shown.body.message, 'No monitor private-job in your account.');
      t.equal((await api.ping(alice, 'private-job', 'start')).status, 404);
      t.equal((await api.ping(bob, 'private-job', 'start')).body.data.monitorId, theirs.monitorId);
    });

    t.test("a body's monitorIds take slugs too: channels and maintenance windows", async (t) => {
      const { body: monitor } = await create({ name: 'billing export', slug: 'billing-export' });
      const channel = await api.request('/channels', {
        token: alice.token,
        body: {
          name: 'billing hook',
          type: 'webhook',
          url: 'https://hooks.example.com/b',
          monitorIds: ['billing-export'],
        },
      });
      t.equal(channel.status, 201, JSON.stringify(channel.body));
      t.same(channel.body.monitorIds, [monitor.monitorId], 'stored as the id');
      const both = await api.request(`/channels/${channel.body.channelId}`, {
        method: 'PATCH',
        token: alice.token,
        body: { monitorIds: ['billing-export', monitor.monitorId] },
      });
      t.same(both.body.monitorIds, [monitor.monitorId], 'a slug and its id name one monitor');
      const window = await api.request('/maintenance-windows', {
        token: alice.token,
        body: { cron: '0 2 * * 0', duration: 3600, monitorIds: ['billing-export'] },
      });
      t.equal(window.status, 201, JSON.stringify(window.body));
      t.same(window.body.monitorIds, [monitor.monitorId]);
      const unknown = await api.request('/channels', {
        token: alice.token,
        body: { name: 'x', type: 'webhook', url: 'https://hooks.example.com/x', monitorIds: ['private-job'] },
      });
      t.equal(unknown.status, 400, "another account's slug is unknown here");
      t.match(unknown.body.message, /private-job/);
    });

    t.test('an unknown slug pinged is a 404 that says how to create it', async (t) => {
      const reply = await api.ping(alice, 'never-made', 'start');
      t.equal(reply.status, 404);
      t.equal(reply.body.code, 'monitor_not_found');
      t.match(reply.body.message, /No monitor never-made .*pingmon monitors create/);
      const odd = await api.ping(alice, 'Not A Slug', 'start');
      t.equal(odd.status, 404);
      t.match(odd.body.message, /Check the monitor id/);
    });

    t.test('a slug changes through PATCH: the old one is gone, a taken one is a 409', async (t) => {
      const { body: monitor } = await create({ name: 'sync', slug: 'sync-old' });
      await create({ name: 'other sync', slug: 'sync-taken' });
      const renamed = await api.request('/monitors/sync-old', {
        token: alice.token,
        method: 'PATCH',
        body: { slug: 'sync-new' },
      });
      t.equal(renamed.status, 200);
      t.match(renamed.body, { monitorId: monitor.monitorId, slug: 'sync-new', name: 'sync' });
      t.equal((await api.request('/monitors/sync-old', { token: alice.token })).status, 404);
      t.equal((await api.ping(alice, 'sync-new', 'start')).status, 200);
      const taken = await api.request('/monitors/sync-new', {
        token: alice.token,
        method: 'PATCH',
        body: { slug: 'sync-taken', name: 'not changed' },
      });
      t.equal(taken.status, 409);
      t.equal(taken.body.code, 'slug_taken');
      t.equal((await api.request('/monitors/sync-new', { token: alice.token })).body.name, 'sync', 'nothing changed');
      const bad = await api.request('/monitors/sync-new', {
        token: alice.token,
        method: 'PATCH',
        body: { slug: 'mon_x' },
      });
      t.equal(bad.status, 400);
      t.match(bad.body.message, /^slug must be/);
    });

    t.test('monitors created together from one name all get a slug of their own', async (t) => {
      const replies = await Promise.all(Array.from({ length: 10 }, () => create({ name: 'burst job' })));
      t.same(
        replies.map((r) => r.status),
        replies.map(() => 201),
      );
      t.equal(new Set(replies.map((r) => r.body.slug)).size, 10);
    });
  });

  t.test(`migration 011 gives existing monitors slugs from their names, and keys provision, on ${kind}`, async (t) => {
    const api = await TestServer.start(t, kind);
    const alice = await api.account();
    const bob = await api.account();
    const ids = [];
    for (const [account, name] of [
      [alice, 'DB backup'],
      [alice, 'db backup'],
      [bob, 'db backup'],
      [alice, 'mon_old'],
    ] as const) {
      ids.push(await api.monitor(account, name));
    }
    // Back to before 011: no slug column, and 011 not applied.
    await api.query(async (knex) => {
      await knex.raw('drop index monitors_account_slug');
      await knex.raw('alter table monitors drop column slug');
      await knex.raw('alter table api_keys drop column provision');
      await knex('knex_migrations').where('name', '011-slugs').delete();
    });
    await api.server.stop();
    const again = await TestServer.on(t, api.database);
    const slugs = await again.query((knex) => knex('monitors').select('id', 'slug'));
    const slugOf = (id: string) => slugs.find((row: { id: string }) => row.id === id)?.slug;
    t.same(ids.map(slugOf), ['db-backup', 'db-backup-2', 'db-backup', 'mon-old']);
    t.equal((await again.ping(alice, 'db-backup-2', 'start')).body.data.monitorId, ids[1]);
    const keys = await again.query((knex) => knex('api_keys').select('provision'));
    t.ok(keys.length > 0 && keys.every((k: { provision: unknown }) => Boolean(k.provision)), 'keys keep provisioning');
  });
}
