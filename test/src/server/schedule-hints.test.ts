import t from 'tap';
import type { Monitor, MonitorList } from '@pingmon/sdk';
import { TestClock } from '../helpers/clock.js';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { TestServer } from '../helpers/server.js';
import { TEST_TIME } from '../helpers/test-time.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

for (const kind of DATABASE_KINDS) {
  t.test(`scheduleHint on ${kind}: said after five runs, for one monitor, not in lists`, async (t) => {
    const clock = new TestClock(Date.parse('2027-06-01T00:00:00Z'));
    const api = await TestServer.start(t, kind, { ...TEST_TIME, clock: clock.read });
    const account = await api.account();
    const get = async (id: string) => (await api.request<Monitor>(`/monitors/${id}`, { token: account.token })).body;
    const create = async (body: object) => {
      const reply = await api.request<Monitor>('/monitors', { token: account.token, body });
      t.equal(reply.status, 201, 'created');
      t.equal(reply.body.scheduleHint, null, 'a new monitor has nothing to say');
      return reply.body.monitorId;
    };
    // The crontab says 03:00 on a host in Europe/Berlin; the monitor was given UTC. And a second job, on time.
    const wrong = await create({ name: 'backup', schedule: { cron: '0 3 * * *' } });
    const right = await create({ name: 'report', schedule: { cron: '0 3 * * *' }, startGrace: 600 });
    for (let day = 0; day < 6; day++) {
      clock.set(new Date(Date.parse('2027-06-01T01:00:00Z') + day * DAY).toISOString());
      await api.ping(account, wrong, 'start', { runId: `backup-run-${day}` });
      await api.ping(account, wrong, 'success', { runId: `backup-run-${day}` });
      // Within its grace of ten minutes, a little later each day.
      clock.advance(2 * HOUR + day * 90_000);
      await api.ping(account, right, 'success');
      if (day === 3) t.equal((await get(wrong)).scheduleHint, null, 'four runs: nothing yet');
    }
    t.match(await get(wrong), {
      scheduleHint: {
        kind: 'offset',
        message: "Runs open about 2h before the schedule's time; is the timezone Europe/Berlin rather than UTC?",
        runs: 6,
        offsetMinutes: -120,
        timezone: 'Europe/Berlin',
      },
    });
    t.equal((await get(right)).scheduleHint, null, 'jitter within the grace');

    const list = (await api.request<MonitorList>('/monitors', { token: account.token })).body;
    t.notOk(
      list.monitors.some((m) => 'scheduleHint' in m),
      'lists leave it out',
    );

    // The answer of a change has it too, judged on the new schedule: Europe/Berlin fits the runs.
    const patched = await api.request<Monitor>(`/monitors/${wrong}`, {
      method: 'PATCH',
      token: account.token,
      body: { schedule: { cron: '0 3 * * *', timezone: 'Europe/Berlin' } },
    });
    t.equal(patched.status, 200);
    t.equal(patched.body.scheduleHint, null, 'the right zone: nothing to say');
    const weekly = await api.request<Monitor>(`/monitors/${wrong}`, {
      method: 'PATCH',
      token: account.token,
      body: { schedule: { cron: '0 3 * * 1', timezone: 'Europe/Berlin' } },
    });
    t.match(weekly.body.scheduleHint, { kind: 'rhythm', observedEvery: 86_400, expectedEvery: 7 * 86_400 });
  });
}
