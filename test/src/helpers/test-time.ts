import type { Test } from 'tap';
import { TestClock } from './clock.js';
import type { DatabaseKind } from './databases.js';
import { json, startReceiver } from './receiver.js';
import type { Received } from './receiver.js';
import { TestServer } from './server.js';
import type { TestAccount } from './server.js';

/**
 * A server on test time: the sweeper sweeps when the test says (sweepNow), its own loop once an hour of real
 * time; a gap in test time over three sweep intervals (3 h) would count as an outage of pingmon.
 */
export const TEST_TIME = { sweepIntervalMs: 3_600_000, alertPollMs: 50, alertRetryBaseMs: 20, alertTimeoutMs: 30_000 };

export interface OnTestTime {
  api: TestServer;
  clock: TestClock;
  account: TestAccount;
  /** What the account's webhook channel (every monitor) received. */
  hooks: Received[];
}

/** A server on `clock`, an account, and a webhook channel of it on a local receiver. */
export async function startOnTestTime(t: Test, kind: DatabaseKind, clock = new TestClock()): Promise<OnTestTime> {
  const api = await TestServer.start(t, kind, { ...TEST_TIME, clock: clock.read });
  const account = await api.account();
  const receiver = await startReceiver(t, (_req, _n, res) => json(res, 200, {}));
  const channel = await api.request('/channels', {
    token: account.token,
    body: { type: 'webhook', name: 'hook', url: `${receiver.url}/hook` },
  });
  t.equal(channel.status, 201, channel.text);
  return { api, clock, account, hooks: receiver.received };
}
