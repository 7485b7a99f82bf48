import t from 'tap';
import type { PingKind, RunStatus } from '@pingmon/sdk';
import { pairPing } from '@pingmon/server/internal';
import type { Pairing, PairingState, RunRecord } from '@pingmon/server/internal';

const NOW = 1_000_000;

function run(runId: string, status: RunStatus): RunRecord {
  const finished = status !== 'running';
  return {
    runId,
    monitorId: 'mon_1',
    accountId: 'acc_1',
    status,
    startedAt: NOW - 5_000,
    finishedAt: finished ? NOW - 1_000 : null,
    durationMs: finished ? 4_000 : null,
    meta: {},
    errorMessage: null,
    hasLog: false,
    matchedRules: null,
    host: null,
    fingerprint: null,
    redactions: 0,
  };
}

type Existing = 'none' | RunStatus;
/** What a ping does before the rate limit is asked: an opening is then opened or refused. */
type Expected = 'replay' | 'finish the named run' | 'finish the open run' | 'opening';

// Every combination of ping kind, runId given, the named run (only a runId can name one) and an open run.
const TABLE: Array<[PingKind, boolean, Existing, boolean, Expected]> = [
  ['start', true, 'none', false, 'opening'],
  ['start', true, 'none', true, 'opening'],
  ['start', true, 'running', false, 'replay'],
  ['start', true, 'running', true, 'replay'],
  ['start', true, 'success', false, 'replay'],
  ['start', true, 'success', true, 'replay'],
  ['start', true, 'failed', false, 'replay'],
  ['start', true, 'failed', true, 'replay'],
  ['start', false, 'none', false, 'opening'],
  ['start', false, 'none', true, 'opening'],
  ['success', true, 'none', false, 'opening'],
  ['success', true, 'none', true, 'opening'],
  ['success', true, 'running', false, 'finish the named run'],
  ['success', true, 'running', true, 'finish the named run'],
  ['success', true, 'success', false, 'replay'],
  ['success', true, 'success', true, 'replay'],
  ['success', true, 'failed', false, 'replay'],
  ['success', true, 'failed', true, 'replay'],
  ['success', false, 'none', false, 'opening'],
  ['success', false, 'none', true, 'finish the open run'],
  ['fail', true, 'none', false, 'opening'],
  ['fail', true, 'none', true, 'opening'],
  ['fail', true, 'running', false, 'finish the named run'],
  ['fail', true, 'running', true, 'finish the named run'],
  ['fail', true, 'success', false, 'replay'],
  ['fail', true, 'success', true, 'replay'],
  ['fail', true, 'failed', false, 'replay'],
  ['fail', true, 'failed', true, 'replay'],
  ['fail', false, 'none', false, 'opening'],
  ['fail', false, 'none', true, 'finish the open run'],
];

// The monitor's last opening against the free plan's 60 s (55 s enforced), and a plan without a limit.
// A late ping older than the last opening is decided by the runs around its time (record-ping.ts), so it opens;
// a ping on time older than it (another server's, committed first) is limited as any other.
const OPENINGS: Array<[string, number | null, number, Pairing | undefined, boolean]> = [
  ['never opened', null, 60_000, undefined, false],
  ['opened 55 s ago', NOW - 55_000, 60_000, undefined, false],
  ['opened 10 s ago', NOW - 10_000, 60_000, { action: 'rate_limited', retryAfterSeconds: 45 }, false],
  ['opened 54.001 s ago', NOW - 54_001, 60_000, { action: 'rate_limited', retryAfterSeconds: 1 }, false],
  ['opened 10 s ago, no limit', NOW - 10_000, 0, undefined, false],
  ['opened 2 ms after the ping, on time', NOW + 2, 60_000, { action: 'rate_limited', retryAfterSeconds: 56 }, false],
  ['opened 10 s after the late ping', NOW + 10_000, 60_000, undefined, true],
];

t.test('pairPing decides every combination, with the rate limit asked only of openings', async (t) => {
  const named = {
    running: run('named-run', 'running'),
    success: run('named-run', 'success'),
    failed: run('named-run', 'failed'),
  };
  const open = run('open-run', 'running');
  for (const [kind, runIdGiven, existingStatus, hasOpen, expected] of TABLE) {
    for (const [opening, lastOpenedAt, intervalMs, limited, late] of OPENINGS) {
      const existing = existingStatus === 'none' ? undefined : named[existingStatus];
      const state: PairingState = { existing, open: hasOpen ? open : undefined, lastOpenedAt, intervalMs, late };
      const want: Pairing =
        expected === 'replay'
          ? { action: 'replay', run: existing! }
          : expected === 'finish the named run'
            ? { action: 'finish', run: existing! }
            : expected === 'finish the open run'
              ? { action: 'finish', run: open }
              : (limited ?? { action: 'open' });
      const name =
        `${kind}, runId ${runIdGiven ? 'given' : 'not given'}, named run ${existingStatus}, ` +
        `${hasOpen ? 'an' : 'no'} open run, ${opening}`;
      t.same(pairPing(kind, runIdGiven, state, NOW), want, name);
    }
  }
});

t.test('a finished run is replayed as it is, whatever the ping says', async (t) => {
  const finished = run('named-run', 'failed');
  const state = { existing: finished, open: undefined, lastOpenedAt: null, intervalMs: 0, late: false };
  const pairing = pairPing('success', true, state, NOW);
  t.equal(pairing.action === 'replay' && pairing.run, finished);
});
