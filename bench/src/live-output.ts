import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { throughputBench } from './cli.js';
import { startPingmon } from './pingmon.js';

// `node bench/dist/live-output.js`: the wrapper's copy speed and memory alone (issue 32), with live output on and
// off, against a pingmon server on SQLite; BENCH_CAT_BYTES (1 GiB) and BENCH_CAT_ROUNDS (3) set the size and rounds.

const dataDir = mkdtempSync(join(tmpdir(), 'pingmon-bench-'));
try {
  const sqlite = await startPingmon({ PINGMON_DATA_DIR: dataDir });
  try {
    const env = {
      PINGMON_URL: sqlite.server.url,
      PINGMON_API_KEY: sqlite.apiKey,
      PINGMON_MONITOR: sqlite.monitorIds[0]!,
      XDG_CONFIG_HOME: dataDir,
    };
    await throughputBench(
      env,
      Number(process.env.BENCH_CAT_BYTES ?? 1024 ** 3),
      Number(process.env.BENCH_CAT_ROUNDS ?? 3),
    );
  } finally {
    await sqlite.server.stop();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
