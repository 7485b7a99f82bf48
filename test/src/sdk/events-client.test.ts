import t from 'tap';
import type { MonitorEvent, PingmonError } from '@pingmon/sdk';
import { createClient } from '@pingmon/sdk';
import { eventDetail, eventLabel } from '@pingmon/sdk/wire';
import { TestClock } from '../helpers/clock.js';
import { TestServer } from '../helpers/server.js';

t.test("the management client reads a monitor's timeline, filtered and paged", async (t) => {
  const clock = new TestClock(Date.parse('2027-10-30T12:00:00Z'));
  const api = await TestServer.start(t, 'sqlite', { clock: clock.read });
  const alice = await api.account();
  const client = createClient({ baseUrl: api.url, token: alice.token });
  const { monitorId, slug } = await client.createMonitor({ name: 'nightly backup' });
  const minute = () => clock.advance(60_000);
  await api.ping(alice, monitorId, 'start', { runId: 'sdk-run-0001' });
  minute();
  await api.ping(alice, monitorId, 'fail', { runId: 'sdk-run-0001', errorMessage: 'exit code 2\nstack…' });
  minute();
  await client.snoozeMonitor(slug, '2027-10-30T18:00:00.000Z');
  minute();
  await client.pauseMonitor(monitorId);

  const { events, nextCursor } = await client.listEvents(slug);
  t.same(
    events.map((e) => e.kind),
    ['paused', 'snoozed', 'alert', 'incident_opened', 'run_failed', 'run_started'],
  );
  t.equal(nextCursor, null);
  const only = await client.listEvents(monitorId, { kind: ['paused', 'run_failed'] });
  t.same(
    only.events.map((e) => e.kind),
    ['paused', 'run_failed'],
    'several kinds',
  );
  t.same((await client.listEvents(monitorId, { kind: 'snoozed' })).events, [events[1]], 'one kind');
  t.same((await client.listEvents(monitorId, { kind: [] })).events, events, 'an empty list: every kind');

  const pages: MonitorEvent[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listEvents(monitorId, { limit: 4, cursor });
    pages.push(...page.events);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  t.same(pages, events, 'pages of 4 hold the same events');

  const failed = events.find((e) => e.kind === 'run_failed')!;
  t.equal(eventLabel(failed.kind), '✗ run failed');
  t.equal(eventDetail(failed), 'sdk-run-0001 in 1m 0s: exit code 2', 'the first line of the error message');
  t.equal(eventDetail(events[1]!), 'until 2027-10-30 18:00 UTC');

  const missing = await client.listEvents('mon_nope').catch((err: PingmonError) => err);
  t.match(missing, { status: 404, code: 'monitor_not_found' });
  const unknown = await client
    .listEvents(monitorId, { kind: 'exploded' as MonitorEvent['kind'] })
    .catch((err: PingmonError) => err);
  t.match(unknown, { status: 400, message: /"exploded" is not an event kind/ });
});
