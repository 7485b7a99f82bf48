import t from 'tap';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { falseAlertScenario, falseAlertFigures } from './false-alerts.js';

// The false-alert scenario of the standing fault suite, small: a minute of 3 s slots on each database, five faults
// (each kind once), the stopped job stopped after them. npm run soak runs it large (docs/testing.md).
// Its slots are real time, about 75 s per database, longer under a loaded run: past the suite's 240 s per file.
t.setTimeout(480_000);

for (const kind of DATABASE_KINDS) {
  t.test(`no false alert while pingmon restarts around the slots, on ${kind}`, async (t) => {
    const seed = Number(process.env.SOAK_SEED ?? Date.now() % 2 ** 31);
    const result = await falseAlertScenario(kind, {
      ...{ monitors: 4, everySeconds: 3, startGraceSeconds: 5, maxRuntimeSeconds: 20, sweepSeconds: 0.5 },
      ...{ faults: 5, shortGapMs: 2_000, longGapMs: 6_000, outageMs: 6_000, stopJob: 'after-faults', seed },
    });
    for (const line of falseAlertFigures(result, seed)) t.comment(line);
    t.equal(result.faults.length, 5, 'every fault happened');
    t.ok(result.spooledRuns > 0, 'some runs kept their pings in the spool');
    t.equal(result.failedRuns, 0, 'every job exited 0');
    t.equal(result.storedRuns, result.runs, 'every run stored in the end');
    t.same(result.falseAlerts, [], 'no false fail, missed or timed_out alert');
    const { alert, dueBy } = result.stopped;
    t.ok(alert, 'the job that stopped is reported missed');
    t.ok(alert && alert.receivedAt <= dueBy, 'within its grace (or a fresh grace after a fault) and the sweep');
  });
}
