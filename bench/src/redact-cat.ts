import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { throughputBench } from './cli.js';
import { startPingmon } from './pingmon.js';
import { redactedCatBench, redactorBench } from './redact.js';

// `node bench/dist/redact-cat.js`: the wrapper's copy speed with redaction, against a real server (SQLite).
const dataDir = mkdtempSync(join(tmpdir(), 'pingmon-bench-'));
try {
  const sqlite = await startPingmon({ PINGMON_DATA_DIR: dataDir });
  const env = {
    PINGMON_URL: sqlite.server.url,
    PINGMON_API_KEY: sqlite.apiKey,
    PINGMON_MONITOR: sqlite.monitorIds[0]!,
    XDG_CONFIG_HOME: dataDir,
  };
  redactorBench();
  await throughputBench(env, Number(process.env.BENCH_CAT_BYTES ?? 1024 ** 3));
  redactedCatBench(env, Number(process.env.BENCH_CAT_BYTES ?? 512 * 1024 ** 2));
  await sqlite.server.stop();
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
