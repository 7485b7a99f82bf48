import t from 'tap';
import { createClient } from '@pingmon/sdk';
import { App, createSource } from 'pingmon/internal';
import { TestServer } from '../../helpers/server.js';
import { KEYS, lines, renderScreen } from './ink.js';

// A monitor's runs view says what its runs say about its schedule (docs/schedules.md#schedule-hints).

t.test("pingmon browse shows a monitor's scheduleHint above its runs", async (t) => {
  const api = await TestServer.start(t, 'sqlite');
  const account = await api.account('unlimited');
  const client = createClient({ baseUrl: api.url, token: account.token });
  const daily = await client.createMonitor({ name: 'daily job', schedule: { every: 3600 } });
  await client.createMonitor({ name: 'quiet job', schedule: { every: 3600 } });
  // Five runs a day apart, sent late with their own times: a daily job on an hourly schedule.
  for (let day = 5; day >= 1; day--) {
    const timestamp = new Date(Date.now() - day * 86_400_000).toISOString();
    t.equal((await api.ping(account, daily.monitorId, 'success', { timestamp })).status, 200);
  }

  const screen = renderScreen(App, { source: createSource(() => client), url: api.url, refreshMs: 60_000 });
  t.teardown(screen.unmount);
  await screen.waitFor('quiet job');
  screen.press('/', 'daily', KEYS.enter, KEYS.enter);
  const frame = await screen.waitFor('5 runs');
  t.match(
    lines(frame)[2],
    /^△ Runs open about every 1d, but the schedule expects one about every 1h; is the schedule right\?/,
    'under the title',
  );
  screen.press(KEYS.escape);
  await screen.waitFor((f) => /^Monitors/.test(lines(f)[1] ?? ''));
  screen.press('/', KEYS.escape, '/', 'quiet', KEYS.enter, KEYS.enter);
  const quiet = await screen.waitFor('No runs yet');
  t.notMatch(quiet, /△/, 'nothing to say: no line');
});
