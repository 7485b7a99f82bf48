import t from 'tap';
import { createClient } from '@pingmon/sdk';
import { App, createSource } from 'pingmon/internal';
import { TestServer } from '../../helpers/server.js';
import { KEYS, lines, renderScreen } from './ink.js';

// Only the rows on screen are drawn: 10,000 runs loaded cost no more per key than 10.

const RUNS = 10_000;

t.test('10,000 runs: paged in as the cursor reaches the end, and every key answers with one screen', async (t) => {
  // RUNS + 1 runs are more than a monitor keeps by default (10,000): on a slow machine a retention pass pruned one.
  const api = await TestServer.start(t, 'sqlite', { retentionRuns: null });
  const account = await api.account('unlimited');
  const monitorId = await api.monitor(account, 'chatty');
  for (let i = 0; i < RUNS; i += 50)
    await Promise.all(Array.from({ length: 50 }, () => api.ping(account, monitorId, 'success')));
  await api.ping(account, monitorId, 'fail', { errorMessage: 'the newest run failed' });

  const source = createSource(() => createClient({ baseUrl: api.url, token: account.token }));
  const screen = renderScreen(App, { source, url: api.url, refreshMs: 60_000 }, { columns: 100, rows: 30 });
  t.teardown(screen.unmount);
  await screen.waitFor('chatty');
  screen.press(KEYS.enter);
  await screen.waitFor('100+ runs');

  let loaded = 100;
  while (loaded < RUNS + 1) {
    screen.press('G');
    const frame = await screen.waitFor((f) => runCount(f) > loaded);
    loaded = runCount(frame);
  }
  t.match(screen.frame(), /chatty › Runs · all · 10,001 runs\n/, 'every page loaded, none twice');

  // The cursor at either end of 10,001 runs, a page at a time, one row at a time: each answered within
  // the wait's 5 s (how fast is printed, not held to a tighter bound on a busy machine), one screen of rows drawn.
  const slowest = { ms: 0 };
  const timed = async (keys: string[], expect: (frame: string) => boolean) => {
    const started = performance.now();
    screen.press(...keys);
    await screen.waitFor(expect, 5_000);
    slowest.ms = Math.max(slowest.ms, performance.now() - started);
  };
  await timed(['g'], (f) => selectedLine(f).includes('the newest run failed'));
  await timed([KEYS.pageDown], (f) => !selectedLine(f).includes('failed'));
  await timed(['G'], (f) => lines(f).at(-2)!.startsWith('▸'));
  await timed([KEYS.up], (f) => lines(f).at(-3)!.startsWith('▸'));
  t.comment(`slowest key took ${Math.round(slowest.ms)} ms`);

  const frame = screen.frame();
  t.equal(lines(frame).length, 29, 'one screen of rows, not 10,001');
  t.equal(
    lines(frame).filter((line) => /^[▸ ] [✓✗]/.test(line)).length,
    29 - 5,
    'the visible rows only: all but header, title, notice, column names and footer',
  );
});

function runCount(frame: string): number {
  const match = /· ([\d,]+)\+? runs?/.exec(frame);
  return match ? Number(match[1]!.replace(/,/g, '')) : 0;
}

function selectedLine(frame: string): string {
  return lines(frame).find((line) => line.startsWith('▸')) ?? '';
}
