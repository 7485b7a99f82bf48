import { DATABASE_KINDS } from '../helpers/databases.js';
import type { DatabaseKind } from '../helpers/databases.js';
import { fiveXX, statusLine } from './load.js';
import { probeScenario } from './probe.js';
import { fuzzScenario, killScenario, outageScenario, pairsScenario } from './scenarios.js';
import { falseAlertFigures, falseAlertScenario } from './false-alerts.js';

// npm run soak: the standing fault suite at full size, on SQLite and (with PINGMON_TEST_DATABASE_URL) PostgreSQL.
// Loopback only, bounded by its sizes; prints its figures and exits 1 if any guarantee did not hold.

const size = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const PAIRS = size('SOAK_PAIRS', 500_000);
const CLIENTS = size('SOAK_CLIENTS', 32);
const MONITORS = size('SOAK_MONITORS', 50);
const KILL_PAIRS = size('SOAK_KILL_PAIRS', 50_000);
const OUTAGE_PAIRS = size('SOAK_OUTAGE_PAIRS', 20_000);
const OUTAGE_MS = size('SOAK_OUTAGE_MS', 10_000);
const FUZZ = size('SOAK_FUZZ', 100_000);
const SEED = size('SOAK_SEED', Date.now() % 2 ** 31);
const FALSE_ALERT_FAULTS = size('SOAK_RESTARTS', 10);
const LONG_GAP_MS = size('SOAK_LONG_GAP_MS', 90_000);
/** SOAK_SCENARIOS=false-alerts,fuzz runs only those; all by default. */
const only = process.env.SOAK_SCENARIOS?.split(',').map((name) => name.trim());
const runs = (scenario: string) => !only || only.includes(scenario);

let failed = 0;
const check = (ok: boolean, what: string) => {
  if (!ok) failed++;
  console.log(`  ${ok ? 'ok ' : 'NOT OK'} ${what}`);
};

