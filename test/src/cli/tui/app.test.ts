import Jwt from '@hapi/jwt';
import t from 'tap';
import { createClient } from '@pingmon/sdk';
import type { Client } from '@pingmon/sdk';
import { App, createSource, textWidth } from 'pingmon/internal';
import type { BrowseSource } from 'pingmon/internal';
import { closedPort } from '../../helpers/receiver.js';
import { TestServer } from '../../helpers/server.js';
import type { TestAccount } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait.js';
import { KEYS, lines, renderScreen } from './ink.js';
import type { Screen } from './ink.js';

// The dashboard against a real server through the real SDK client: only the terminal is simulated.

const SECRET = 'tui-test-secret-tui-test-secret-tui-test-secret';
const ANSI_LOG = Array.from(
  { length: 60 },
  (_, i) => `\x1b[31mERROR\x1b[0m step ${i + 1}: tar: /data/file${i}: Permission denied\x1b[K`,
).join('\n');
const LONG_LINE = `${'w'.repeat(3000)} THE END`;

async function seedRuns(api: TestServer, account: TestAccount, monitorId: string, count: number): Promise<void> {
  for (let i = 0; i < count; i += 25) {
    await Promise.all(
      Array.from({ length: Math.min(25, count - i) }, () =>
        api.ping(account, monitorId, 'success', { meta: { rows: 1 } }),
      ),
    );
  }
}

/** Opens a monitor's runs the way a person finds one among many: / and its name. */
async function openMonitor(screen: Screen, name: string, runs: string): Promise<string> {
  await screen.waitFor(name);
  screen.press('/', name, KEYS.enter, KEYS.enter);
  return screen.waitFor(`${name} › Runs · all · ${runs}`);
}

const widest = (frame: string) => Math.max(...lines(frame).map(textWidth));
const selected = (frame: string) => lines(frame).find((line) => line.startsWith('▸')) ?? '';

