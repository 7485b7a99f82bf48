import t from 'tap';
import type { Alert, MaintenanceWindow, Monitor } from '@pingmon/sdk';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { waitFor } from '../helpers/wait.js';
import { startOnTestTime as setup } from '../helpers/test-time.js';
import type { OnTestTime as Setup } from '../helpers/test-time.js';

// Quiet on purpose (docs/schedules.md#snooze-and-maintenance-windows): snoozes and maintenance windows hold alerts
// back, a slot expected in them does not count, and at their end one alert goes out if the problem is still there.

const MINUTE = 60_000;

async function createMonitor(s: Setup, body: object = {}): Promise<Monitor> {
  const reply = await s.api.request<Monitor>('/monitors', { token: s.account.token, body: { name: 'job', ...body } });
  if (reply.status !== 201) throw new Error(`creating a monitor failed: ${reply.text}`);
  return reply.body;
}

const patch = (s: Setup, id: string, body: object) =>
  s.api.request<Monitor>(`/monitors/${id}`, { method: 'PATCH', token: s.account.token, body });

const getMonitor = async (s: Setup, id: string) =>
  (await s.api.request<Monitor>(`/monitors/${id}`, { token: s.account.token })).body;

const eventsOf = async (s: Setup, monitorId: string) =>
  (await s.api.request<{ alerts: Alert[] }>(`/alerts?monitorId=${monitorId}`, { token: s.account.token })).body.alerts
    .map((a) => a.event)
    .reverse();

const addWindow = async (s: Setup, body: object) => {
  const reply = await s.api.request<MaintenanceWindow>('/maintenance-windows', { token: s.account.token, body });
  if (reply.status !== 201) throw new Error(`adding a window failed: ${reply.text}`);
  return reply.body;
};

const sweep = (s: Setup) => s.api.server.app.sweeper.sweepNow();

const fail = (s: Setup, id: string) => s.api.ping(s.account, id, 'fail', { errorMessage: 'exit code 1' });
const succeed = (s: Setup, id: string) => s.api.ping(s.account, id, 'success');

/** The webhook bodies received for this monitor, once `count` of them have come. */
function hooksFor(s: Setup, monitorId: string, count: number) {
  return waitFor(
    () => {
      const mine = s.hooks.map((h) => JSON.parse(h.body)).filter((b) => b.monitorId === monitorId);
      return mine.length >= count ? mine : undefined;
    },
    { what: `${count} webhook(s) for ${monitorId}` },
  );
}