async function soak(kind: DatabaseKind): Promise<void> {
  console.log(`\n== ${kind}`);
  if (runs('pairs')) {
    const pairs = await pairsScenario(kind, PAIRS, CLIENTS, MONITORS);
    console.log(
      `pairs: ${pairs.load.pings} pings (${PAIRS} start/success pairs, ${CLIENTS} clients, ${MONITORS} monitors) ` +
        `in ${pairs.load.seconds.toFixed(1)} s, ${pairs.load.pingsPerSecond.toFixed(0)} pings/s; ` +
        `answers ${statusLine(pairs.load.statuses)}; acknowledged ${pairs.acked}, runs stored ${pairs.stored.runs}`,
    );
    check(pairs.acked === 2 * PAIRS && pairs.stored.runs === PAIRS, 'every ping acknowledged, every run stored');
    check(pairs.stored.lost === 0, `acknowledged = stored (${pairs.stored.lost} lost)`);
    check(pairs.stored.duplicates === 0, `${pairs.stored.duplicates} duplicates`);
    check(fiveXX(pairs.load.statuses) === 0, `${fiveXX(pairs.load.statuses)} 5xx`);
  }

  if (runs('kill')) {
    const killed = await killScenario(kind, KILL_PAIRS, CLIENTS, 2);
    console.log(
      `SIGKILL: ${killed.kills} kills under ${KILL_PAIRS} pairs (${CLIENTS} retrying clients), down ` +
        `${killed.downMs.map((ms) => `${ms.toFixed(0)} ms`).join(' and ')} until listening again; ` +
        `answers ${statusLine(killed.load.statuses)}; acknowledged ${killed.acked}, ` +
        `lost after restart ${killed.stored.lost}`,
    );
    check(killed.kills === 2, 'killed twice');
    check(killed.stored.lost === 0 && killed.load.givenUp === 0, 'every acknowledged ping present after the restarts');
    check(killed.stored.duplicates === 0 && fiveXX(killed.load.statuses) === 0, 'no duplicate, no 5xx');
  }

  if (runs('outage')) {
    const outageMs = kind === 'sqlite' ? Math.max(OUTAGE_MS, 6_000) : OUTAGE_MS;
    const outage = await outageScenario(kind, OUTAGE_PAIRS, CLIENTS, outageMs);
    console.log(
      `database outage: ${outageMs} ms under ${OUTAGE_PAIRS} pairs; answers ${statusLine(outage.load.statuses)}; ` +
        `first ping taken ${outage.recoveryMs.toFixed(0)} ms after the database returned, ` +
        `same process: ${outage.samePid}`,
    );
    check((outage.load.statuses[503] ?? 0) > 0 && fiveXX(outage.load.statuses, [503]) === 0, '503s only');
    check(outage.samePid && Number.isFinite(outage.recoveryMs), 'recovered without a restart');
    check(outage.stored.lost === 0 && outage.acked === 2 * OUTAGE_PAIRS, 'every ping taken in the end, none lost');
  }

  if (runs('fuzz')) {
    const fuzzed = await fuzzScenario(kind, FUZZ, CLIENTS, SEED);
    console.log(
      `fuzz: ${fuzzed.fuzz.requests} requests (seed ${SEED}) in ${fuzzed.fuzz.seconds.toFixed(1)} s; ` +
        `answers ${statusLine(fuzzed.fuzz.statuses)}; /health after: ${fuzzed.healthStatus}`,
    );
    for (const failure of fuzzed.fuzz.failures)
      console.log(`  ${failure.status} ← ${failure.request}: ${failure.body}`);
    check(fuzzed.fuzz.failureCount === 0, `${fuzzed.fuzz.failureCount} answers 5xx or out of the error shape`);
    check(fuzzed.healthStatus === 200, 'the server alive after');
  }

  if (runs('probe')) {
    const found = await probeScenario(kind);
    for (const problem of found) console.log(`  probe: ${problem}`);
    check(found.length === 0, 'the probe: file modes, deep JSON, hidden loopback URLs, terminal escapes');
  }
  if (runs('false-alerts')) await falseAlerts(kind);
}

/** Real `pingmon run` jobs every 10 s, the server restarted around the slots: no false alert (docs/testing.md). */
async function falseAlerts(kind: DatabaseKind): Promise<void> {
  const result = await falseAlertScenario(kind, {
    ...{ monitors: 10, everySeconds: 10, startGraceSeconds: 10, maxRuntimeSeconds: 20, sweepSeconds: 1 },
    ...{ faults: FALSE_ALERT_FAULTS, shortGapMs: 2_000, longGapMs: LONG_GAP_MS, outageMs: 30_000 },
    ...{ stopJob: 'among-faults', seed: SEED },
  });
  console.log(`false alerts: ${FALSE_ALERT_FAULTS} faults around 10 s slots, 10 monitors, 2 job hosts`);
  for (const line of falseAlertFigures(result, SEED)) console.log(`  ${line}`);
  check(result.faults.length === FALSE_ALERT_FAULTS && result.spooledRuns > 0, 'every fault met, pings spooled');
  check(result.failedRuns === 0 && result.storedRuns === result.runs, 'every job exited 0, every run stored');
  check(result.falseAlerts.length === 0, `${result.falseAlerts.length} false fail/missed/timed_out alerts`);
  const { alert, dueBy } = result.stopped;
  check(alert !== undefined && alert.receivedAt <= dueBy, 'the stopped job reported within its (fresh) grace');
}

for (const kind of DATABASE_KINDS) await soak(kind);
if (DATABASE_KINDS.length === 1) console.log('\n(PostgreSQL skipped: set PINGMON_TEST_DATABASE_URL)');
console.log(`\n${failed === 0 ? 'soak passed' : `soak FAILED: ${failed} checks`}`);
process.exitCode = failed === 0 ? 0 : 1;
