import t from 'tap';
import { createClient, PingmonError } from '@pingmon/sdk';
import { TestClock } from '../helpers/clock.js';
import { DATABASE_KINDS } from '../helpers/databases.js';
import type { RequestOptions } from '../helpers/http.js';
import { request } from '../helpers/http.js';
import { DocumentChecker } from '../helpers/openapi.js';
import type { OpenApiDocument } from '../helpers/openapi.js';
import { TestServer } from '../helpers/server.js';

// POST /schedules/preview and POST /monitors/:monitorId/rules/preview: the server's own schedule and rule code
// answering "what would this do?", on each database; nothing is stored.

const MINUTE = 60_000;

for (const kind of DATABASE_KINDS) {
  t.test(`previews on ${kind}`, async (t) => {
    const clock = new TestClock(Date.parse('2027-03-27T12:00:00Z'));
    const api = await TestServer.start(t, kind, { clock: clock.read });
    const alice = await api.account();
    const bob = await api.account();
    const checker = new DocumentChecker((await request(`${api.url}/openapi.json`)).body as OpenApiDocument);
    const call = async (path: string, options: RequestOptions) => {
      const reply = await api.request(path, { method: 'POST', token: alice.token, ...options });
      t.same(checker.problems('POST', path, reply, options.body), [], `POST ${path} → ${reply.status} as documented`);
      return reply;
    };

    t.test('a cron schedule in words, and its next times as a monitor made now expects them', async (t) => {
      const schedule = { cron: '0 3 * * *', timezone: 'Europe/Berlin' };
      const reply = await call('/schedules/preview', { body: { schedule, startGrace: 600 } });
      t.equal(reply.status, 200, reply.text);
      t.equal(reply.body.description, 'At 03:00, every day');
      t.equal(reply.body.timezone, 'Europe/Berlin');
      t.equal(reply.body.expected.length, 5, 'five unless asked');
      t.same(reply.body.expected.slice(0, 2), [
        // The night of the change to summer time: 03:00 CEST is 01:00 UTC.
        {
          at: '2027-03-28T01:00:00.000Z',
          local: '2027-03-28T03:00:00+02:00',
          zone: 'CEST',
          missedAt: '2027-03-28T01:10:00.000Z',
        },
        {
          at: '2027-03-29T01:00:00.000Z',
          local: '2027-03-29T03:00:00+02:00',
          zone: 'CEST',
          missedAt: '2027-03-29T01:10:00.000Z',
        },
      ]);
      const created = await api.request('/monitors', { token: alice.token, body: { name: 'nightly', schedule } });
      const expected = await api.request(`/monitors/${created.body.monitorId}/expected`, { token: alice.token });
      t.same(
        reply.body.expected.map((time: { at: string }) => time.at),
        expected.body.times.map((time: { at: string }) => time.at),
        'the same times as the monitor, once made, expects',
      );
    });

    t.test('an every schedule counts from now; count and the default start grace', async (t) => {
      const reply = await call('/schedules/preview', { body: { schedule: { every: 5400 }, count: 2 } });
      t.equal(reply.status, 200, reply.text);
      t.same(reply.body, {
        description: 'Every 1h30m after the last run started',
        timezone: 'UTC',
        expected: [
          {
            at: '2027-03-27T13:30:00.000Z',
            local: '2027-03-27T13:30:00+00:00',
            zone: 'UTC',
            missedAt: '2027-03-27T13:35:00.000Z',
          },
          {
            at: '2027-03-27T15:00:00.000Z',
            local: '2027-03-27T15:00:00+00:00',
            zone: 'UTC',
            missedAt: '2027-03-27T15:05:00.000Z',
          },
        ],
      });
      const weekly = await call('/schedules/preview', { body: { schedule: { cron: '30 4 * * 1' }, count: 1 } });
      t.match(weekly.body, { description: 'At 04:30, only on Monday', timezone: 'UTC' });
    });

    t.test('a schedule that cannot be read is 400 invalid_schedule naming the field', async (t) => {
      const bad = async (body: unknown, message: RegExp, code = 'invalid_schedule') => {
        const reply = await call('/schedules/preview', { body });
        t.equal(reply.status, 400, JSON.stringify(body));
        t.match(reply.body, { code, message });
      };
      await bad({ schedule: { cron: '0 3 * *' } }, /^schedule\.cron: "0 3 \* \*" has 4 field\(s\); use 5/);
      await bad({ schedule: { cron: '0 25 * * *' } }, /^schedule\.cron: "0 25 \* \* \*" cannot be read/);
      await bad({ schedule: { cron: '0 3 * * *', timezone: 'Europe/Berln' } }, /^schedule\.timezone: unknown timezone/);
      await bad({ schedule: { every: 60, timezone: 'UTC' } }, /timezone goes with cron only/);
      await bad({ schedule: { every: 0 } }, /^schedule\.every must be a whole number of seconds from 1/);
      await bad({ schedule: null }, /^schedule must be \{"cron": .*nothing to preview\.$/);
      await bad({}, /^schedule must be \{"cron": .*nothing to preview\.$/);
      await bad({ schedule: { cron: '0 3 * * *' }, startGrace: 0 }, /^startGrace must be a whole number of seconds/);
      await bad(
        { schedule: { cron: '0 3 * * *' }, count: 0 },
        /^count must be a whole number from 1 to 100/,
        'invalid_request',
      );
    });

    t.test('a rule replayed over the latest successes, newest first; nothing is stored', async (t) => {
      const m = (await api.request('/monitors', { token: alice.token, body: { name: 'rows job' } })).body;
      // Oldest first, a minute apart: four successes (one without the metric), a failure and a timed run.
      const pings: Array<['success' | 'fail', Record<string, unknown>]> = [
        ['success', { meta: { rowsProcessed: 0 } }],
        ['success', { meta: { rowsProcessed: 5 } }],
        ['fail', { meta: { rowsProcessed: 0 } }],
        ['success', { meta: {} }],
        ['success', { meta: { rowsProcessed: 0.5 } }],
      ];
      const start = clock.now - 60 * MINUTE;
      for (const [i, [ping, body]] of pings.entries()) {
        const timestamp = new Date(start + i * MINUTE).toISOString();
        const reply = await api.ping(alice, m.monitorId, ping, { ...body, runId: `run-${i}-abcdef`, timestamp });
        t.equal(reply.status, 200, reply.text);
      }
      const rule = { metric: 'rowsProcessed', op: 'lt', value: 1 };
      const reply = await call(`/monitors/${m.slug}/rules/preview`, { body: rule });
      t.equal(reply.status, 200, reply.text);
      t.same(reply.body, {
        description: 'Alert when a success reports rowsProcessed less than 1',
        expression: 'rowsProcessed < 1',
        checked: 4,
        withoutMetric: 1,
        matches: [
          { runId: 'run-4-abcdef', startedAt: new Date(start + 4 * MINUTE).toISOString(), actual: 0.5, median: null },
          { runId: 'run-0-abcdef', startedAt: new Date(start).toISOString(), actual: 0, median: null },
        ],
      });
      const two = await call(`/monitors/${m.monitorId}/rules/preview?runs=2`, { body: rule });
      t.match(two.body, { checked: 2, withoutMetric: 1, matches: [{ runId: 'run-4-abcdef' }] }, 'the latest two only');
      const none = await call(`/monitors/${m.monitorId}/rules/preview`, { body: { ...rule, metric: 'rows' } });
      t.match(none.body, { checked: 4, withoutMetric: 4, matches: [] }, 'a metric no run reports');
      const rules = await api.request(`/monitors/${m.monitorId}/rules`, { token: alice.token });
      t.same(rules.body.rules, [], 'no rule was added');

      t.test('a rule on durationMs matches the runs measured from their start', async (t) => {
        clock.advance(MINUTE);
        t.equal((await api.ping(alice, m.monitorId, 'start', { runId: 'timed-run-1' })).status, 200);
        clock.advance(90_000);
        t.equal((await api.ping(alice, m.monitorId, 'success', { runId: 'timed-run-1' })).status, 200);
        const slow = { metric: 'durationMs', op: 'gte', value: 60_000 };
        const reply = await call(`/monitors/${m.monitorId}/rules/preview`, { body: slow });
        t.match(reply.body, { checked: 5, withoutMetric: 4, matches: [{ runId: 'timed-run-1', actual: 90_000 }] });
      });
    });

    t.test("bad rules are 400 naming the field; another account's monitor is 404", async (t) => {
      const m = await api.monitor(alice, 'checked job');
      const cases: Array<[string, unknown, RegExp]> = [
        ['', { op: 'lt', value: 1 }, /"metric" is required/],
        ['', { metric: 'rows', op: '<', value: 1 }, /"op" must be one of/],
        ['', { metric: 'rows', op: 'lt', value: '1' }, /"value" must be a number/],
        ['?runs=0', { metric: 'rows', op: 'lt', value: 1 }, /^runs must be a whole number from 1 to 200/],
        ['?runs=201', { metric: 'rows', op: 'lt', value: 1 }, /^runs must be a whole number from 1 to 200/],
      ];
      for (const [query, body, message] of cases) {
        const reply = await call(`/monitors/${m}/rules/preview${query}`, { body });
        t.match(reply, { status: 400, body: { code: 'invalid_request', message } }, `${query} ${JSON.stringify(body)}`);
      }
      const rule = { metric: 'rows', op: 'lt', value: 1 };
      const theirs = await call(`/monitors/${m}/rules/preview`, { token: bob.token, body: rule });
      t.match(theirs, { status: 404, body: { code: 'monitor_not_found' } });
      const unknown = await call('/monitors/mon_nope/rules/preview', { body: rule });
      t.match(unknown, { status: 404, body: { code: 'monitor_not_found' } });
      const key = await call(`/monitors/${m}/rules/preview`, { token: undefined, apiKey: alice.apiKey, body: rule });
      t.equal(key.status, 401, 'a user token is required');
      const schedule = await call('/schedules/preview', { token: undefined, body: { schedule: { every: 60 } } });
      t.equal(schedule.status, 401, 'for a schedule preview too');
    });

    t.test('the SDK previews a schedule and a rule', async (t) => {
      const client = createClient({ baseUrl: api.url, token: alice.token, maxRetries: 0 });
      const preview = await client.previewSchedule({ schedule: { cron: '*/15 9-17 * * 1-5' }, count: 3 });
      t.match(preview, {
        description: /^Every 15 minutes, between 09:00 and 17:59, Monday through Friday/,
        expected: [
          { at: '2027-03-29T09:00:00.000Z' },
          { at: '2027-03-29T09:15:00.000Z' },
          { at: '2027-03-29T09:30:00.000Z' },
        ],
      });
      const error = await client.previewSchedule({ schedule: { cron: 'every day' } }).catch((err: unknown) => err);
      t.ok(error instanceof PingmonError);
      t.match(error, { status: 400, code: 'invalid_schedule', message: /schedule\.cron/ });
      const m = await api.monitor(alice, 'sdk job');
      const replay = await client.previewRule(m, { metric: 'rows', op: 'gt', value: 10 }, { runs: 5 });
      t.same(replay, {
        description: 'Alert when a success reports rows more than 10',
        expression: 'rows > 10',
        checked: 0,
        withoutMetric: 0,
        matches: [],
      });
    });
  });
}
