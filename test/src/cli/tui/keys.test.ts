import t from 'tap';
import { tempDir } from '../../helpers/databases.js';
import { CLI, pingmon } from '../../helpers/cli.js';
import { TestServer } from '../../helpers/server.js';
import { requireTools } from '../../helpers/system-tools.js';
import { EXITED, Tmux } from '../../helpers/tmux.js';

// The real `pingmon browse` in tmux: keys sent together (one send-keys) are each taken, in order, also while the
// list refreshes every second; an expanded log takes the screen. One server, one terminal.

const LOG_LINES = 100;
const LOG = Array.from({ length: LOG_LINES }, (_, i) => `line ${i + 1}: tar: /data/part-${i}`).join('\n');

t.test('pingmon browse takes every key of a chunk, and an expanded log fills the terminal', async (t) => {
  if (!requireTools(t, 'tmux')) return;
  const api = await TestServer.start(t, 'sqlite');
  const account = await api.account('unlimited');
  const nightly = await api.monitor(account, 'nightly backup');
  await api.ping(account, nightly, 'fail', { errorMessage: 'tar: /data: Permission denied', logOutput: LOG });
  // Paused and resumed (which ends its incident): events of its timeline.
  for (const paused of [true, false]) {
    const reply = await api.request(`/monitors/${nightly}`, {
      method: 'PATCH',
      token: account.token,
      body: { paused },
    });
    t.equal(reply.status, 200, reply.text);
  }
  for (let i = 1; i <= 30; i++) {
    await api.ping(account, await api.monitor(account, `job ${String(i).padStart(2, '0')}`), 'success');
  }
  const env = { XDG_CONFIG_HOME: tempDir('pingmon-config-') };
  const login = await pingmon(
    ['login', '--url', api.url, '--email', account.email, '--password', account.password],
    env,
  );
  t.equal(login.code, 0, login.stderr);

  const term = Tmux.start(t, [process.execPath, CLI, 'browse', '--refresh', '1'], { columns: 80, rows: 24, env });
  const selected = (screen: string) => screen.split('\n').find((line) => line.startsWith('▸')) ?? '';
  const on = (name: string) => (screen: string) => selected(screen).includes(name) && screen.includes('q quit');
  await term.waitFor(on('nightly backup'));
  term.keys('?');
  const help = await term.waitFor((s) => s.includes('Times are UTC') && s.includes('closes the help'));
  t.match(help, /^ {3}t +runs: the timeline/m, 'all of the help fits 80×24, t in it');
  term.keys('?');
  await term.waitFor(on('nightly backup'));

  term.keys('Down', 'Down', 'Down');
  await term.waitFor(on('job 03'));
  term.keys('Down', 'Enter');
  await term.waitFor('job 04 › Runs');
  term.keys('Escape');
  await term.waitFor(on('job 04'));
  term.keys('End');
  await term.waitFor(on('job 30'));
  term.keys('Home', 'Down', 'Down', 'Down', 'Down');
  await term.waitFor(on('job 04'));

  // Keys while the list refreshes under them (every second): net nothing, then ↓ Enter. A key lost or taken twice
  // around a refresh opens another job.
  const refreshes = new Set<string>();
  for (let round = 0; round < 400 && refreshes.size < 4; round++) {
    term.keys('Down', 'Down', 'Down', 'Up', 'Up', 'Up');
    term.type('jjkk');
    const stamp = /updated (\d\d:\d\d:\d\d) UTC/.exec(term.capture())?.[1];
    if (stamp) refreshes.add(stamp);
    // The server runs in this process: tmux's calls block it, so it is let answer the refreshes between rounds.
    await new Promise((resolve) => setImmediate(resolve));
  }
  t.ok(refreshes.size >= 4, `keys sent across ${refreshes.size - 1} refreshes`);
  term.keys('Down', 'Enter');
  await term.waitFor('job 05 › Runs');
  term.keys('Escape');
  await term.waitFor(on('job 05'));

  // Pasted text types into the filter, line end and all; outside the filter it is not keys (p would pause, z snooze).
  term.keys('/');
  await term.waitFor('filter: ▏');
  term.paste('job 2\n');
  await term.waitFor('Monitors · 10 of 31 · filter: job 2 ▏');
  term.keys('Enter');
  await term.waitFor(on('job 20'));
  term.keys('Escape');
  await term.waitFor(on('nightly backup'));
  term.paste('pzjjq');
  term.keys('Down');
  let screen = await term.waitFor(on('job 01'));
  const stamp = /updated (\d\d:\d\d:\d\d) UTC/.exec(screen)?.[1];
  screen = await term.waitFor((s) => s.includes('updated') && !s.includes(`updated ${stamp}`));
  t.notMatch(screen, /paused|snoozed/, 'nothing paused or snoozed by the paste');

  // The failed run's log, expanded at 80×24: the run's fields shrink to two lines, the log takes the rest.
  term.keys('Home', 'Enter');
  await term.waitFor('nightly backup › Runs · all · 1 run');
  term.keys('Enter');
  await term.waitFor((s) => s.includes('press e to expand') && s.includes('q quit'));
  term.keys('e');
  const logRows = (rows: number) => rows - 1 - 4 - 2 - 3; // drawn, chrome, the two field lines, label and borders
  const lines = (from: number, rows: number) => `lines ${from}–${from + logRows(rows) - 1} of ${LOG_LINES}`;
  screen = await term.waitFor((s) => s.includes(lines(1, 24)) && s.includes('q quit'));
  t.equal(logRows(24), 14);
  t.match(
    screen,
    /^Status +✗ failed · started \d{4}-\d\d-\d\d [\d:.]+ UTC · \S+\nError +tar: \/data: Permission denied\nLog /m,
  );
  t.notMatch(screen, /^Run |^Meta /m, 'the other fields make room');
  const box = screen.split('\n').filter((line) => line.startsWith('│'));
  t.equal(box.length, 14, 'every row left is the log');
  t.match(box[0], /^│ line 1: tar: \/data\/part-0 +│$/);
  const rows = screen.split('\n');
  t.match(rows[rows.findIndex((line) => line.startsWith('└')) + 1], /q quit/, 'the block reaches the footer');

  const scrolled = async (keys: string[], from: number, rows = 24) => {
    term.keys(...keys);
    await term.waitFor((s) => s.includes(lines(from, rows)) && s.includes('q quit'));
  };
  await scrolled(['j'], 2);
  await scrolled(['Down', 'Down', 'Down'], 5);
  await scrolled(['k', 'Up'], 3);
  await scrolled(['PageDown'], 16);
  await scrolled(['PageUp', 'PageUp'], 1);
  await scrolled(['G'], LOG_LINES - 13);
  t.match(term.capture(), /│ line 100: tar: \/data\/part-99 +│/);
  await scrolled(['g'], 1);
  await scrolled(['NPage', 'NPage'], 27);

  term.resize(120, 40);
  await scrolled(['g'], 1, 40);
  screen = term.capture();
  t.equal(
    screen.split('\n').filter((line) => line.startsWith('│')).length,
    logRows(40),
    `at 120×40 the log has ${logRows(40)} rows`,
  );
  await scrolled(['End'], LOG_LINES - logRows(40) + 1, 40);

  term.keys('e');
  await term.waitFor((s) => /^Run +\S+/m.test(s) && s.includes('press e to expand') && s.includes('q quit'));

  // The timeline, in the runs' place (t), newest first; f steps through the kinds.
  term.keys('Escape', 't');
  screen = await term.waitFor((s) => /nightly backup › Timeline · all · \d+ events/.test(s) && s.includes('q quit'));
  const events = screen.split('\n').filter((line) => /^[▸ ] \d{4}-/.test(line));
  // At 120 columns: marker, time (19), two spaces, then the event's symbol and words in 17 columns.
  const kinds = events.map((line) => line.slice(23, 40).trim());
  const all = ['✓ up again', '· resumed', '· paused', '» alert', '✗ down', '✗ run failed'];
  t.same([...kinds].sort(), [...all].sort(), events.join('\n'));
  t.equal(kinds.at(-1), '✗ run failed', 'newest first: the run that started it all at the bottom');
  t.ok(kinds.indexOf('· resumed') < kinds.indexOf('· paused'));
  t.match(
    events.find((line) => line.includes('» alert')),
    /fail: no channel took it/,
    'an alert and its deliveries',
  );
  t.ok(events[0]!.startsWith('▸'), 'the newest selected');
  term.keys('Down', 'f');
  screen = await term.waitFor((s) => s.includes('Timeline · runs · 1 event\n') && s.includes('q quit'));
  t.match(screen, /^▸ \S+ \S+\s+✗ run failed\s+[0-9a-f-]{36}: tar: \/data: Permission denied/m);
  term.keys('f', 'f', 'f', 'f');
  screen = await term.waitFor((s) => s.includes('Timeline · snoozes and pauses · 2 events') && s.includes('q quit'));
  t.match(screen, /· resumed[\s\S]*· paused/);
  term.keys('f');
  await term.waitFor('Timeline · all');
  term.keys('t');
  await term.waitFor('nightly backup › Runs · all · 1 run');
  term.keys('q');
  t.equal(EXITED.exec(await term.waitFor(EXITED))![1], '0');
});
