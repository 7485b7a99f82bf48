import t from 'tap';
import { createClient } from '@pingmon/sdk';
import { App, createSource } from 'pingmon/internal';
import { TestClock } from '../../helpers/clock.js';
import { seedFailures } from '../../helpers/failure-fixtures.js';
import { TestServer } from '../../helpers/server.js';
import { KEYS, lines, renderScreen } from './ink.js';

// docs/cli.md#pingmon-browse: a failed run's failure (new, or first seen when and how often), and s, the monitor's
// runs that failed the same way, against a real server through the real SDK client.

t.test('pingmon browse: a run says how often its failure was seen, and s lists the runs that failed so', async (t) => {
  const clock = new TestClock();
  const api = await TestServer.start(t, 'sqlite', { clock: clock.read });
  const account = await api.account('unlimited');
  const seeded = await seedFailures(api, account, clock);
  const client = createClient({ baseUrl: api.url, token: account.token });
  const fingerprintOf = async (runId: string) => (await client.getRun(seeded.monitorId, runId)).fingerprint!;
  const refusedPrint = await fingerprintOf(seeded.refused[0]);
  const passwordPrint = await fingerprintOf(seeded.password);
  t.not(refusedPrint, passwordPrint, 'two causes, two fingerprints');
  t.equal(await fingerprintOf(seeded.refused[1]), refusedPrint, 'one cause on two nights, one fingerprint');

  const screen = renderScreen(App, {
    source: createSource(() => client),
    url: api.url,
    refreshMs: 60_000,
    now: clock.read,
  });
  t.teardown(screen.unmount);
  const selected = (frame: string) => lines(frame).find((line) => line.startsWith('▸')) ?? '';
  /** The start times of the runs listed, in order. */
  const listed = (frame: string) =>
    lines(frame)
      .map((line) => /(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)/.exec(line)?.[1])
      .filter((at) => at !== undefined);
  const starts = (...runIds: string[]) => runIds.map((runId) => seeded.startedAt[runId]);

  await screen.waitFor('db backup');
  screen.press(KEYS.enter);
  let frame = await screen.waitFor('db backup › Runs · all · 4 runs');
  t.same(listed(frame), starts(seeded.success, seeded.refused[0], seeded.password, seeded.refused[1]));
  t.notMatch(lines(frame).at(-1), /s same failure/, 'a success offers no s');
  screen.press('j');
  frame = await screen.waitFor((f) => selected(f).includes(seeded.startedAt[seeded.refused[0]]!));
  t.match(lines(frame).at(-1), /s same failure/, 'a failed run does: the status line says so');

  screen.press(KEYS.enter);
  frame = await screen.waitFor(`first seen 3d ago, 2 times (fingerprint ${refusedPrint})`);
  t.match(frame, new RegExp(`^Failure +first seen 3d ago, 2 times \\(fingerprint ${refusedPrint}\\)`, 'm'));
  t.match(lines(frame).at(-1), /s same failure/);

  screen.press('s');
  frame = await screen.waitFor(`db backup › Runs · same failure ${refusedPrint} · 2 runs`);
  t.same(listed(frame), starts(...seeded.refused), 'the two refused runs, and only them');
  t.match(lines(frame).at(-1), /s or Esc all runs/);
  screen.press('s');
  frame = await screen.waitFor('db backup › Runs · all · 4 runs');
  t.equal(listed(frame).length, 4, 's again: every run');

  screen.press('j', 'j');
  await screen.waitFor((f) => selected(f).includes(seeded.startedAt[seeded.password]!));
  screen.press(KEYS.enter);
  await screen.waitFor(`new failure (fingerprint ${passwordPrint})`);
  screen.press(KEYS.escape);
  await screen.waitFor('db backup › Runs · all · 4 runs');
  screen.press('s');
  frame = await screen.waitFor(`db backup › Runs · same failure ${passwordPrint} · 1 run`);
  t.same(listed(frame), starts(seeded.password), 'the password refused, alone');
  screen.press(KEYS.escape);
  frame = await screen.waitFor('db backup › Runs · all · 4 runs');
  t.equal(listed(frame).length, 4, 'Esc: every run again, still on the monitor');
  screen.press(KEYS.escape);
  await screen.waitFor(/^Monitors · 1/m);

  screen.press('?');
  frame = await screen.waitFor('Times are UTC');
  t.match(frame, /^ {3}s +failed run: the runs that failed the same way/m, 'the help lists s');
});
