import { request as httpRequest } from 'node:http';
import t from 'tap';
import { stopGracefully } from '@pingmon/server';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { json, startReceiver } from '../helpers/receiver.js';
import { TestServer } from '../helpers/server.js';
import { waitFor } from '../helpers/wait.js';

for (const kind of DATABASE_KINDS) {
  t.test(`on ${kind}, a graceful stop names the attempts it waits for and ends once they are answered`, async (t) => {
    const api = await TestServer.start(t, kind, { alertPollMs: 50, alertTimeoutMs: 30_000 });
    const alice = await api.account();
    let answer: (() => void) | undefined;
    const held = await startReceiver(t, (_req, _n, res) => {
      answer = () => json(res, 200, {});
    });
    const m = await api.monitor(alice);
    await api.request('/channels', { token: alice.token, body: { type: 'webhook', url: held.url } });
    await api.ping(alice, m, 'fail', { errorMessage: 'x' });
    await waitFor(() => answer, { what: 'the attempt in flight' });

    const waitingFor: number[] = [];
    const stopping = stopGracefully(api.server, {
      onWaiting: (n) => waitingFor.push(n),
      onStuck: () => t.fail('stuck'),
    });
    let ended = false;
    void stopping.done.then(() => (ended = true));
    await waitFor(() => waitingFor.length > 0, { what: 'the notice of attempts in flight' });
    t.same(waitingFor, [1]);
    t.notOk(ended, 'the stop waits for the attempt');
    answer!();
    await stopping.done;
    t.equal(held.received.length, 1, 'the receiver got the alert once');
  });

  t.test(`on ${kind}, abandoning a stop ends it without waiting for the alert attempt in flight`, async (t) => {
    const api = await TestServer.start(t, kind, { alertPollMs: 50, alertTimeoutMs: 30_000 });
    const alice = await api.account();
    const held = await startReceiver(t, () => undefined);
    const m = await api.monitor(alice);
    await api.request('/channels', { token: alice.token, body: { type: 'webhook', url: held.url } });
    await api.ping(alice, m, 'fail', { errorMessage: 'x' });
    await waitFor(() => held.received.length === 1, { what: 'the attempt in flight' });

    let waiting = false;
    const stopping = stopGracefully(api.server, { onWaiting: () => (waiting = true), onStuck: () => t.fail('stuck') });
    await waitFor(() => waiting, { what: 'the notice of attempts in flight' });
    stopping.abandon();
    await stopping.done;
    t.pass('the stop ended with the attempt unanswered');
  });
}

t.test('an abandoned stop that a request in flight still holds is reported stuck after 3 s', async (t) => {
  const api = await TestServer.start(t, 'sqlite');
  const alice = await api.account();
  const m = await api.monitor(alice);
  // A request whose body never ends: the server asks for it (100 Continue) once the key and monitor passed.
  const req = httpRequest(`${api.url}/ping/${m}/fail`, {
    method: 'POST',
    headers: {
      'x-api-key': alice.apiKey,
      'content-type': 'text/plain',
      'transfer-encoding': 'chunked',
      expect: '100-continue',
    },
  });
  req.on('error', () => undefined);
  await new Promise<void>((resolve) => {
    req.on('continue', () => resolve());
    req.flushHeaders();
  });
  req.write('a log that never ends');

  const stuck: number[] = [];
  const stopping = stopGracefully(api.server, {
    onWaiting: () => t.fail('no attempt was in flight'),
    onStuck: (ms) => stuck.push(ms),
  });
  stopping.abandon();
  await waitFor(() => stuck.length > 0, { what: 'the stuck notice' });
  t.same(stuck, [3_000]);
  req.destroy();
  await stopping.done;
});
