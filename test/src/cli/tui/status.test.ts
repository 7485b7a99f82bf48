import t from 'tap';
import { createClient } from '@pingmon/sdk';
import { App, createSource } from 'pingmon/internal';
import { TestServer } from '../../helpers/server.js';
import { KEYS, lines, renderScreen } from './ink.js';

// Schedules in the dashboard: each monitor's status and next expected run, and p to pause or resume one.

const rowOf = (frame: string, name: string) => lines(frame).find((line) => line.includes(name)) ?? '';

t.test('pingmon browse shows status and next expected run, and p pauses and resumes', async (t) => {
  const api = await TestServer.start(t, 'sqlite');
  const account = await api.account('unlimited');
  const client = createClient({ baseUrl: api.url, token: account.token });
  const hourly = await client.createMonitor({ name: 'hourly export', schedule: { every: 3600 } });
  const broken = await client.createMonitor({ name: 'broken job' });
  await api.ping(account, broken.monitorId, 'fail', { errorMessage: 'exit code 1' });
  await client.createMonitor({ name: 'held job', paused: true });

  const screen = renderScreen(App, { source: createSource(() => client), url: api.url, refreshMs: 60_000 });
  t.teardown(screen.unmount);
  let frame = await screen.waitFor('held job');
  t.match(lines(frame)[1], /^Monitors · 3 · 1 down$/);
  t.match(lines(frame)[3], /^\s+STATUS\s+NAME  SLUG\s+LAST RUN\s+NEXT\s+DURATION\s+FAILS$/);
  const names = lines(frame)
    .slice(4, 7)
    .map((line) => /(hourly export|broken job|held job)/.exec(line)?.[1]);
  t.same(names, ['broken job', 'hourly export', 'held job'], 'down first, paused last');
  t.match(rowOf(frame, 'broken job'), /^▸ ✗ down\s+broken job  broken-job\s+✗ (just now|\d+s ago)\s+—/);
  t.match(rowOf(frame, 'hourly export'), /^  · new\s+hourly export  hourly-export\s+never\s+in (59m|1h)\s+—/);
  t.match(rowOf(frame, 'held job'), /^  - paused\s+held job  held-job\s+never\s+—/);

  screen.press(KEYS.down, 'p');
  frame = await screen.waitFor((f) => /- paused\s+hourly export/.test(f));
  t.match(
    rowOf(frame, 'hourly export'),
    /- paused\s+hourly export  hourly-export\s+never\s+—/,
    'paused: nothing expected',
  );
  t.equal((await client.getMonitor(hourly.monitorId)).paused, true, 'and so it is on the server');
  t.match(rowOf(frame, 'hourly export'), /^▸/, 'the cursor stays on the monitor as it moves down the list');

  screen.press('p');
  await screen.waitFor((f) => /· new\s+hourly export/.test(f));
  t.equal((await client.getMonitor(hourly.monitorId)).paused, false, 'resumed');
  screen.press('?');
  frame = await screen.waitFor('Symbols');
  t.match(frame, /p\s+monitors: pause or resume the monitor/);
  t.match(frame, /✗ down\s+! late\s+● running\s+✓ up\s+· new\s+- paused/);
});