t.test('the dashboard against a real server', async (t) => {
  const api = await TestServer.start(t, 'sqlite', { jwtSecret: SECRET });
  const account = await api.account('unlimited');
  const client = createClient({ baseUrl: api.url, token: account.token });
  const source = createSource(() => client);
  const open = (props: Partial<Parameters<typeof App>[0]> = {}, size?: { columns: number; rows: number }) => {
    const screen = renderScreen(App, { source, url: api.url, refreshMs: 60_000, ...props }, size);
    t.teardown(screen.unmount);
    return screen;
  };

  const nightly = await api.monitor(account, 'nightly backup');
  await seedRuns(api, account, nightly, 3);
  // Runs that start in the same millisecond are listed by runId (docs/api.md), and the seeded runs' ids (run_…)
  // sort after run-failed-0001: the failed run starts in a later millisecond, so that it is the newest.
  const seededBy = Date.now();
  await waitFor(() => Date.now() > seededBy, { what: 'the clock to pass the seeded runs' });
  await api.ping(account, nightly, 'start', { runId: 'run-failed-0001' });
  await api.ping(account, nightly, 'fail', {
    runId: 'run-failed-0001',
    errorMessage: 'tar: /data: Permission denied\nsecond line',
    meta: { exitCode: 2 },
    logOutput: `${ANSI_LOG}\n${LONG_LINE}`,
  });
  const hourly = await api.monitor(account, 'hourly sync');
  await api.ping(account, hourly, 'success');
  const empty = await api.monitor(account, 'new job');

  t.test('monitors: every monitor with its status and last run as a symbol and a word, down ones first', async (t) => {
    const screen = open();
    const frame = await screen.waitFor('new job');
    const rows = lines(frame);
    const at = (text: string) => rows.findIndex((line) => line.includes(text));
    t.match(rows[1], /^Monitors · 3 · 1 down$/);
    t.ok(at('nightly backup') < at('hourly sync') && at('hourly sync') < at('new job'), frame);
    t.match(
      rows[at('nightly backup')],
      /^▸ ✗ down\s+nightly backup  nightly-backup\s+✗ (just now|\d+s ago|\d+m ago)\s+—\s+(\d+ms|\d+s)\s+1\/4\s*$/,
    );
    t.match(
      rows[at('hourly sync')],
      /^  ✓ up\s+hourly sync  hourly-sync\s+✓ (just now|\d+s ago|\d+m ago)\s+—\s+—\s+0\/1\s*$/,
    );
    t.match(rows[at('new job')], /^  · new\s+new job  new-job\s+never\s+—\s+—\s+—\s*$/);
    t.match(frame, /updated \d\d:\d\d:\d\d UTC/);
  });

  t.test('the monitors view costs one request per refresh, however many monitors', async (t) => {
    const calls = { listMonitors: 0, listRuns: 0 };
    const counting: Client = {
      ...client,
      listMonitors: (...args) => (calls.listMonitors++, client.listMonitors(...args)),
      listRuns: (...args) => (calls.listRuns++, client.listRuns(...args)),
    };
    const screen = open({ source: createSource(() => counting), refreshMs: 50 });
    await screen.waitFor('new job');
    await waitFor(() => calls.listMonitors >= 3, { what: 'three refreshes' });
    t.equal(calls.listRuns, 0, 'no request per monitor');
  });

  t.test(
    'monitor → runs → failed run; the log is read only when its run opens, starts collapsed, expands and scrolls',
    async (t) => {
      let logReads = 0;
      const counting: BrowseSource = { ...source, getLog: (...args) => (logReads++, source.getLog(...args)) };
      const screen = open({ source: counting });
      await screen.waitFor('nightly backup');
      screen.press(KEYS.enter);
      let frame = await screen.waitFor('4 runs');
      t.match(lines(frame)[1], /^nightly backup › Runs · all · 4 runs/);
      t.match(
        selected(frame),
        /^▸ ✗ failed\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+(\d+ms|\d+s)\s+tar: \/data: Permission denied\s*$/,
        'newest first, first line of the error',
      );
      t.notMatch(frame, /second line/);
      t.equal(lines(frame).filter((line) => /✓ success/.test(line)).length, 3);
      t.equal(logReads, 0, 'no log read for a list');

      screen.press(KEYS.enter);
      frame = await screen.waitFor('press e to expand');
      t.equal(logReads, 1);
      t.match(frame, /Status\s+✗ failed/);
      t.match(frame, /Run\s+run-failed-0001/);
      // To the millisecond (was to the second), so that the two times agree with the duration under them.
      const time = (label: string) => {
        const at = new RegExp(`${label}\\s+(\\d{4}-\\d\\d-\\d\\d) (\\d\\d:\\d\\d:\\d\\d\\.\\d{3}) UTC`).exec(frame);
        return Date.parse(`${at?.[1]}T${at?.[2]}Z`);
      };
      const [started, finished] = [time('Started'), time('Finished')];
      t.ok(Number.isFinite(started) && Number.isFinite(finished), frame);
      const shown = /Duration\s+(\d+)ms|Duration\s+(\d+\.\d{3})s/.exec(frame);
      const durationMs = shown?.[1] ? Number(shown[1]) : Math.round(Number(shown?.[2]) * 1000);
      t.equal(finished - started, durationMs, 'Finished − Started is the duration shown');
      t.match(frame, /Meta\s+exitCode=2/);
      t.match(frame, /Error\s+tar: \/data: Permission denied\n\s+second line/);
      t.match(frame, /Log\s+[\d,]+ characters, collapsed/);
      t.match(frame, /│ ERROR step 1: tar: \/data\/file0: Permission denied\s+│/, 'escape sequences stripped');
      t.notMatch(frame, /\[31m|\[0m|\[K/);
      const hidden = Number(/([\d,]+) more characters hidden — press e to expand/.exec(frame)![1]!.replace(/,/g, ''));
      t.ok(hidden > 3000 && hidden < ANSI_LOG.length + LONG_LINE.length, `${hidden} hidden`);
      t.ok(
        lines(frame).indexOf(lines(frame).find((l) => l.startsWith('Error'))!) <
          lines(frame).findIndex((l) => l.startsWith('┌')),
        'the log is below the error',
      );

      screen.press('e');
      frame = await screen.waitFor('e collapses');
      t.match(frame, /lines 1–\d+ of \d+/);
      t.ok(widest(frame) <= 100, 'long lines are wrapped inside the block');
      screen.press('G');
      frame = await screen.waitFor(/lines \d+–(\d+) of \1 /);
      t.match(frame, /w+ THE END\s+│/, 'the end of the longest line is reachable');
      screen.press(KEYS.pageUp);
      await screen.waitFor((f) => !/THE END/.test(f));
      screen.press('g');
      await screen.waitFor('lines 1–');
      screen.press(KEYS.down, 'j');
      await screen.waitFor('lines 3–');
      screen.press('e');
      await screen.waitFor('press e to expand');
      t.equal(logReads, 1, 'the log is read once');

      screen.press(KEYS.escape);
      await screen.waitFor('› Runs');
      screen.press(KEYS.backspace);
      await screen.waitFor('Monitors ·');
    },
  );

  t.test('/ filters monitors by name; f shows failed runs only; ? shows the keys', async (t) => {
    const screen = open();
    await screen.waitFor('new job');
    // The filter also matches ids, which are random letters and digits: "hoU" once matched mon_0mwti40ihhouA6P6XJk.
    // With a space in it, only a name can match.
    screen.press('/', 'l', 'Y', ' ', 's');
    let frame = await screen.waitFor('filter: lY s');
    t.match(frame, /Monitors · 1 of 3/);
    t.match(selected(frame), /hourly sync/);
    t.notMatch(frame, /nightly backup/);
    screen.press('x');
    await screen.waitFor('No monitor matches “lY sx”. Esc clears the filter.');
    screen.press(KEYS.escape);
    frame = await screen.waitFor('Monitors · 3 ·');
    t.match(frame, /nightly backup/);

    screen.press(KEYS.enter);
    await screen.waitFor('4 runs');
    screen.press('f');
    frame = await screen.waitFor('failed only · 1 run');
    t.equal(lines(frame).filter((line) => /✓ success/.test(line)).length, 0);
    screen.press('f');
    await screen.waitFor('all · 4 runs');

    screen.press('?');
    frame = await screen.waitFor('Symbols');
    t.match(frame, /Enter\s+Esc\s+open the monitor or run; back/);
    t.match(frame, /▲ silent failure/);
    screen.press('?');
    await screen.waitFor('all · 4 runs');
  });

  t.test('the open view refreshes itself and the cursor stays on its run', async (t) => {
    const screen = open({ refreshMs: 100 });
    await openMonitor(screen, 'nightly backup', '4 runs');
    t.match(selected(screen.frame()), /tar: \/data/);
    await api.ping(account, nightly, 'success');
    const frame = await screen.waitFor('5 runs');
    t.match(lines(frame)[4], /^  ✓ success/, 'the new run is on top');
    t.match(selected(frame), /tar: \/data/, 'the cursor did not move to another run');
  });

  t.test('more runs load as the cursor reaches the end of those loaded', async (t) => {
    const busy = await api.monitor(account, 'busy');
    await seedRuns(api, account, busy, 230);
    const screen = open();
    await openMonitor(screen, 'busy', '100+ runs');
    screen.press('G');
    await screen.waitFor('200+ runs');
    screen.press('G');
    await screen.waitFor('· 230 runs');
    screen.press('G');
    const frame = await screen.waitFor((f) => lines(f).at(-2)!.startsWith('▸'));
    t.match(selected(frame), /✓ success/, 'the cursor is on the oldest run, at the bottom of the screen');
  });

  t.test('fits a terminal of 60 columns, and follows a live resize', async (t) => {
    const screen = open({}, { columns: 60, rows: 20 });
    t.ok(widest(await screen.waitFor('nightly backup')) <= 60, screen.frame());
    let frame = await openMonitor(screen, 'nightly backup', '5 runs');
    t.ok(widest(frame) <= 60, frame);
    screen.press('f');
    frame = await screen.waitFor('failed only · 1 run');
    t.match(
      selected(frame),
      /^▸ ✗ failed\s+\d\d-\d\d \d\d:\d\d:\d\d\s+(\d+ms|\d+s)\s+tar: \/data: Permis…$/,
      'the year goes first',
    );
    screen.press(KEYS.enter, 'e');
    frame = await screen.waitFor('e collapses');
    t.ok(widest(frame) <= 60, frame);
    t.ok(lines(frame).length <= 19, 'no taller than the terminal');
    screen.resize(120, 40);
    frame = await screen.waitFor((f) => widest(f) > 100);
    t.ok(widest(frame) <= 120);
    screen.resize(60, 20);
    frame = await screen.waitFor((f) => widest(f) <= 60);
    t.match(frame, /e collapses/, 'still expanded after the resizes');
  });

  t.test('a run without a log says so; an empty monitor says how runs arrive', async (t) => {
    const screen = open();
    await openMonitor(screen, 'hourly sync', '1 run');
    screen.press(KEYS.enter);
    await screen.waitFor('none: this run has no log.');
    screen.press(KEYS.escape, KEYS.escape, KEYS.escape);
    await screen.waitFor('Monitors · 4\n');
    screen.press('/', 'new job', KEYS.enter, KEYS.enter);
    const frame = await screen.waitFor('No runs yet');
    t.match(frame, new RegExp(`pingmon run --monitor ${empty} -- <command>`));
  });

  t.test('a silent failure is marked in every view, with the rules it matched', async (t) => {
    const imports = await api.monitor(account, 'imports');
    const rule = await api.request(`/monitors/${imports}/rules`, {
      token: account.token,
      body: { metric: 'rows', op: 'lt', value: 1 },
    });
    t.equal(rule.status, 201, rule.text);
    await api.ping(account, imports, 'success', { meta: { rows: 0 } });
    const screen = open();
    let frame = await screen.waitFor('imports');
    t.match(
      lines(frame).find((line) => line.includes('imports')),
      /✓ up\s+imports  imports\s+▲ (just now|\d+s ago)/,
    );
    screen.press('/', 'imports', KEYS.enter, KEYS.enter);
    frame = await screen.waitFor('imports › Runs · all · 1 run');
    t.match(selected(frame), /^▸ ✓ success ▲\s+.*silent failure: rows < 1 \(was 0\)/);
    screen.press(KEYS.enter);
    frame = await screen.waitFor('Rules');
    t.match(frame, /Status\s+✓ success ▲ \(succeeded, but matched an alert rule\)/);
    t.match(frame, /Rules\s+rows < 1 \(was 0\)/);
    t.match(frame, /Meta\s+rows=0/);
  });

  t.test('an account without monitors says how to create one', async () => {
    const other = await api.account('unlimited');
    const screen = open({ source: createSource(() => createClient({ baseUrl: api.url, token: other.token })) });
    await screen.waitFor('No monitors yet. Create one with `pingmon monitors create NAME`');
  });

  t.test('an expired login says to run pingmon login, and a new login is picked up by r', async (t) => {
    const now = Math.floor(Date.now() / 1000);
    const expired = Jwt.token.generate(
      { sub: account.userId, acc: account.accountId, aud: 'pingmon', iss: 'pingmon', iat: now - 100, exp: now - 10 },
      { key: SECRET, algorithm: 'HS256' },
    );
    let token = expired;
    const screen = open({ source: createSource(() => createClient({ baseUrl: api.url, token })) });
    const frame = await screen.waitFor('Your login has expired: run `pingmon login`, then press r.');
    t.notMatch(frame, /nightly backup/);
    token = account.token;
    screen.press('r');
    await screen.waitFor('nightly backup');
  });

  t.test('an unreachable server is said plainly, and retried', async (t) => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const down = createClient({ baseUrl: url, token: account.token, retryBudgetMs: 500, timeoutMs: 500 });
    const screen = open({ source: createSource(() => down), url, refreshMs: 200 });
    const frame = await screen.waitFor(`Cannot reach the pingmon server at ${url}.`);
    t.match(frame, /Trying again every 0\.2 s; r tries\s+now, q quits\./);
    t.notMatch(frame, /▲/, 'said once, in place of the list');
  });

  t.test('a server that goes away keeps the data on screen with a warning', async (t) => {
    const api2 = await TestServer.start(t, 'sqlite');
    const account2 = await api2.account('unlimited');
    await api2.monitor(account2, 'still here');
    const screen = open({
      source: createSource(() =>
        createClient({ baseUrl: api2.url, token: account2.token, retryBudgetMs: 500, timeoutMs: 500 }),
      ),
      url: api2.url,
      refreshMs: 100,
    });
    await screen.waitFor('still here');
    await api2.server.stop();
    const frame = await screen.waitFor('Cannot reach the pingmon server');
    t.match(frame, /▲ Cannot reach the pingmon server at .*\. Showing data from \d\d:\d\d:\d\d UTC\./);
    t.match(frame, /still here/);
  });
});
