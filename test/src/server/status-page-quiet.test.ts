import t from 'tap';
import { TestClock } from '../helpers/clock.js';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { request } from '../helpers/http.js';
import { TestServer } from '../helpers/server.js';
import { TEST_TIME } from '../helpers/test-time.js';

// A run missed while its monitor was snoozed opens no incident (docs/schedules.md): on the status page its day is
// not red, while the same miss of a monitor that was not snoozed is.

for (const kind of DATABASE_KINDS) {
  t.test(`a run missed while snoozed leaves its day grey, on ${kind}`, async (t) => {
    const clock = new TestClock(Date.parse('2027-03-25T12:00:00.000Z'));
    const api = await TestServer.start(t, kind, { ...TEST_TIME, clock: clock.read });
    const account = await api.account();
    const daily = { schedule: { every: 86400 }, startGrace: 3600 };
    const ids: string[] = [];
    for (const name of ['Quiet job', 'Loud job']) {
      const reply = await api.request('/monitors', { token: account.token, body: { name, ...daily } });
      t.equal(reply.status, 201, reply.text);
      ids.push(reply.body.monitorId);
    }
    clock.set('2027-03-25T13:00:00.000Z');
    for (const id of ids) t.equal((await api.ping(account, id, 'success')).status, 200);
    clock.set('2027-03-26T10:00:00.000Z');
    const snooze = { snoozedUntil: '2027-03-26T20:00:00.000Z' };
    const snoozed = await api.request(`/monitors/${ids[0]}`, { method: 'PATCH', token: account.token, body: snooze });
    t.equal(snoozed.status, 200, snoozed.text);
    // The first sweep after a day without one gives the deadlines a fresh grace; the next finds both runs missed.
    for (const at of ['2027-03-26T15:00:00.000Z', '2027-03-26T17:00:00.000Z']) {
      clock.set(at);
      await api.server.app.sweeper.sweepNow();
    }
    clock.set('2027-03-27T12:00:00.000Z');
    const set = await api.request('/status-page', {
      method: 'PUT',
      token: account.token,
      body: { slug: 'quiet', monitorIds: ids },
    });
    t.equal(set.status, 200, set.text);
    const html = (await request(`${api.url.replace(/\/api\/v1$/, '')}/status/quiet`)).text;
    const day = (name: string) =>
      new RegExp(`aria-label="${name}, the last 90 days">.*?<li class="day-(\\w+)" title="26 Mar 2027: ([^"]*)"`)
        .exec(html)
        ?.slice(1);
    t.same(day('Loud job'), ['failed', '1 missed run']);
    t.same(day('Quiet job'), ['none', 'no runs recorded']);
  });
}
