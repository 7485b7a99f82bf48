import t from 'tap';
import { tempDir } from '../../helpers/databases.js';
import { CLI, pingmon } from '../../helpers/cli.js';
import { requireTools } from '../../helpers/system-tools.js';
import { Tmux } from '../../helpers/tmux.js';
import { trendMonitor } from '../../helpers/trend-fixtures.js';

// The runs view of the real `pingmon browse`, in a real terminal (tmux): the latest successes' sparklines under its
// title, against numbers worked out by hand (helpers/trend-fixtures.ts).

t.test('pingmon browse: the runs view draws the duration and each meta key of the latest successes', async (t) => {
  if (!requireTools(t, 'tmux')) return;
  const { api, account } = await trendMonitor(t);
  const env = { XDG_CONFIG_HOME: tempDir('pingmon-config-') };
  const login = await pingmon(
    ['login', '--url', api.url, '--email', account.email, '--password', account.password],
    env,
  );
  t.equal(login.code, 0, login.stderr);

  const term = Tmux.start(t, [process.execPath, CLI, 'browse'], { columns: 100, rows: 20, env });
  await term.waitFor('Monitors · 1');
  term.keys('Enter');
  const screen = await term.waitFor('etl job › Runs · all · 6 runs');
  const lines = screen.split('\n');
  const title = lines.findIndex((line) => line.includes('› Runs'));
  t.equal(
    lines[title + 1]!.trimEnd(),
    '∿ durationMs ▁▂▃█▂▄  1s to 8s · rows ▆█▁▇▆▂  3 to 12',
    'under the title, oldest on the left',
  );

  term.keys('f');
  const failedOnly = await term.waitFor('No failed runs');
  t.notMatch(failedOnly, /∿/, 'no successes shown, no trend');
});
