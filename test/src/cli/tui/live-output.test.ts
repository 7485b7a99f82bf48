import t from 'tap';
import { createClient } from '@pingmon/sdk';
import { App, createSource } from 'pingmon/internal';
import { TestServer } from '../../helpers/server.js';
import { KEYS, renderScreen } from './ink.js';

// docs/cli.md#pingmon-browse: a running run's view shows its live output as it arrives, read once a second, and its
// stored log once it ends; against a real server through the real SDK client, the output sent as pingmon run does.

t.test("pingmon browse: a running run's view shows its output live, then its log", async (t) => {
  const api = await TestServer.start(t, 'sqlite');
  const account = await api.account('unlimited');
  const monitorId = await api.monitor(account, 'live job');
  const runId = 'run-live-tui-01';
  const send = async (offset: number, text: string) => {
    const body = { runId, offset, text };
    const reply = await api.request(`/ping/${monitorId}/output`, { method: 'POST', apiKey: account.apiKey, body });
    t.equal(reply.status, 200, reply.text);
  };
  t.equal((await api.ping(account, monitorId, 'start', { runId })).status, 200);
  await send(0, 'copying part 1\n');

  const client = createClient({ baseUrl: api.url, token: account.token });
  const screen = renderScreen(App, { source: createSource(() => client), url: api.url, refreshMs: 60_000 });
  t.teardown(screen.unmount);
  await screen.waitFor('live job');
  screen.press(KEYS.enter);
  await screen.waitFor('live job › Runs · all · 1 run');
  screen.press(KEYS.enter);
  let frame = await screen.waitFor('copying part 1');
  t.match(frame, /^Output +\d+ characters · live/m, 'headed as live output');
  await send(15, 'copying part 2\n');
  frame = await screen.waitFor('copying part 2');
  t.match(frame, /copying part 1[^\n]*\n[^\n]*copying part 2/, 'appended');

  const fail = { runId, errorMessage: 'exit code 1', logOutput: 'copying part 1\ncopying part 2\ndisk full\n' };
  t.equal((await api.ping(account, monitorId, 'fail', fail)).status, 200);
  frame = await screen.waitFor('disk full');
  t.match(frame, /^Log +/m, 'the stored log, once the run ended');
});
