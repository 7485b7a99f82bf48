import t from 'tap';
import type { DayCounts } from '@pingmon/server/internal';
import { badgeSvg, DAY_MS, dayBars, textWidth, UPTIME_DAYS, uptimeRange, uptimeShare } from '@pingmon/server/internal';

// A status page's day bars (domain/uptime.ts), decided from counts by day: table-driven, time passed in.

const NOW = Date.parse('2027-03-27T12:00:00.000Z');
const counts = (runs: number, failed = 0, missed = 0, timedOut = 0): DayCounts => ({ runs, failed, missed, timedOut });

t.test('the range starts at UTC midnight 89 days before today and ends now', async (t) => {
  const range = uptimeRange(NOW);
  t.equal(new Date(range.from).toISOString(), '2026-12-28T00:00:00.000Z');
  t.equal(range.to, NOW + 1);
  t.equal(range.dayMs, DAY_MS);
  t.equal(uptimeRange(Date.parse('2027-03-27T00:00:00.000Z')).from, range.from, 'midnight is the new day');
});

t.test('each day is ok, failed or without runs, in words', async (t) => {
  const { from } = uptimeRange(NOW);
  const cases: Array<[DayCounts | undefined, string, string]> = [
    [counts(4), 'ok', '4 runs, no failure'],
    [counts(1), 'ok', '1 run, no failure'],
    [counts(4, 1), 'failed', '1 of 4 runs failed'],
    [counts(0, 0, 2), 'failed', '2 missed runs'],
    [counts(3, 1, 0, 1), 'failed', '1 of 3 runs failed, 1 timed out'],
    [counts(2, 0, 1), 'failed', '2 runs, no failure, 1 missed run'],
    [undefined, 'none', 'no runs recorded'],
  ];
  const days = new Map(cases.flatMap(([c], day) => (c ? [[day, c] as const] : [])));
  const bars = dayBars(from, from - DAY_MS, days);
  t.equal(bars.length, UPTIME_DAYS);
  const dates = ['28 Dec 2026', '29 Dec 2026', '30 Dec 2026', '31 Dec 2026', '1 Jan 2027', '2 Jan 2027', '3 Jan 2027'];
  cases.forEach(([, state, text], day) => {
    t.equal(bars[day]!.state, state, text);
    t.equal(bars[day]!.text, `${dates[day]}: ${text}`);
  });
});

t.test('days wholly before the monitor existed are no data; the day it was made counts', async (t) => {
  const { from } = uptimeRange(NOW);
  const createdAt = from + 10 * DAY_MS + 5 * 3_600_000;
  const bars = dayBars(from, createdAt, new Map([[10, counts(1)]]));
  t.same(
    bars.slice(8, 12).map((b) => b.state),
    ['none', 'none', 'ok', 'none'],
  );
  t.match(bars[9]!.text, /no data \(before the monitor\)$/);
  t.match(bars[11]!.text, /no runs recorded$/);
});

t.test('the uptime share counts days with runs or problems only', async (t) => {
  const { from } = uptimeRange(NOW);
  t.equal(uptimeShare(dayBars(from, 0, new Map())), null);
  t.equal(uptimeShare(dayBars(from, 0, new Map([[0, counts(1)]]))), '100%');
  const three = new Map([
    [0, counts(1)],
    [1, counts(1)],
    [2, counts(1, 1)],
  ]);
  t.equal(uptimeShare(dayBars(from, 0, three)), '66.6%', 'rounded down: never better than it was');
});

t.test("a badge's halves are as wide as their text, and its text is escaped", async (t) => {
  t.equal(Math.round(textWidth('up')), 14);
  t.equal(Math.round(textWidth('paused')), 40);
  const svg = badgeSvg('a <b> & "c"\x1b[31m', 'down');
  t.ok(svg.includes('<title>a &lt;b&gt; &amp; &quot;c&quot;: down</title>'), svg);
  t.notOk(svg.includes('\x1b'), 'no control character: XML refuses them');
  const width = Number(/^<svg[^>]* width="(\d+)"/.exec(svg)![1]);
  const label = Math.round(textWidth('a <b> & "c"'));
  t.equal(width, label + 10 + Math.round(textWidth('down')) + 10);
});
