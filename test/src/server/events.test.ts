import t from 'tap';
import type { Test } from 'tap';
import type { MonitorEvent, MonitorEventList } from '@pingmon/sdk';
import { TestClock } from '../helpers/clock.js';
import { DATABASE_KINDS } from '../helpers/databases.js';
import type { DatabaseKind } from '../helpers/databases.js';
import { request } from '../helpers/http.js';
import { DocumentChecker } from '../helpers/openapi.js';
import type { OpenApiDocument } from '../helpers/openapi.js';
import { json, startReceiver } from '../helpers/receiver.js';
import { TestServer } from '../helpers/server.js';
import type { TestAccount } from '../helpers/server.js';
import { TEST_TIME } from '../helpers/test-time.js';
import { waitFor } from '../helpers/wait.js';

// A monitor's timeline (docs/api.md#events): runs from the runs table, alerts from theirs, and what has no history
// of its own (missed runs, timeouts, incidents, snoozes, pauses) from the events table, merged newest first.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const T0 = Date.parse('2027-03-27T12:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();

interface Setup {
  api: TestServer;
  clock: TestClock;
  account: TestAccount;
  checker: DocumentChecker;
}

/** One server per database for the whole file, on test time, with a webhook channel and retention to prune. */
async function setup(t: Test, kind: DatabaseKind): Promise<Setup> {
  const clock = new TestClock(T0);
  const api = await TestServer.start(t, kind, {
    ...TEST_TIME,
    clock: clock.read,
    pruneIntervalMs: 3_600_000,
    retentionMs: 30 * DAY,
    retentionRuns: 5,
  });
  const account = await api.account();
  const receiver = await startReceiver(t, (_req, _n, res) => json(res, 200, {}));
  const hook = { type: 'webhook', name: 'hook', url: `${receiver.url}/hook` };
  t.equal((await api.request('/channels', { token: account.token, body: hook })).status, 201);
  const doc = (await request<OpenApiDocument>(`${api.url}/openapi.json`)).body;
  return { api, clock, account, checker: new DocumentChecker(doc) };
}

async function createMonitor(s: Setup, body: object): Promise<string> {
  const reply = await s.api.request('/monitors', { token: s.account.token, body: { name: 'job', ...body } });
  if (reply.status !== 201) throw new Error(`creating a monitor failed: ${reply.text}`);
  return reply.body.monitorId;
}

const patch = async (s: Setup, id: string, body: object) => {
  const reply = await s.api.request(`/monitors/${id}`, { method: 'PATCH', token: s.account.token, body });
  if (reply.status !== 200) throw new Error(`changing the monitor failed: ${reply.text}`);
};

const ping = async (s: Setup, id: string, kind: 'start' | 'success' | 'fail', body: object = {}) => {
  const reply = await s.api.ping(s.account, id, kind, body);
  if (reply.status !== 200) throw new Error(`the ${kind} ping failed: ${reply.text}`);
};

const sweep = (s: Setup) => s.api.server.app.sweeper.sweepNow();

/** GET …/events with `query`, its answer checked against the OpenAPI document. */
async function events(s: Setup, monitorId: string, query = '', token = s.account.token) {
  const path = `/monitors/${monitorId}/events${query ? `?${query}` : ''}`;
  const reply = await s.api.request<MonitorEventList>(path, { token });
  const problems = s.checker.problems('GET', path, reply);
  if (problems.length > 0) throw new Error(`the answer is not as documented: ${problems.join('; ')}`);
  return reply;
}

