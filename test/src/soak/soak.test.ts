import t from 'tap';
import { DATABASE_KINDS } from '../helpers/databases.js';
import { fiveXX, statusLine } from './load.js';
import { probeScenario } from './probe.js';
import { fuzzScenario, killScenario, outageScenario, pairsScenario } from './scenarios.js';

// The standing fault suite, small (npm run soak runs it large and prints its figures: docs/testing.md).

for (const kind of DATABASE_KINDS) {
  t.test(`fault suite on ${kind}`, async (t) => {
    t.test('pairs from concurrent clients: every acknowledged ping stored, once, no 5xx', async (t) => {
      const { load, stored, acked } = await pairsScenario(kind, 1_000, 8, 5);
      t.equal(acked, 2_000, statusLine(load.statuses));
      t.same(load.statuses, { 200: 2_000 });
      t.equal(stored.runs, 1_000);
      t.equal(stored.lost, 0);
      t.equal(stored.duplicates, 0);
    });

    t.test('SIGKILL twice under load: every acknowledged ping is there after the restarts', async (t) => {
      const { load, stored, kills, acked } = await killScenario(kind, 600, 8, 2);
      t.equal(kills, 2);
      t.equal(load.givenUp, 0, 'retrying clients got every ping through in the end');
      t.equal(acked, 1_200, statusLine(load.statuses));
      t.equal(stored.lost, 0, 'nothing acknowledged was lost');
      t.equal(stored.duplicates, 0);
      t.equal(fiveXX(load.statuses), 0, statusLine(load.statuses));
    });

    t.test('the database stopped under load: 503s only, and back without a restart', async (t) => {
      // SQLite's outage is another process holding the write lock, which pingmon waits out for 5 s: longer, then.
      const outageMs = kind === 'sqlite' ? 6_000 : 1_000;
      const { load, stored, acked, samePid, recoveryMs } = await outageScenario(kind, 600, 8, outageMs);
      t.ok(samePid, 'the same server process throughout');
      t.ok((load.statuses[503] ?? 0) > 0, `the outage was met: ${statusLine(load.statuses)}`);
      t.equal(fiveXX(load.statuses, [503]), 0, 'no 5xx but 503');
      t.equal(load.statuses[0] ?? 0, 0, 'every request answered');
      t.ok(Number.isFinite(recoveryMs), 'pings were taken again after the outage');
      t.equal(acked, 1_200);
      t.equal(stored.lost, 0);
    });

    t.test('fuzzed requests over every endpoint: no 5xx, every error in the shape, the server alive', async (t) => {
      const { fuzz, healthStatus } = await fuzzScenario(kind, 3_000, 8, 20261125);
      t.equal(fuzz.requests, 3_000);
      t.same(fuzz.failures, [], statusLine(fuzz.statuses));
      t.equal(healthStatus, 200);
    });
  });
}

for (const kind of DATABASE_KINDS) {
  t.test(
    `the probe of issue 24 on ${kind}: file modes, deep JSON, hidden loopback URLs, terminal escapes`,
    async (t) => {
      t.same(await probeScenario(kind), []);
    },
  );
}
