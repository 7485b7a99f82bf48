import t from 'tap';
import { sparkline, textWidth } from 'pingmon/internal';
import { tempDir } from '../helpers/databases.js';
import { pingmon } from '../helpers/cli.js';
import { trendMonitor } from '../helpers/trend-fixtures.js';

// docs/cli.md#pingmon-monitors-show: the sparklines of a monitor's latest successes, against numbers worked out by
// hand (helpers/trend-fixtures.ts).

t.test('a sparkline scales from the lowest value to the highest, a gap where a run did not report', async (t) => {
  t.equal(sparkline([1, 2, 3, 4, 5, 6, 7, 8]), '▁▂▃▄▅▆▇█');
  t.equal(sparkline([10, 12, 3, 11, 10, 4]), '▆█▁▇▆▂', '(v − 3) / 9 × 7, rounded');
  t.equal(sparkline([5, undefined, 5]), '▄ ▄', 'steady: half height; not reported: a gap');
  t.equal(sparkline([-2, 0, 2]), '▁▅█', 'negative values too');
});

t.test('pingmon monitors show: the duration and the rules’ metrics as sparklines, cut to the terminal', async (t) => {
  const { api, account, monitorId } = await trendMonitor(t);
  const env = { XDG_CONFIG_HOME: tempDir('pingmon-config-') };
  const cli = (columns: number, ...args: string[]) => pingmon(args, { ...env, COLUMNS: String(columns) });
  const login = await cli(120, 'login', '--url', api.url, '--email', account.email, '--password', account.password);
  t.equal(login.code, 0, login.stderr);

  const wide = await cli(120, 'monitors', 'show', monitorId, '--trend', 'queueDepth');
  t.equal(wide.code, 0, wide.stderr);
  t.match(
    wide.stdout,
    '\ntrend       durationMs ▁▂▃█▂▄  1s to 8s, 1 matched a rule\n' +
      '            rows       ▆█▁▇▆▂  3 to 12, 2 matched a rule\n' +
      '            queueDepth not reported\n',
    'oldest on the left; the 8 s run over 2 × the median, rows 3 and 4 under 5',
  );

  // 60 columns leave room for the last five runs: 2, 3, 8, 2, 4 s and 12, 3, 11, 10, 4 rows.
  const narrow = await cli(60, 'monitors', 'show', monitorId);
  t.match(
    narrow.stdout,
    '\ntrend       durationMs ▁▂█▁▃  2s to 8s, 1 matched a rule\n' +
      '            rows       █▁▇▆▂  3 to 12, 2 matched a rule\n',
  );
  for (const line of narrow.stdout.split('\n').filter((l) => l.includes('▁')))
    t.ok(textWidth(line) <= 60, `at most 60 columns: ${line}`);
});