/** Every page of the timeline, `limit` at a time. */
async function paged(s: Setup, monitorId: string, limit: number, kind?: string): Promise<MonitorEvent[]> {
  const seen: MonitorEvent[] = [];
  let cursor: string | null = null;
  do {
    const query: string = `limit=${limit}${kind ? `&kind=${kind}` : ''}${cursor ? `&cursor=${cursor}` : ''}`;
    const page: MonitorEventList = (await events(s, monitorId, query)).body;
    if (page.events.length > limit) throw new Error(`a page of ${page.events.length}, over its limit of ${limit}`);
    seen.push(...page.events);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return seen;
}

const kinds = (list: MonitorEvent[]) => list.map((e) => e.kind);

for (const kind of DATABASE_KINDS) {
  t.test(`a monitor's timeline on ${kind}`, async (t) => {
    const s = await setup(t, kind);

    // The story of one monitor, a minute apart (hourly, a minute's grace, ten minutes' maxRuntime).
    const story = await createMonitor(s, { schedule: { every: 3600 }, startGrace: 60, maxRuntime: 600 });
    s.clock.set(at(MINUTE));
    await ping(s, story, 'start', { runId: 'run-one-0001' });
    s.clock.set(at(2 * MINUTE));
    await ping(s, story, 'success', { runId: 'run-one-0001' });
    s.clock.set(at(3 * MINUTE));
    await ping(s, story, 'fail', { runId: 'run-two-0002', errorMessage: 'disk full\nat /var' });
    s.clock.set(at(4 * MINUTE));
    await ping(s, story, 'success', { runId: 'run-three-03' });
    s.clock.set(at(HOUR + 6 * MINUTE));
    await sweep(s);
    s.clock.set(at(HOUR + 7 * MINUTE));
    await ping(s, story, 'start', { runId: 'run-four-0004' });
    s.clock.set(at(HOUR + 18 * MINUTE));
    await sweep(s);
    s.clock.set(at(HOUR + 19 * MINUTE));
    await patch(s, story, { snoozedUntil: at(3 * HOUR) });
    s.clock.set(at(HOUR + 20 * MINUTE));
    await patch(s, story, { paused: true });
    s.clock.set(at(HOUR + 21 * MINUTE));
    await patch(s, story, { paused: false });

    t.test('each kind appears once when it happens, newest first, with what a reader needs', async (t) => {
      // The alerts' deliveries are made meanwhile: waited for, so that what is compared below stays as it is.
      const { body } = await waitFor(
        async () => {
          const reply = await events(s, story);
          const alerts = reply.body.events.filter((e) => e.kind === 'alert');
          return alerts.every((a) => a.deliveries.every((d) => d.state === 'delivered')) ? reply : undefined;
        },
        { what: 'every alert delivered' },
      );
      t.same(kinds(body.events), [
        'incident_closed',
        'resumed',
        'paused',
        'snoozed',
        'alert',
        'timed_out',
        'run_failed',
        'run_started',
        'alert',
        'incident_opened',
        'missed',
        'alert',
        'incident_closed',
        'run_succeeded',
        'alert',
        'incident_opened',
        'run_failed',
        'run_succeeded',
        'run_started',
      ]);
      t.equal(body.nextCursor, null, 'one page');
      const e = body.events;
      t.same(e[0], {
        kind: 'incident_closed',
        at: at(HOUR + 21 * MINUTE),
        cause: 'missed',
        openedAt: at(HOUR + 6 * MINUTE),
        failedRuns: 1,
        missedRuns: 1,
        reason: 'resumed',
        runId: null,
      });
      t.same(e.slice(1, 4), [
        { kind: 'resumed', at: at(HOUR + 21 * MINUTE) },
        { kind: 'paused', at: at(HOUR + 20 * MINUTE) },
        { kind: 'snoozed', at: at(HOUR + 19 * MINUTE), until: at(3 * HOUR) },
      ]);
      t.match(e[4], {
        kind: 'alert',
        at: at(HOUR + 18 * MINUTE),
        event: 'timed_out',
        runId: 'run-four-0004',
        groupId: null,
        deliveries: [{ channelName: 'hook', channelType: 'webhook', state: 'delivered', attemptCount: 1 }],
      });
      t.same(e[5], { kind: 'timed_out', at: at(HOUR + 18 * MINUTE), runId: 'run-four-0004', maxRuntime: 600 });
      t.match(e[6], { kind: 'run_failed', runId: 'run-four-0004', status: 'failed', durationMs: 11 * MINUTE });
      t.same(e[7], {
        kind: 'run_started',
        at: at(HOUR + 7 * MINUTE),
        runId: 'run-four-0004',
        status: 'failed',
        durationMs: 11 * MINUTE,
        errorMessage: 'no result within maxRuntime (10m)',
        silentFailure: false,
        host: null,
      });
      t.match(e[8], { kind: 'alert', event: 'missed', runId: null, at: at(HOUR + 6 * MINUTE) });
      t.same(e[9], { kind: 'incident_opened', at: at(HOUR + 6 * MINUTE), cause: 'missed', runId: null });
      t.same(e[10], {
        kind: 'missed',
        at: at(HOUR + 6 * MINUTE),
        expectedAt: at(HOUR + 4 * MINUTE),
        count: 1,
        quietCount: 0,
      });
      t.match(e[11], { kind: 'alert', event: 'recovered', runId: 'run-three-03', at: at(4 * MINUTE) });
      t.same(e[12], {
        kind: 'incident_closed',
        at: at(4 * MINUTE),
        cause: 'fail',
        openedAt: at(3 * MINUTE),
        failedRuns: 1,
        missedRuns: 0,
        reason: 'recovered',
        runId: 'run-three-03',
      });
      t.match(e[14], { kind: 'alert', event: 'fail', errorMessage: 'disk full\nat /var', runId: 'run-two-0002' });
      t.same(e[15], { kind: 'incident_opened', at: at(3 * MINUTE), cause: 'fail', runId: 'run-two-0002' });
      t.same(e[16], {
        kind: 'run_failed',
        at: at(3 * MINUTE),
        runId: 'run-two-0002',
        status: 'failed',
        durationMs: null,
        errorMessage: 'disk full',
        silentFailure: false,
        host: null,
      });
      t.match(e.slice(17), [
        { kind: 'run_succeeded', at: at(2 * MINUTE), runId: 'run-one-0001', durationMs: MINUTE },
        { kind: 'run_started', at: at(MINUTE), runId: 'run-one-0001', status: 'success' },
      ]);
    });

    t.test('pages, however small, hold every event once, in order; so do filtered ones', async (t) => {
      const all = (await events(s, story)).body.events;
      for (const limit of [1, 2, 3, 4, 7]) t.same(await paged(s, story, limit), all, `${limit} at a time`);
      for (const only of ['missed', 'run_failed,alert', 'incident_opened,incident_closed,run_started']) {
        const wanted = all.filter((e) => only.split(',').includes(e.kind));
        t.same((await events(s, story, `kind=${only}`)).body.events, wanted, `kind=${only}`);
        t.same(await paged(s, story, 2, only), wanted, `kind=${only}, 2 at a time`);
      }
      t.same(kinds((await events(s, story, 'kind=missed')).body.events), ['missed']);
    });

    t.test('events of one millisecond, of one source and of several, page without a duplicate or a gap', async (t) => {
      const busy = await createMonitor(s, {});
      s.clock.set(at(2 * HOUR));
      for (const id of ['tie-run-a', 'tie-run-b', 'tie-run-c']) await ping(s, busy, 'start', { runId: id });
      for (const id of ['tie-run-a', 'tie-run-b', 'tie-run-c']) await ping(s, busy, 'success', { runId: id });
      await ping(s, busy, 'fail', { runId: 'tie-run-d' });
      await patch(s, busy, { paused: true });
      const all = (await events(s, busy)).body.events;
      t.same(
        all.map((e) => ('runId' in e ? `${e.kind} ${e.runId}` : e.kind)),
        [
          'alert tie-run-d',
          'paused',
          'incident_opened tie-run-d',
          'run_failed tie-run-d',
          'run_succeeded tie-run-c',
          'run_succeeded tie-run-b',
          'run_succeeded tie-run-a',
          'run_started tie-run-c',
          'run_started tie-run-b',
          'run_started tie-run-a',
        ],
        'at one time: alerts, then events (the later first), results, openings; in one source the greater id first',
      );
      t.ok(
        all.every((e) => e.at === at(2 * HOUR)),
        'all at one millisecond',
      );
      for (const limit of [1, 2, 3]) t.same(await paged(s, busy, limit), all, `${limit} at a time`);
    });

    t.test('a missed run is on the timeline even when no alert goes out', async (t) => {
      // A sweep at least every 3 hours of test time: a longer gap would be an outage of pingmon (server-gaps.ts).
      s.clock.set(at(3 * HOUR));
      await sweep(s);
      const schedule = { every: 3600 };
      const snoozed = await createMonitor(s, { schedule, startGrace: 60 });
      const patient = await createMonitor(s, { schedule, startGrace: 60, failureThreshold: 3 });
      await patch(s, snoozed, { snoozedUntil: at(6 * HOUR) });
      s.clock.set(at(5 * HOUR + 2 * MINUTE));
      await sweep(s);
      t.same((await events(s, snoozed)).body.events, [
        { kind: 'missed', at: at(5 * HOUR + 2 * MINUTE), expectedAt: at(4 * HOUR), count: 2, quietCount: 2 },
        { kind: 'snoozed', at: at(3 * HOUR), until: at(6 * HOUR) },
      ]);
      t.same((await events(s, patient)).body.events, [
        { kind: 'missed', at: at(5 * HOUR + 2 * MINUTE), expectedAt: at(4 * HOUR), count: 2, quietCount: 0 },
      ]);
      const alerts = await s.api.request(`/alerts?monitorId=${patient}`, { token: s.account.token });
      t.same(alerts.body.alerts, [], 'below its failure threshold: no alert, no incident');
    });

    t.test('bad queries are refused with what to do; other accounts see nothing', async (t) => {
      const unknown = await events(s, story, 'kind=missed,exploded');
      t.match(unknown, { status: 400, body: { code: 'invalid_request', message: /"exploded" is not an event kind/ } });
      t.match(unknown.text, /run_started, .*resumed/, 'it lists the kinds');
      const repeated = await events(s, story, 'kind=missed&kind=alert');
      t.match(repeated, { status: 400, body: { code: 'invalid_request', message: /comma-separated/ } });
      t.match(await events(s, story, 'kind='), { status: 400, body: { message: /name at least one kind/ } });
      t.match(await events(s, story, 'cursor=bm9wZQ'), { status: 400, body: { code: 'invalid_cursor' } });
      t.match(await events(s, story, 'limit=0'), { status: 400, body: { code: 'invalid_request' } });
      const other = await s.api.account();
      t.match(await events(s, story, '', other.token), { status: 404, body: { code: 'monitor_not_found' } });
      t.match(await events(s, 'mon_nope'), { status: 404, body: { code: 'monitor_not_found' } });
      const slug = (await s.api.request(`/monitors/${story}`, { token: s.account.token })).body.slug;
      t.same((await events(s, slug)).body, (await events(s, story)).body, 'the slug names it as the id does');
    });

    t.test('deleting a monitor deletes its events', async (t) => {
      const gone = await createMonitor(s, {});
      await patch(s, gone, { paused: true });
      const stored = () =>
        s.api.query(async (knex) => Number((await knex('events').where({ monitor_id: gone }).count({ n: '*' }))[0]!.n));
      t.equal(await stored(), 1);
      t.equal((await s.api.request(`/monitors/${gone}`, { method: 'DELETE', token: s.account.token })).status, 204);
      t.equal(await stored(), 0);
    });

    t.test('retention prunes events: past the newest PINGMON_RETENTION_RUNS of a monitor, and by age', async (t) => {
      const toggled = await createMonitor(s, {});
      for (let i = 0; i < 8; i++) {
        s.clock.advance(MINUTE);
        await patch(s, toggled, { paused: i % 2 === 0 });
      }
      t.equal((await events(s, toggled)).body.events.length, 8);
      const first = await s.api.server.app.pruner.pruneNow();
      t.ok(first.events >= 3);
      const kept = (await events(s, toggled)).body.events;
      t.same(kinds(kept), ['resumed', 'paused', 'resumed', 'paused', 'resumed'], 'the newest 5');
      s.clock.advance(31 * DAY);
      await s.api.server.app.pruner.pruneNow();
      t.same((await events(s, toggled)).body.events, [], 'a month later, none');
      t.same((await events(s, story)).body.events, [], 'nor of any monitor');
    });
  });
}
