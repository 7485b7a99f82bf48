import t from 'tap';
import { createClient } from '@pingmon/sdk';
import { App, createSource } from 'pingmon/internal';
import { TestServer } from '../../helpers/server.js';
import { KEYS, lines, renderScreen } from './ink.js';

// z in the dashboard snoozes the monitor under the cursor (docs/cli.md): 1h, pressed again 4h, 1d, then none.

const rowOf = (frame: string, name: string) => lines(frame).find((line) => line.includes(name)) ?? '';

t.test('pingmon browse: z snoozes the monitor, shows for how long, and steps through the snoozes', async (t) => {
  const api = await TestServer.start(t, 'sqlite');
  const account = await api.account('unlimited');
  const client = createClient({ baseUrl: api.url, token: account.token });
  await client.createMonitor({ name: 'a quiet job' });
  const noisy = await client.createMonitor({ name: 'b noisy job' });

  const screen = renderScreen(App, { source: createSource(() => client), url: api.url, refreshMs: 60_000 });
  t.teardown(screen.unmount);
  await screen.waitFor('b noisy job');
  screen.press(KEYS.down, 'z');
  let frame = await screen.waitFor((f) => /b noisy job · snoozed (59m|1h)/.test(f));
  t.match(rowOf(frame, 'b noisy job'), /^▸/, 'the cursor stays on it');
  t.notMatch(rowOf(frame, 'a quiet job'), /snoozed/);
  const until = Date.parse((await client.getMonitor(noisy.monitorId)).snoozedUntil ?? '');
  t.ok(Math.abs(until - (Date.now() + 3_600_000)) < 60_000, 'snoozed for an hour on the server');

  screen.press('z');
  await screen.waitFor((f) => /b noisy job · snoozed (3h|4h)/.test(f));
  screen.press('z');
  await screen.waitFor((f) => /b noisy job · snoozed (23h|1d)/.test(f));
  screen.press('z');
  await screen.waitFor((f) => /b noisy job\s/.test(f) && !/snoozed/.test(f));
  t.equal((await client.getMonitor(noisy.monitorId)).snoozedUntil, null, 'after 1d: no snooze');
  screen.press('?');
  frame = await screen.waitFor('Symbols');
  t.match(frame, /z\s+monitors: snooze 1h; again: 4h, 1d, then no snooze/);
});
