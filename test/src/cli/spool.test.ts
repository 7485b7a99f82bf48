import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { Spool } from '@pingmon/sdk';
import { pingmon } from '../helpers/cli.js';
import { switchableProxy } from '../helpers/outage.js';
import { TestServer } from '../helpers/server.js';

// The job host's spool (DESIGN §14), for real: pingmon run and pingmon flush as child processes, a real server
// behind a proxy the test switches off and on, and the spool on disk.

t.test('the spool', async (t) => {
  const api = await TestServer.start(t, 'sqlite');
  // No rate limit: the test's runs come seconds apart, where a real job's would be a plan's interval apart.
  const account = await api.account('unlimited');
  const server = new URL(api.url);
  const proxy = await switchableProxy(t, server.hostname, Number(server.port));
  const url = `http://127.0.0.1:${proxy.port}`;
  // A job host of its own: where its spool lives.
  const host = () => {
    const stateHome = mkdtempSync(join(tmpdir(), 'pingmon-host-'));
    t.teardown(() => rmSync(stateHome, { recursive: true, force: true }));
    return { stateHome, spool: join(stateHome, 'pingmon', 'spool') };
  };
  const settings = (monitorId: string, stateHome: string) => ({
    PINGMON_URL: url,
    PINGMON_API_KEY: account.apiKey,
    PINGMON_MONITOR: monitorId,
    XDG_STATE_HOME: stateHome,
  });
  const runs = async (monitorId: string) =>
    (await api.request(`/monitors/${monitorId}/runs`, { token: account.token })).body.runs;
  const spooled = (dir: string) => {
    try {
      return readdirSync(dir).filter((name) => name.endsWith('.json'));
    } catch {
      return [];
    }
  };

  t.test('a run while the server is down is delivered by the next run, with its real times, once', async (t) => {
    const m = await api.monitor(account, 'through an outage');
    const { stateHome, spool } = host();
    await proxy.down();
    const before = Date.now();
    const down = await pingmon(['run', '--', 'sh', '-c', 'echo lost?; sleep 0.3; exit 3'], settings(m, stateHome));
    const after = Date.now();
    t.equal(down.code, 3, 'the job keeps its exit code');
    t.equal(down.stdout, 'lost?\n');
    const warnings = down.stderr.split('\n').filter(Boolean);
    t.equal(warnings.length, 2, down.stderr);
    t.match(warnings[0], /^\[pingmon\] cannot reach the pingmon server .*; the start is kept in the spool/);
    t.match(warnings[1], /^\[pingmon\] .*; the fail is kept in the spool and will be sent by the next `pingmon run`/);
    const files = spooled(spool);
    t.equal(files.length, 2, 'start and fail wait in the spool');
    const kept = files.map((f) => JSON.parse(readFileSync(join(spool, f), 'utf8')));
    t.same(
      kept.map((p) => p.kind),
      ['start', 'fail'],
      'in the order they were made',
    );
    t.equal(kept[0].body.runId, kept[1].body.runId);
    const copy = host().spool;
    cpSync(spool, copy, { recursive: true });

    await proxy.up();
    const next = await pingmon(['run', '--', 'true'], settings(m, stateHome));
    t.equal(next.code, 0);
    t.equal(next.stderr, '', 'nothing to warn about');
    t.same(spooled(spool), [], 'the spool is empty');
    const [latest, first] = await runs(m);
    t.equal((await runs(m)).length, 2);
    t.match(first, { runId: kept[0].body.runId, status: 'failed', errorMessage: 'exit code 3: lost?' });
    const startedAt = Date.parse(first.startedAt);
    const finishedAt = Date.parse(first.finishedAt);
    t.ok(startedAt >= before && finishedAt <= after, 'its times are the job’s, not the delivery’s');
    t.ok(first.durationMs >= 300, `its duration (${first.durationMs} ms) includes the job's 0.3 s`);
    t.ok(Date.parse(latest.startedAt) > finishedAt, 'and it comes before the run that delivered it');
    const log = await api.request(`/monitors/${m}/runs/${first.runId}/log`, { token: account.token });
    t.equal(log.body.content, 'lost?\n');

    // The same files delivered again (a flush killed before it removed them): nothing changes.
    cpSync(copy, spool, { recursive: true });
    const again = await pingmon(['flush'], { XDG_STATE_HOME: stateHome });
    t.equal(again.code, 0, again.stderr);
    t.match(again.stdout, /^Delivered 2, dropped 0, left 0/);
    t.equal((await runs(m)).length, 2, 'still exactly one run for it');
  });

  t.test('pingmon flush leaves what it cannot deliver, and drops what the server refuses', async (t) => {
    const m = await api.monitor(account, 'flushed by hand');
    const { stateHome, spool } = host();
    await proxy.down();
    const down = await pingmon(['run', '--', 'true'], settings(m, stateHome));
    t.equal(down.code, 0);
    const still = await pingmon(['flush', '--json'], { XDG_STATE_HOME: stateHome });
    t.equal(still.code, 1, 'pings left: exit 1');
    t.match(JSON.parse(still.stdout), { delivered: 0, left: 2, busy: false, error: /cannot reach/ });
    await proxy.up();
    // One more ping, for a monitor that no longer exists: the server refuses it for good.
    await new Spool(spool).add({
      ...{ url, apiKey: account.apiKey, monitorId: 'mon_deleted00000', kind: 'start' },
      body: { runId: 'gone-run-01', timestamp: new Date().toISOString() },
    });
    const badTimeout = await pingmon(['flush', '--timeout', '30m1h'], { XDG_STATE_HOME: stateHome });
    t.equal(badTimeout.code, 2);
    t.equal(
      badTimeout.stderr,
      'pingmon: --timeout must be a duration longer than 0 such as 90s, 10m, 1h30m or 2d (got "30m1h")\n',
    );
    const flushed = await pingmon(['flush', '--timeout', '1h30m'], { XDG_STATE_HOME: stateHome });
    t.equal(flushed.code, 0, flushed.stderr);
    t.match(flushed.stdout, /^Delivered 2, dropped 1, left 0/);
    t.match(flushed.stdout, /dropped .*: the server refused it: No monitor mon_deleted00000/);
    t.equal((await runs(m)).length, 1);
    t.same(spooled(spool), []);
  });

  t.test('many jobs share one spool: all kept while down, each delivered once', async (t) => {
    const monitors = await Promise.all([1, 2, 3, 4].map((i) => api.monitor(account, `busy host ${i}`)));
    const { stateHome, spool } = host();
    await proxy.down();
    const jobs = monitors.flatMap((m) => [1, 2, 3].map(() => pingmon(['run', '--', 'true'], settings(m, stateHome))));
    t.same(
      (await Promise.all(jobs)).map((r) => r.code),
      Array(12).fill(0),
    );
    t.equal(spooled(spool).length, 24, 'every start and success kept');
    await proxy.up();
    const flushes = await Promise.all([1, 2, 3].map(() => pingmon(['flush', '--json'], { XDG_STATE_HOME: stateHome })));
    const reports = flushes.map((f) => JSON.parse(f.stdout));
    // Flushes that found another one at work did nothing: the one that delivered took everything.
    t.equal(
      reports.reduce((n, r) => n + r.delivered, 0),
      24,
    );
    t.same(spooled(spool), []);
    for (const m of monitors) {
      const list = await runs(m);
      t.equal(list.length, 3, 'three runs, no duplicate');
      t.ok(
        list.every((r: { status: string }) => r.status === 'success'),
        'each finished',
      );
    }
  });
});
