import t from 'tap';
import type { PingmonError } from '@pingmon/sdk';
import { createClient } from '@pingmon/sdk';
import { TestClock } from '../helpers/clock.js';
import { TestServer } from '../helpers/server.js';

t.test('the management client covers schedules, pause and the expected times', async (t) => {
  const clock = new TestClock(Date.parse('2027-10-30T12:00:00Z'));
  const api = await TestServer.start(t, 'sqlite', { clock: clock.read });
  const alice = await api.account();
  const client = createClient({ baseUrl: api.url, token: alice.token });
  const created = await client.createMonitor({
    name: 'nightly backup',
    schedule: { cron: '30 2 * * *', timezone: 'Europe/Berlin' },
    startGrace: 600,
    maxRuntime: 7200,
    failureThreshold: 2,
    renotifyAfter: 3600,
  });
  t.match(created, {
    status: 'new',
    schedule: { cron: '30 2 * * *', timezone: 'Europe/Berlin' },
    nextExpectedAt: '2027-10-31T00:30:00.000Z',
    startGrace: 600,
    maxRuntime: 7200,
    failureThreshold: 2,
    recoveryThreshold: 1,
    renotifyAfter: 3600,
    paused: false,
  });
  const expected = await client.listExpected(created.monitorId, 2);
  t.same(expected, {
    timezone: 'Europe/Berlin',
    times: [
      { at: '2027-10-31T00:30:00.000Z', local: '2027-10-31T02:30:00+02:00', zone: 'CEST' },
      { at: '2027-11-01T01:30:00.000Z', local: '2027-11-01T02:30:00+01:00', zone: 'CET' },
    ],
  });
  t.equal((await client.listExpected(created.monitorId)).times.length, 5, 'five by default');
  t.match(await client.pauseMonitor(created.monitorId), { paused: true, status: 'paused', nextExpectedAt: null });
  t.match(await client.resumeMonitor(created.monitorId), { paused: false, status: 'new' });
  t.match(await client.updateMonitor(created.monitorId, { schedule: null, maxRuntime: null }), {
    schedule: null,
    maxRuntime: null,
    nextExpectedAt: null,
  });
  const refused = (await client
    .updateMonitor(created.monitorId, { schedule: { cron: '0 3 * * *', timezone: 'Berlin' } })
    .catch((err: unknown) => err)) as PingmonError;
  t.match(refused, { status: 400, code: 'invalid_schedule', message: /unknown timezone "Berlin"/ });
});
