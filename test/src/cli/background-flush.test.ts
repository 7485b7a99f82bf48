import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { Spool } from '@pingmon/sdk';
import { backgroundFlushers as flushers, finished, pingmon, spawnCli } from '../helpers/cli.js';
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

  t.test('a result whose start waits in a spool another flush holds is sent, not kept behind it', async (t) => {
    const m = await api.monitor(account, 'result past a held spool');
    const { stateHome, spool } = host(t);
    const done = join(stateHome, 'done');
    await proxy.down();
    // No background flush of its own: the test holds the spool's lock instead, as a flush between two tries does.
    const env = settings(m, stateHome, '0');
    const job = ['sh', '-c', `while [ ! -e ${done} ]; do sleep 0.05; done`];
    const child = spawnCli(['run', '--ping-timeout', '500ms', '--', ...job], env);
    const exited = finished(child);
    t.teardown(() => child.exitCode === null && child.kill('SIGKILL'));
    await waitFor(() => spooled(spool).length === 1, { what: 'the start to be kept' });
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const held = new Spool(spool).whileHeld(() => released);
    await waitFor(() => lockHolder(spool) === process.pid, { what: 'the test to hold the spool' });
    await proxy.up();
    writeFileSync(done, '');
    const { code, stderr } = await exited;
    t.equal(code, 0);
    t.notMatch(stderr, /follows its start/, 'no word of a start that could not be delivered');
    t.match(await runs(m), [{ status: 'success' }], 'the result reached the server');
    t.equal(spooled(spool).length, 1, 'only the start waits, for the flush that holds the spool');
    release();
    await held;
    t.equal((await pingmon(['flush'], { XDG_STATE_HOME: stateHome })).code, 0);
    t.equal(spooled(spool).length, 0);
    const after = await runs(m);
    t.equal(after.length, 1, 'the late start opens no second run');
    t.match(after[0], { status: 'success' }, 'and does not reopen this one');
  });

  t.test('a run kept while a flush is at work gets a window of its own when that flush would stop', async (t) => {
    const m = await api.monitor(account, 'kept late in the window');
    const { stateHome, spool } = host(t);
    await proxy.down();
    t.equal((await run(settings(m, stateHome, '3s'), 'true')).code, 0);
    const pid = await waitFor(() => lockHolder(spool), { what: 'the background flush to hold the spool' });
    // Its flush finds the spool held and ends at once: the run is left to the first flush.
    t.equal((await run(settings(m, stateHome, '3s'), 'false')).code, 1);
    await waitFor(() => flushers(stateHome).join() === String(pid), { what: 'only the first flush left' });
    // The first flush's window ends while the server is still down (it says it goes on, or it exits); then the
    // server is back.
    const goesOn = () => {
      try {
        return /trying for 3s more/.test(log(spool));
      } catch {
        return false; // no log yet
      }
    };
    await waitFor(() => goesOn() || flushers(stateHome).length === 0, {
      timeoutMs: 10_000,
      what: 'the first window to end',
    });
    await proxy.up();
    await waitFor(() => spooled(spool).length === 0, { timeoutMs: 10_000, what: 'the spool to be empty' });
    t.same((await runs(m)).map((r: { status: string }) => r.status).sort(), ['failed', 'success']);
    await waitFor(() => flushers(stateHome).length === 0, { what: 'the background flush to end' });
    t.match(log(spool), /the spool is empty\n$/);
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
    t.match(
      bad.stderr,
      /PINGMON_FLUSH_FOR must be a duration such as 90s, 10m, 1h30m or 2d \(got "soon"\), or 0: using 30m/,
    );
    await proxy.up();
  });
});
