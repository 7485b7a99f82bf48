import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './databases.js';
import { ALERTMANAGER } from './system-tools.js';
import { waitFor } from './wait.js';

interface Teardown {
  teardown(fn: () => unknown): void;
}

// One receiver with no integrations: alerts are kept and shown by the API, and notify nobody.
const CONFIG = 'route:\n  receiver: nowhere\nreceivers:\n  - name: nowhere\n';
const LOG_MAX_CHARS = 64_000;

export interface RunningAlertmanager {
  url: string;
  /** From the spawn to /-/ready answering 200. */
  startMs: number;
}

/**
 * A real Alertmanager on 127.0.0.1, on a port the kernel picks (read from its log), clustering off, its data in a
 * temporary directory; stopped in teardown. The test calls requireTools(t, 'alertmanager') first.
 */
export async function startAlertmanager(t: Teardown): Promise<RunningAlertmanager> {
  const dir = tempDir('pingmon-alertmanager-');
  writeFileSync(join(dir, 'alertmanager.yml'), CONFIG);
  const started = Date.now();
  const child = spawn(
    ALERTMANAGER,
    [
      `--config.file=${join(dir, 'alertmanager.yml')}`,
      `--storage.path=${join(dir, 'data')}`,
      '--cluster.listen-address=',
      '--web.listen-address=127.0.0.1:0',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (log = (log + d).slice(-LOG_MAX_CHARS)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  t.teardown(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const stuck = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(stuck);
    }
    rmSync(dir, { recursive: true, force: true });
  });
  const gone = () => {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`Alertmanager exited (${child.exitCode ?? child.signalCode}): ${log}`);
    }
  };
  const port = await waitFor(
    () => {
      gone();
      return /msg="Listening on" address=127\.0\.0\.1:(\d+)/.exec(log)?.[1];
    },
    { what: 'Alertmanager to listen', show: () => log },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      gone();
      const res = await fetch(`${url}/-/ready`).catch(() => null);
      await res?.arrayBuffer();
      return res?.ok;
    },
    { what: 'Alertmanager to be ready', show: () => log },
  );
  return { url, startMs: Date.now() - started };
}
