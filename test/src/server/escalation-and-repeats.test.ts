import t from 'tap';
import type { Test } from 'tap';
import type { Alert, Monitor } from '@pingmon/sdk';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { json, startReceiver } from '../helpers/receiver.js';
import type { Received } from '../helpers/receiver.js';
import { startOnTestTime as setup } from '../helpers/test-time.js';
import type { OnTestTime as Setup } from '../helpers/test-time.js';
import { waitFor } from '../helpers/wait.js';

// Issue 29, point 6 (docs/alerts.md#repeats-and-escalation): a channel that repeats an open incident's alert, and one
// told of an incident only once it has stayed open a while; both on test time.

const MINUTE = 60_000;

/** A webhook channel with these settings on a local receiver; answers the event of each body it receives. */
async function channel(s: Setup, t: Test, fields: object): Promise<Received[]> {
  const receiver = await startReceiver(t, (_req, _n, res) => json(res, 200, {}));
  const reply = await s.api.request('/channels', {
    token: s.account.token,
    body: { type: 'webhook', url: `${receiver.url}/hook`, ...fields },
  });
  t.equal(reply.status, 201, reply.text);
  return receiver.received;
}

const events = (received: Received[]) => received.map((r) => (JSON.parse(r.body) as { event: string }).event);

/** Moves test time on a little at a time (the worker polls on it) until `received` holds `count` bodies. */
function until(s: Setup, received: Received[], count: number, what: string): Promise<string[]> {
  return waitFor(
    () => {
      s.clock.advance(100);
      return received.length >= count ? events(received) : undefined;
    },
    { what: `${count} message(s): ${what}` },
  );
}

/** Every delivery of the account's alerts has settled (none pending before `before`). */
async function settled(s: Setup, before: number): Promise<Alert[]> {
  return waitFor(async () => {
    s.clock.advance(100);
    const { alerts } = (await s.api.request<{ alerts: Alert[] }>('/alerts', { token: s.account.token })).body;
    const waiting = alerts.some((a) =>
      a.deliveries.some((d) => d.state === 'pending' && Date.parse(d.nextAttemptAt ?? '') < before),
    );
    return waiting ? undefined : alerts;
  });
}

async function createMonitor(s: Setup): Promise<Monitor> {
  const reply = await s.api.request<Monitor>('/monitors', { token: s.account.token, body: { name: 'backup' } });
  if (reply.status !== 201) throw new Error(`creating a monitor failed: ${reply.text}`);
  return reply.body;
}

for (const kind of DATABASE_KINDS) {
  t.test(`repeats and escalation on ${kind}`, async (t) => {
    t.test('an escalation channel hears of an incident still open after its wait, and of its recovery', async (t) => {
      const s = await setup(t, kind);
      const pager = await channel(s, t, { name: 'pager', escalateAfter: 600 });
      const m = await createMonitor(s);
      await s.api.ping(s.account, m.monitorId, 'fail', { errorMessage: 'disk full' });
      t.same(await until(s, s.hooks, 1, 'the chat channel at once'), ['fail']);
      t.same(events(pager), [], 'the pager waits');
      await settled(s, s.clock.now);
      s.clock.advance(9 * MINUTE);
      await settled(s, s.clock.now);
      t.same(events(pager), [], 'still waiting after 9 minutes');
      s.clock.advance(MINUTE);
      t.same(await until(s, pager, 1, 'the escalation'), ['fail']);
      await settled(s, s.clock.now);
      await s.api.ping(s.account, m.monitorId, 'success', {});
      t.same(await until(s, pager, 2, 'the recovery'), ['fail', 'recovered']);
      t.same(await until(s, s.hooks, 2, 'the recovery on chat'), ['fail', 'recovered']);
    });

    t.test('an incident closed within the wait never reaches the escalation channel', async (t) => {
      const s = await setup(t, kind);
      const pager = await channel(s, t, { name: 'pager', escalateAfter: 600 });
      const m = await createMonitor(s);
      await s.api.ping(s.account, m.monitorId, 'fail', { errorMessage: 'disk full' });
      t.same(await until(s, s.hooks, 1, 'the chat channel at once'), ['fail']);
      await settled(s, s.clock.now);
      s.clock.advance(2 * MINUTE);
      await s.api.ping(s.account, m.monitorId, 'success', {});
      t.same(await until(s, s.hooks, 2, 'fail and recovery on chat'), ['fail', 'recovered']);
      // The recovery's attempt on the pager ends before the jump: one still in flight would look expired after it.
      await settled(s, s.clock.now);
      s.clock.advance(15 * MINUTE);
      const alerts = await settled(s, s.clock.now);
      const toPager = alerts.flatMap((a) => a.deliveries.filter((d) => d.channelName === 'pager'));
      t.same(
        toPager.map((d) => d.state),
        ['skipped', 'skipped'],
        'the fail alert and the recovery, both skipped',
      );
      t.match(toPager[0]!.lastError ?? toPager[1]!.lastError, /closed .*before it was escalated/);
      t.same(events(pager), [], 'nothing was sent to it');
    });

    t.test('a repeating channel says it again while the incident is open, and stops at its recovery', async (t) => {
      const s = await setup(t, kind);
      const loud = await channel(s, t, { name: 'loud', repeatEvery: 300 });
      const m = await createMonitor(s);
      await s.api.ping(s.account, m.monitorId, 'fail', { errorMessage: 'disk full' });
      t.same(await until(s, loud, 1, 'the alert'), ['fail']);
      // Test time jumps only once no attempt is in flight: a jump past its lease would have it made again.
      await settled(s, s.clock.now);
      t.same(events(loud), ['fail'], 'not repeated before its time');
      s.clock.advance(5 * MINUTE);
      t.same(await until(s, loud, 2, 'the first repeat'), ['fail', 'fail']);
      t.equal(loud[1]!.body, loud[0]!.body, 'the same message');
      await settled(s, s.clock.now);
      s.clock.advance(5 * MINUTE);
      t.same(await until(s, loud, 3, 'the second repeat'), ['fail', 'fail', 'fail']);
      await settled(s, s.clock.now);
      await s.api.ping(s.account, m.monitorId, 'success', {});
      t.same(await until(s, loud, 4, 'the recovery'), ['fail', 'fail', 'fail', 'recovered']);
      await settled(s, s.clock.now);
      s.clock.advance(30 * MINUTE);
      const alerts = await settled(s, s.clock.now);
      t.same(events(loud), ['fail', 'fail', 'fail', 'recovered'], 'no repeat after the recovery');
      const fail = alerts.find((a) => a.event === 'fail')!;
      t.match(
        fail.deliveries.find((d) => d.channelName === 'loud'),
        { state: 'delivered' },
      );
      t.same(events(s.hooks), ['fail', 'recovered'], 'a channel without repeats said it once');
    });

    t.test('repeats and escalation are checked: at least a minute, at most a week', async (t) => {
      const s = await setup(t, kind);
      for (const [body, pattern] of [
        [{ repeatEvery: 30 }, /"repeatEvery" must be at least 60 seconds between repeats/],
        [{ escalateAfter: 8 * 86_400 }, /"escalateAfter" must be less than or equal to 604800/],
      ] as const) {
        const reply = await s.api.request<{ message: string }>('/channels', {
          token: s.account.token,
          body: { type: 'webhook', url: 'http://127.0.0.1:9/hook', ...body },
        });
        t.equal(reply.status, 400);
        t.match(reply.body.message, pattern);
      }
    });
  });
}
