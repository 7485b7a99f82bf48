import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliResult } from '../helpers/cli.js';
import { backgroundFlushers, pingmon } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';

// A job host as crontab makes one, for the false-alert scenario: each job started as a real `pingmon run` process
// (cli/bin/run.js) with PINGMON_URL, PINGMON_API_KEY and --monitor, all of them sharing the host's spool, with the
// detached background flush a kept ping starts (PINGMON_FLUSH_FOR=30m, as in production).

export class JobHost {
  readonly stateHome = mkdtempSync(join(tmpdir(), 'pingmon-soak-host-'));
  readonly spool = join(this.stateHome, 'pingmon', 'spool');
  /** Per monitor, when this host started each of its jobs (epoch ms). */
  readonly startedAt = new Map<string, number[]>();
  private readonly runs: Array<Promise<CliResult>> = [];

  constructor(
    private readonly url: string,
    private readonly apiKey: string,
  ) {}

  /** Starts `pingmon run --monitor monitorId -- sh -c 'sleep seconds'`, without waiting for it. */
  run(monitorId: string, seconds: number): void {
    const env = {
      ...{ PINGMON_URL: this.url, PINGMON_API_KEY: this.apiKey },
      ...{ PINGMON_FLUSH_FOR: '30m', XDG_STATE_HOME: this.stateHome },
    };
    const times = this.startedAt.get(monitorId) ?? [];
    times.push(Date.now());
    this.startedAt.set(monitorId, times);
    this.runs.push(pingmon(['run', '--monitor', monitorId, '--', 'sh', '-c', `sleep ${seconds.toFixed(2)}`], env));
  }

  /** Every run started so far, once ended. */
  finished(): Promise<CliResult[]> {
    return Promise.all(this.runs);
  }

  /** Pings kept in the spool, waiting for a server. */
  spooled(): number {
    try {
      return readdirSync(this.spool).filter((name) => name.endsWith('.json')).length;
    } catch {
      return 0;
    }
  }

  /**
   * Ends the background flushes still alive (detached: nothing else would) and removes the host's files. Under
   * load a flush may be starting still as the others are killed, and write the spool meanwhile: both again then.
   */
  async close(): Promise<void> {
    await waitFor(
      () => {
        for (const pid of backgroundFlushers(this.stateHome)) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // Ended meanwhile.
          }
        }
        try {
          rmSync(this.stateHome, { recursive: true, force: true });
          return true;
        } catch {
          return false;
        }
      },
      { timeoutMs: 15_000, intervalMs: 100, what: "the job host's files removed" },
    );
  }
}