for (const kind of DATABASE_KINDS) {
  t.test(`quiet on purpose on ${kind}`, async (t) => {
    t.test('snoozed: runs are recorded, nothing alerts; at the end one alert if still down, none if up', async (t) => {
      const s = await setup(t, kind);
      const [stays, recovers, before] = [await createMonitor(s), await createMonitor(s), await createMonitor(s)];
      t.equal((await fail(s, before.monitorId)).status, 200);
      t.same(await eventsOf(s, before.monitorId), ['fail'], 'down (and told) before the snooze');
      const until = '2027-03-27T14:00:00.000Z';
      for (const m of [stays, recovers, before]) {
        const snoozed = await patch(s, m.monitorId, { snoozedUntil: until });
        t.match(snoozed, { status: 200, body: { snoozedUntil: until } });
      }
      s.clock.advance(10 * MINUTE);
      for (const m of [stays, recovers, before]) t.equal((await fail(s, m.monitorId)).status, 200);
      s.clock.advance(10 * MINUTE);
      t.equal((await succeed(s, recovers.monitorId)).status, 200);
      const runs = await s.api.request(`/monitors/${stays.monitorId}/runs`, { token: s.account.token });
      t.match(runs.body.runs, [{ status: 'failed', errorMessage: 'exit code 1' }], 'the failed run is recorded');
      t.match(await getMonitor(s, stays.monitorId), { status: 'down', snoozedUntil: until });
      s.clock.set('2027-03-27T13:59:59.000Z');
      await sweep(s);
      for (const m of [stays, recovers]) t.same(await eventsOf(s, m.monitorId), [], 'nothing while snoozed');
      t.same(await eventsOf(s, before.monitorId), ['fail'], 'nothing more while snoozed');
      s.clock.set('2027-03-27T14:00:01.000Z');
      await sweep(s);
      await sweep(s);
      t.same(await eventsOf(s, stays.monitorId), ['fail'], 'still down at the end: its alert, once');
      t.same(await eventsOf(s, recovers.monitorId), [], 'up again before the end: nothing');
      t.same(await eventsOf(s, before.monitorId), ['fail', 'still_down'], 'down since before: a reminder');
      const [hook] = await hooksFor(s, stays.monitorId, 1);
      t.match(hook, {
        event: 'fail',
        status: 'down',
        errorMessage: /^Still down at the end of its quiet time .*Alerts were held back from 2027-03-27T12:10:00/,
      });
      t.match(await getMonitor(s, stays.monitorId), { snoozedUntil: null, status: 'down' });
      t.equal((await fail(s, stays.monitorId)).status, 200);
      t.same(await eventsOf(s, stays.monitorId), ['fail', 'fail'], 'after the snooze, failures alert again');
    });

    t.test('a snooze ended early (null) releases its held alert at the next sweep', async (t) => {
      const s = await setup(t, kind);
      const m = await createMonitor(s);
      await patch(s, m.monitorId, { snoozedUntil: '2027-03-28T12:00:00.000Z' });
      await fail(s, m.monitorId);
      await sweep(s);
      t.same(await eventsOf(s, m.monitorId), []);
      t.match(await patch(s, m.monitorId, { snoozedUntil: null }), { status: 200, body: { snoozedUntil: null } });
      await sweep(s);
      t.same(await eventsOf(s, m.monitorId), ['fail']);
    });

    t.test('a slot expected in a maintenance window does not count; the windows of others do not apply', async (t) => {
      const s = await setup(t, kind);
      const schedule = { cron: '0 * * * *', timezone: 'UTC' };
      const covered = await createMonitor(s, { schedule, startGrace: 300 });
      const other = await createMonitor(s, { schedule, startGrace: 300 });
      const window = await addWindow(s, {
        cron: '0 13 * * *',
        timezone: 'UTC',
        duration: 3600,
        monitorIds: [covered.monitorId],
      });
      t.match(window, { monitorIds: [covered.monitorId], activeUntil: null, nextStartAt: '2027-03-27T13:00:00.000Z' });
      s.clock.set('2027-03-27T13:06:00.000Z');
      await sweep(s);
      t.match(await getMonitor(s, covered.monitorId), {
        status: 'new',
        incident: null,
        nextExpectedAt: '2027-03-27T14:00:00.000Z',
      });
      t.same(await eventsOf(s, covered.monitorId), [], 'the 13:00 slot was in the window');
      t.same(await eventsOf(s, other.monitorId), ['missed'], 'not in the window');
      s.clock.set('2027-03-27T14:06:00.000Z');
      await sweep(s);
      t.match(await getMonitor(s, covered.monitorId), { status: 'down', incident: { cause: 'missed' } });
      t.same(await eventsOf(s, covered.monitorId), ['missed'], 'after the window, a missed slot counts again');
    });

    t.test('a window for the account covers every monitor; at its end, only those still down alert', async (t) => {
      const s = await setup(t, kind);
      const monitors = [await createMonitor(s), await createMonitor(s), await createMonitor(s)];
      const window = await addWindow(s, { cron: '0 12 * * *', duration: 3600 });
      t.match(window, { timezone: 'UTC', monitorIds: null, activeUntil: '2027-03-27T13:00:00.000Z' });
      s.clock.advance(10 * MINUTE);
      for (const m of monitors) await fail(s, m.monitorId);
      await succeed(s, monitors[2]!.monitorId);
      await sweep(s);
      for (const m of monitors) t.same(await eventsOf(s, m.monitorId), [], 'nothing in the window');
      s.clock.set('2027-03-27T13:00:00.000Z');
      await sweep(s);
      t.same(await eventsOf(s, monitors[0]!.monitorId), ['fail']);
      t.same(await eventsOf(s, monitors[1]!.monitorId), ['fail']);
      t.same(await eventsOf(s, monitors[2]!.monitorId), [], 'recovered in the window');
      const list = await s.api.request('/maintenance-windows', { token: s.account.token });
      t.match(list.body, { maintenanceWindows: [{ windowId: window.windowId }], nextCursor: null });
      const removed = await s.api.request(`/maintenance-windows/${window.windowId}`, {
        method: 'DELETE',
        token: s.account.token,
      });
      t.equal(removed.status, 204);
      const again = await s.api.request(`/maintenance-windows/${window.windowId}`, {
        method: 'DELETE',
        token: s.account.token,
      });
      t.match(again, { status: 404, body: { code: 'maintenance_window_not_found' } });
    });
  });
}

t.test('bad snoozes and windows are 400s that say what to give', async (t) => {
  const s = await setup(t, 'sqlite');
  const m = await createMonitor(s);
  const badSnooze = async (snoozedUntil: unknown, message: RegExp) => {
    const reply = await patch(s, m.monitorId, { snoozedUntil });
    t.match(reply, { status: 400, body: { code: 'invalid_snooze', message } }, JSON.stringify(snoozedUntil));
  };
  await badSnooze('2027-03-27T11:00:00.000Z', /is not in the future .*give a later time, or null to end the snooze/);
  await badSnooze('tomorrow', /^snoozedUntil must be an ISO 8601 time such as/);
  await badSnooze('2029-03-27T11:00:00.000Z', /over a year ahead: pause the monitor instead/);
  t.equal((await getMonitor(s, m.monitorId)).snoozedUntil, null, 'nothing was changed');
  const badWindow = async (body: object, message: RegExp, code = 'invalid_maintenance_window') => {
    const reply = await s.api.request('/maintenance-windows', { token: s.account.token, body });
    t.match(reply, { status: 400, body: { code, message } }, JSON.stringify(body));
  };
  await badWindow({ cron: '0 2 * *', duration: 3600 }, /^cron: "0 2 \* \*" has 4 field\(s\); use 5/);
  await badWindow({ cron: '0 2 * * 0', timezone: 'Europe/Berln', duration: 3600 }, /unknown timezone "Europe\/Berln"/);
  await badWindow({ cron: '0 2 * * 0', duration: 10 }, /^duration must be a whole number of seconds from 60/);
  await badWindow({ cron: '0 2 * * 0' }, /^duration must be/);
  await badWindow({ cron: '0 2 * * 0', duration: 60, tz: 'UTC' }, /"tz" is not a maintenance window field/);
  await badWindow(
    { cron: '0 2 * * 0', duration: 60, monitorIds: ['mon_nope'] },
    /no monitor mon_nope in your account/,
    'unknown_monitor',
  );
  t.same((await s.api.request('/maintenance-windows', { token: s.account.token })).body.maintenanceWindows, []);
});
