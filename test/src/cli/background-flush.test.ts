import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { backgroundFlushers as flushers, pingmon } from '../helpers/cli.js';
import { switchableProxy } from '../helpers/outage.js';
import { TestServer } from '../helpers/server.js';
import { waitFor } from '../helpers/wait.js';

// The background flush `pingmon run` starts after keeping a ping (issue 25): real `pingmon run` processes, the
// detached `pingmon flush` they start, a real server behind a proxy the test switches off and on (its port stays
// the same), and the spool on disk. Every flush started here is killed at the end of its test.

t.test('the background flush', async (t) => {
  const api = await TestServer.start(t, 'sqlite');
  const account = await api.account('unlimited');
  const server = new URL(api.url);
  const proxy = await switchableProxy(t, server.hostname, Number(server.port));
  const url = `http://127.0.0.1:${proxy.port}`;
  const host = (t: { teardown(fn: () => void): void }) => {
    const stateHome = mkdtempSync(join(tmpdir(), 'pingmon-host-'));
    t.teardown(() => {
      for (const pid of flushers(stateHome)) process.kill(pid, 'SIGKILL');
      rmSync(stateHome, { recursive: true, force: true });
    });
    return { stateHome, spool: join(stateHome, 'pingmon', 'spool') };
  };
  const settings = (monitorId: string, stateHome: string, flushFor = '1m') => ({
    PINGMON_URL: url,
    PINGMON_API_KEY: account.apiKey,
    PINGMON_MONITOR: monitorId,
    PINGMON_FLUSH_FOR: flushFor,
    XDG_STATE_HOME: stateHome,
  });
  const run = (env: Record<string, string>, ...job: string[]) =>
    pingmon(['run', '--ping-timeout', '500ms', '--', ...job], env);
  const runs = async (monitorId: string) =>
    (await api.request(`/monitors/${monitorId}/runs`, { token: account.token })).body.runs;
  const spooled = (dir: string) => {
    try {
      return readdirSync(dir).filter((name) => name.endsWith('.json'));
    } catch {
      return [];
    }
  };
  const lockHolder = (dir: string) => {
    try {
      return Number(readFileSync(join(dir, '.lock'), 'utf8').split(' ')[0]);
    } catch {
      return undefined;
    }
  };
  const log = (dir: string) => readFileSync(join(dir, 'flush.log'), 'utf8');

  t.test('a run kept while the server is down is delivered once it is back, with no other run', async (t) => {
    const m = await api.monitor(account, 'delivered in the background');
    const { stateHome, spool } = host(t);
    await proxy.down();
    const before = Date.now();
    const down = await run(settings(m, stateHome), 'sh', '-c', 'echo lost?; sleep 0.3; exit 3');
    const after = Date.now();
    // pingmon() resolves once the process has exited and its stdout and stderr are closed.
    t.equal(down.code, 3, 'the job keeps its exit code');
    t.equal(down.stdout, 'lost?\n');
    t.match(down.stderr, /the start is kept in the spool and will be sent as soon as the server answers again/);
    const pid = await waitFor(() => lockHolder(spool), { what: 'the background flush to hold the spool' });
    t.same(flushers(stateHome), [pid], 'one background flush holds the spool, still alive after the run ended');
    t.equal(spooled(spool).length, 2, 'start and fail wait in the spool');

    await proxy.up();
    const upAt = Date.now();
    await waitFor(() => spooled(spool).length === 0, { timeoutMs: 25_000, what: 'the spool to be empty' });
    t.comment(`server back to spool empty: ${Date.now() - upAt} ms`);
    const [first] = await runs(m);
    t.equal((await runs(m)).length, 1);
    t.match(first, { status: 'failed', errorMessage: 'exit code 3' });
    t.ok(Date.parse(first.startedAt) >= before && Date.parse(first.finishedAt) <= after, 'with the job’s own times');
    t.ok(first.durationMs >= 300, `its duration (${first.durationMs} ms) includes the job's 0.3 s`);
    await waitFor(() => flushers(stateHome).length === 0, { what: 'the background flush to end' });
    t.match(log(spool), /the spool is empty\n$/);
    t.equal(lockHolder(spool), undefined, 'the lock given back');
  });

  t.test('a run kept while a background flush is at work starts no second one', async (t) => {
    const m = await api.monitor(account, 'two runs, one flush');
    const { stateHome, spool } = host(t);
    await proxy.down();
    t.equal((await run(settings(m, stateHome), 'true')).code, 0);
    const pid = await waitFor(() => lockHolder(spool), { what: 'the background flush to hold the spool' });
    t.equal((await run(settings(m, stateHome), 'false')).code, 1);
    t.equal(spooled(spool).length, 4, 'both runs kept');
    // The second run's flush finds the spool held and ends at once, where it would otherwise try for a minute.
    await waitFor(() => flushers(stateHome).join() === String(pid), { what: 'only the first flush left' });
    t.equal(lockHolder(spool), pid, 'the first one still holds the spool');

    await proxy.up();
    await waitFor(() => spooled(spool).length === 0, { timeoutMs: 25_000, what: 'the spool to be empty' });
    const list = await runs(m);
    t.same(list.map((r: { status: string }) => r.status).sort(), ['failed', 'success']);
    await waitFor(() => flushers(stateHome).length === 0, { what: 'the background flush to end' });
    t.match(log(spool), /delivered 4, dropped 0, left 0/, 'all four delivered by the one flush');
  });

  t.test('a background flush gives up after PINGMON_FLUSH_FOR, leaving the spool to the next run', async (t) => {
    const m = await api.monitor(account, 'given up on');
    const { stateHome, spool } = host(t);
    await proxy.down();
    t.equal((await run(settings(m, stateHome, '2s'), 'true')).code, 0);
    await waitFor(() => lockHolder(spool), { what: 'the background flush to hold the spool' });
    await waitFor(() => flushers(stateHome).length === 0, { timeoutMs: 10_000, what: 'the flush to give up' });
    t.equal(spooled(spool).length, 2, 'the pings stay');
    t.equal(lockHolder(spool), undefined, 'the lock given back');
    t.match(log(spool), /cannot reach the pingmon server/);
    t.match(log(spool), /stopped trying after \d+s; 2 pings left for the next `pingmon run` or `pingmon flush`/);

    await proxy.up();
    t.equal((await pingmon(['flush'], { XDG_STATE_HOME: stateHome })).code, 0);
    t.equal((await runs(m)).length, 1);
  });

  t.test('PINGMON_FLUSH_FOR=0 starts none, and a value that is not a duration is said', async (t) => {
    const m = await api.monitor(account, 'no background flush');
    const { stateHome, spool } = host(t);
    await proxy.down();
    const none = await run(settings(m, stateHome, '0'), 'true');
    t.match(none.stderr, /will be sent by the next `pingmon run` on this host, or by `pingmon flush`/);
    t.same(flushers(stateHome), []);
    t.equal(lockHolder(spool), undefined);
    const bad = await run(settings(m, stateHome, 'soon'), 'true');
    t.match(bad.stderr, /PINGMON_FLUSH_FOR must be a duration such as 30m or 0 \(got "soon"\): using 30m/);
    await proxy.up();
  });
});
