import { TestClock } from './clock.js';
import { TestServer } from './server.js';
import type { TestAccount } from './server.js';
import { TEST_TIME } from './test-time.js';

// One monitor whose trends are known: six successes with known durations and `rows`, a fixed rule on `rows` and a
// median rule on the duration, so that a chart or a sparkline can be checked against numbers worked out by hand.

export const DURATIONS_S = [1, 2, 3, 8, 2, 4];
export const ROWS = [10, 12, 3, 11, 10, 4];
/** rows < 5 matches the third and the sixth run. */
export const ROWS_RULE = { metric: 'rows', op: 'lt', value: 5 };
/**
 * durationMs > 2 × median(3): no threshold before the fourth run; then 2 × median(1, 2, 3 s) = 4 s (8 s matches),
 * 2 × median(2, 3, 8 s) = 6 s, 2 × median(3, 8, 2 s) = 6 s.
 */
export const DURATION_RULE = { metric: 'durationMs', op: 'gt', value: 2, baseline: { runs: 3 } };
export const DURATION_THRESHOLDS = [null, null, null, 4000, 6000, 6000];

const MINUTE = 60_000;

/** The server (on test time, an hour ago), the account and the monitor with its runs and rules. */
export async function trendMonitor(t: Parameters<typeof TestServer.start>[0]) {
  const clock = new TestClock(Date.now() - 60 * MINUTE);
  const api = await TestServer.start(t, 'sqlite', { ...TEST_TIME, clock: clock.read });
  const account: TestAccount = await api.account();
  const monitorId = await api.monitor(account, 'etl job');
  for (const rule of [ROWS_RULE, DURATION_RULE]) {
    const reply = await api.request(`/monitors/${monitorId}/rules`, { token: account.token, body: rule });
    if (reply.status !== 201) throw new Error(`POST rule: ${reply.text}`);
  }
  for (const [i, seconds] of DURATIONS_S.entries()) {
    const runId = `trend-run-${i}`;
    await api.ping(account, monitorId, 'start', { runId });
    clock.advance(seconds * 1000);
    const reply = await api.ping(account, monitorId, 'success', { runId, meta: { rows: ROWS[i] } });
    if (reply.status !== 200) throw new Error(`success ping: ${reply.text}`);
    clock.advance(MINUTE);
  }
  return { api, clock, account, monitorId };
}
