import t from 'tap';
import { freshGraceMs, gapOfExpected, gapOnResume } from '@pingmon/server/internal';
import type { SweeperRow } from '@pingmon/server/internal';

const NOW = Date.parse('2027-03-27T12:01:02.000Z');
const row = (sweeperId: string, beatAgoMs: number, intervalMs = 5_000): SweeperRow => ({
  sweeperId,
  intervalMs,
  beatAt: NOW - beatAgoMs,
  stoppedAt: null,
});

t.test('a resuming sweeper sees a gap only when no other one may still be sweeping', async (t) => {
  const cases: Array<[string, SweeperRow[], string[], number | null, { from: number; to: number } | null]> = [
    ['a clean stop 4 s ago, nobody else', [], [], NOW - 4_000, { from: NOW - 4_000, to: NOW }],
    ['first start of a database', [], [], null, null],
    ['another sweeper beat 2 s ago', [row('b', 2_000)], [], NOW - 4_000, null],
    [
      'it beat 2 s ago but its process is gone (SIGKILL)',
      [row('b', 2_000)],
      ['b'],
      NOW - 2_000,
      {
        from: NOW - 2_000,
        to: NOW,
      },
    ],
    [
      'it has not beaten for three of its intervals',
      [row('b', 16_000)],
      [],
      NOW - 16_000,
      {
        from: NOW - 16_000,
        to: NOW,
      },
    ],
    ['a clock ahead of ours: no gap', [], [], NOW + 1_000, null],
  ];
  for (const [name, running, gone, lastSeen, expected] of cases) {
    t.same(gapOnResume(running, new Set(gone), lastSeen, NOW), expected, name);
  }
});

t.test('the fresh grace is the startGrace, at least two minutes', async (t) => {
  t.equal(freshGraceMs(5), 120_000);
  t.equal(freshGraceMs(300), 300_000);
});

t.test('an alert names the gap when its expected run was due in it', async (t) => {
  const gap = { from: NOW - 4_000, to: NOW };
  t.same(gapOfExpected(gap, NOW - 2_000, 5_000), gap, 'the slot in the gap');
  t.same(gapOfExpected(gap, NOW - 8_000, 5_000), gap, 'the deadline in the gap');
  t.equal(gapOfExpected(gap, NOW - 60_000, 5_000), null, 'due before the gap');
  t.equal(gapOfExpected(gap, NOW + 60_000, 5_000), null, 'expected after it');
  t.equal(gapOfExpected(null, NOW, 5_000), null);
});
