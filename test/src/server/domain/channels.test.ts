import t from 'tap';
import { CHANNEL_TEST_WINDOW_MS, CHANNEL_TESTS_PER_WINDOW, channelTestDecision } from '@pingmon/server/internal';

t.test('a channel may be tested a few times per window; then it waits for the window to end', async (t) => {
  t.equal(CHANNEL_TESTS_PER_WINDOW, 5);
  t.equal(CHANNEL_TEST_WINDOW_MS, 60_000);
  const cases: Array<[number, number, number, ReturnType<typeof channelTestDecision>]> = [
    [1, 1_000, 1_000, { allowed: true }],
    [5, 1_000, 60_000, { allowed: true }],
    [6, 1_000, 1_000, { allowed: false, retryAfterSeconds: 60 }],
    [6, 1_000, 31_500, { allowed: false, retryAfterSeconds: 30 }],
    [9, 1_000, 60_999, { allowed: false, retryAfterSeconds: 1 }],
    [6, 1_000, 61_000, { allowed: false, retryAfterSeconds: 1 }],
  ];
  for (const [count, windowStartedAt, now, expected] of cases) {
    t.same(
      channelTestDecision({ count, windowStartedAt }, now),
      expected,
      `test ${count} of ${windowStartedAt} at ${now}`,
    );
  }
});
