import t from 'tap';
import { tempDir } from '../../helpers/databases.js';
import { CLI, pingmon } from '../../helpers/cli.js';
import { deadUrl } from '../../helpers/receiver.js';
import { TestServer } from '../../helpers/server.js';
import { requireTools } from '../../helpers/system-tools.js';
import { EXITED, Tmux } from '../../helpers/tmux.js';
import { waitFor } from '../../helpers/wait.js';

// The real `pingmon browse`, in a real terminal (tmux), against a real server: what a person sees.

const LOG = [
  ...Array.from({ length: 40 }, (_, i) => `\x1b[1;31mERROR\x1b[0m\ttar: /data/part-${i}: Permission denied\x1b[K`),
  `${'z'.repeat(1500)} THE END`,
].join('\n');

/**
 * A frame that has reached the terminal whole: `text`, and below it the footer, the frame's last line. ink writes a
 * frame at once, but the terminal may be read while it is still taking it in (the box half drawn).
 */
const whole = (text: string | RegExp, footer: string) => (screen: string) => {
  const at = typeof text === 'string' ? screen.indexOf(text) : (text.exec(screen)?.index ?? -1);
  return at >= 0 && screen.lastIndexOf(footer) > at;
};

t.test('pingmon browse in a terminal: monitors, runs, the failed run, its log expanded', async (t) => {
  if (!requireTools(t, 'tmux')) return;
  const api = await TestServer.start(t, 'sqlite');
  const account = await api.account('unlimited');
  const nightly = await api.monitor(account, 'nightly backup');
  for (let i = 0; i < 3; i++) {
    const runId = `run-ok-${i}-000000`;
    await api.ping(account, nightly, 'start', { runId });
    await api.ping(account, nightly, 'success', { runId, meta: { rows: 10 } });
  }
  // Runs that start in the same millisecond are listed by runId (docs/api.md), and run-ok-… sorts after
  // run-failed-…: the failed run starts in a later millisecond, so that it is the newest.
  const okBy = Date.now();
  await waitFor(() => Date.now() > okBy, { what: 'the clock to pass the runs that succeeded' });
  await api.ping(account, nightly, 'start', { runId: 'run-failed-000001' });
  await api.ping(account, nightly, 'fail', {
    runId: 'run-failed-000001',
    errorMessage: 'tar: /data: Permission denied\nexit code 2',
    logOutput: LOG,
  });
  await api.ping(account, await api.monitor(account, 'hourly sync'), 'success');

  const env = { XDG_CONFIG_HOME: tempDir('pingmon-config-') };
  const login = await pingmon(
    ['login', '--url', api.url, '--email', account.email, '--password', account.password],
    env,
  );
  t.equal(login.code, 0, login.stderr);

  const term = Tmux.start(t, [process.execPath, CLI, 'browse'], { columns: 100, rows: 30, env });
  let screen = await term.waitFor('Monitors · 2 · 1 down');
  const failedRow = screen.split('\n').find((line) => line.includes('nightly backup'))!;
  t.match(
    failedRow,
    /^▸ ✗ down\s+nightly backup  nightly-backup\s+✗ (just now|\d+s ago|\d+m ago)\s+—\s+(\d+ms|\d+s)\s+1\/4/,
  );
  const coloured = term
    .capture(true)
    .split('\n')
    .find((line) => line.includes('nightly backup'))!;
  t.match(coloured, /\x1b\[[0-9;]*31m/, 'the down status is red as well');

  term.keys('Enter');
  screen = await term.waitFor('nightly backup › Runs · all · 4 runs');
  const runs = screen.split('\n').filter((line) => /^[▸ ] [✓✗]/.test(line));
  t.equal(runs.length, 4);
  t.match(
    runs[0],
    /^▸ ✗ failed\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+(\d+ms|\d+s)\s+tar: \/data: Permission denied\s*$/,
    'newest first, first line of the error',
  );

  term.keys('Enter');
  screen = await term.waitFor(whole('press e to expand', 'e expand log'));
  t.match(screen, /Run\s+run-failed-000001/);
  t.match(screen, /Error\s+tar: \/data: Permission denied\n\s+exit code 2\n/);
  t.match(
    screen,
    /Log\s+[\d,]+ characters, collapsed\n┌─+┐\n│ ERROR {3}tar: \/data\/part-0: Permission denied +│\n/,
    'escape sequences gone, tab expanded',
  );
  t.match(screen, /│ [\d,]+ more characters hidden — press e to expand +│\n└─+┘/);

  term.keys('e');
  screen = await term.waitFor(whole('e collapses', 'e collapse log'));
  t.match(screen, /lines 1–\d+ of \d+/);
  t.notMatch(screen, /\[1;31m|\[0m|\[K/);
  const box = screen.split('\n').filter((line) => line.startsWith('│'));
  t.ok(
    box.length > 5 && box.every((line) => line.length === 100 && line.endsWith('│')),
    'every log row within the block',
  );
  term.keys('G');
  screen = await term.waitFor(whole('THE END', 'e collapse log'));
  t.match(screen, /lines \d+–(\d+) of \1 /, 'scrolled to the last line');
  term.keys('PageUp');
  await term.waitFor((s) => !s.includes('THE END'));

  term.resize(60, 24);
  screen = await term.waitFor(whole(/^┌─{58}┐$/m, 'e collapse log'));
  t.ok(
    screen
      .split('\n')
      .filter((line) => line.startsWith('│'))
      .every((line) => line.length === 60),
    'the block follows the new width',
  );
  t.match(screen, /e collapses/);

  term.keys('Escape');
  await term.waitFor('› Runs');
  term.keys('q');
  screen = await term.waitFor(EXITED);
  t.equal(EXITED.exec(screen)![1], '0', 'q quits with exit code 0');
  t.notMatch(screen, /Monitors|› Runs/, 'the terminal is given back as it was');
});

t.test('pingmon browse with NO_COLOR: no colour at all; the words, bold and the selected row stay', async (t) => {
  if (!requireTools(t, 'tmux')) return;
  const api = await TestServer.start(t, 'sqlite');
  const account = await api.account('unlimited');
  const nightly = await api.monitor(account, 'nightly backup');
  await api.ping(account, nightly, 'fail', { errorMessage: 'exit code 2' });
  await api.ping(account, await api.monitor(account, 'hourly sync'), 'success');
  const env = { XDG_CONFIG_HOME: tempDir('pingmon-config-') };
  const login = await pingmon(
    ['login', '--url', api.url, '--email', account.email, '--password', account.password],
    env,
  );
  t.equal(login.code, 0, login.stderr);

  const colours = (screen: string) => sgrParameters(screen).filter(isColour);
  const coloured = Tmux.start(t, [process.execPath, CLI, 'browse'], { columns: 100, rows: 30, env });
  await coloured.waitFor('Monitors · 2 · 1 down');
  t.not(colours(coloured.capture(true)).length, 0, 'without NO_COLOR the same screen has colours');

  const term = Tmux.start(t, [process.execPath, CLI, 'browse'], {
    columns: 100,
    rows: 30,
    env: { ...env, NO_COLOR: '1' },
  });
  const views = [
    () => term.waitFor('Monitors · 2 · 1 down'),
    () => term.waitFor('nightly backup › Runs · all · 1 run'),
    () => term.waitFor(/Status\s+✗ failed/),
  ];
  for (const [i, shown] of views.entries()) {
    if (i > 0) term.keys('Enter');
    await shown();
    const screen = term.capture(true);
    t.same(colours(screen), [], `no colour in view ${i + 1}`);
    if (i < 2) t.ok(sgrParameters(screen).includes('7'), `the selected row of view ${i + 1} is still inverse`);
  }
  t.match(term.capture(), /Status\s+✗ failed/, 'the status is said in words');
});

t.test('pingmon browse against a server that is down says so in the terminal', async (t) => {
  if (!requireTools(t, 'tmux')) return;
  const url = await deadUrl();
  const env = { XDG_CONFIG_HOME: tempDir('pingmon-config-'), PINGMON_URL: url, PINGMON_TOKEN: 'not-checked' };
  const term = Tmux.start(t, [process.execPath, CLI, 'browse', '--refresh', '5'], { columns: 80, rows: 24, env });
  // From the first frame on: the connection is refused at once, so saying so must not wait for retries (with the
  // client's default backoff it took 6 to 12 s), nor for the next refresh (5 s).
  await term.waitFor((s) => s.includes('Loading monitors…') || s.includes('Cannot reach'));
  const drawnAt = Date.now();
  const screen = await term.waitFor(whole('Cannot reach the pingmon server', '? help · q quit'), 4_000);
  const tookMs = Date.now() - drawnAt;
  t.ok(tookMs < 4_000, `said ${tookMs} ms after the first frame`);
  t.match(screen, /Trying again\s+every 5 s/);
  term.keys('q');
  t.equal(EXITED.exec(await term.waitFor(EXITED))![1], '0');
});

t.test('pingmon browse without a login or without a terminal says what to do, in one line', async (t) => {
  const env = { XDG_CONFIG_HOME: tempDir('pingmon-config-') };
  const out = await pingmon(['browse'], env);
  t.equal(out.code, 1);
  t.equal(out.stderr, 'pingmon: not logged in: run `pingmon login` first\n');
  const piped = await pingmon(['browse'], { ...env, PINGMON_URL: 'http://127.0.0.1:1', PINGMON_TOKEN: 'x' });
  t.equal(piped.code, 1);
  t.match(
    piped.stderr,
    /^pingmon: pingmon browse needs an interactive terminal; in scripts use `pingmon monitors list`/,
  );
  t.equal(piped.stdout, '', 'nothing drawn');
});

/** Every SGR parameter on the screen, each of "\x1b[1;31m" as "1" and "31" ("38;5;208" kept whole). */
function sgrParameters(screen: string): string[] {
  return [...screen.matchAll(/\x1b\[([0-9;]*)m/g)].flatMap(
    ([, params]) => params!.match(/[34]8;(5;\d+|2;\d+;\d+;\d+)|\d+/g) ?? [],
  );
}

/** A foreground or background colour (30–37, 38;…, 40–47, 48;…, 90–97, 100–107); 39 and 49 are resets. */
function isColour(parameter: string): boolean {
  const n = Number(parameter.split(';')[0]);
  return (n >= 30 && n <= 38) || (n >= 40 && n <= 48) || (n >= 90 && n <= 97) || (n >= 100 && n <= 107);
}
