import type { TestClock } from './clock.js';
import type { TestAccount, TestServer } from './server.js';

// A backup monitor whose runs failed for two causes (docs/alerts.md#failure-fingerprints), on a server whose clock
// the test moves: what the dashboard's and the TUI's fingerprint tests look at.

const HOUR = 3_600_000;

/** The log of a pg_dump run at `at` (ms); the date, address and pid change from night to night, the cause not. */
function backupLog(at: number, cause: 'refused' | 'password', host: string, pid: number): string {
  const date = new Date(at).toUTCString().replace(/,/g, '');
  const failure =
    cause === 'refused'
      ? `connection to server at "${host}", port 5432 failed: Connection refused`
      : `connection to server at "${host}", port 5432 failed: FATAL: password authentication failed for user "backup"`;
  return `${date}: backup of db "shop" starting (pid ${pid})\npg_dump: error: ${failure}`;
}

export interface FailureRuns {
  monitorId: string;
  /** The refused runs, newest first: three days apart. */
  refused: [string, string];
  /** The run whose password was refused, a day after the first refused one. */
  password: string;
  /** A success, the newest run. */
  success: string;
  /** Each run's start as the run lists show it, "2026-11-24 03:00:00" (UTC). */
  startedAt: Record<string, string>;
}

/**
 * Makes the runs: refused (3 days before the clock's time at the end), password refused (a day later), refused
 * again (just now), then a success. The clock starts three days back and ends a minute after the success.
 */
export async function seedFailures(api: TestServer, account: TestAccount, clock: TestClock): Promise<FailureRuns> {
  const end = clock.now;
  clock.set(new Date(end - 72 * HOUR).toISOString());
  const monitorId = await api.monitor(account, 'db backup');
  const startedAt: Record<string, string> = {};
  const ping = async (kind: 'start' | 'success' | 'fail', body: object) => {
    const reply = await api.ping(account, monitorId, kind, body);
    if (reply.status !== 200) throw new Error(`${kind} ping: ${reply.status} ${reply.text}`);
  };
  const run = async (runId: string, cause: 'refused' | 'password' | null, host: string, pid: number) => {
    startedAt[runId] = new Date(clock.now).toISOString().replace('T', ' ').slice(0, 19);
    await ping('start', { runId });
    clock.advance(2_000);
    if (cause === null) await ping('success', { runId });
    else await ping('fail', { runId, errorMessage: 'exit code 1', logOutput: backupLog(clock.now, cause, host, pid) });
  };
  await run('run-refused-1', 'refused', '10.0.0.5', 4711);
  clock.advance(24 * HOUR);
  await run('run-password-1', 'password', '10.0.0.5', 5120);
  clock.set(new Date(end - 5 * 60_000).toISOString());
  await run('run-refused-2', 'refused', '10.0.0.6', 90210);
  clock.advance(60_000);
  await run('run-success-1', null, '10.0.0.6', 1);
  clock.set(new Date(end).toISOString());
  return {
    monitorId,
    refused: ['run-refused-2', 'run-refused-1'],
    password: 'run-password-1',
    success: 'run-success-1',
    startedAt,
  };
}
