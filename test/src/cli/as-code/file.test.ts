import t from 'tap';
import { readMonitorsFile } from 'pingmon/internal';

// The monitors file of `pingmon apply`: read into settings with their defaults, and every mistake named by its line
// and field with what to write instead.

const errorsOf = (text: string) => {
  const result = readMonitorsFile(text, 'pingmon.yaml');
  return result.ok ? [] : result.errors;
};

t.test('a file is read with defaults filled in, YAML or JSON', async (t) => {
  const yaml = [
    'version: 1',
    'monitors:',
    '  - slug: nightly-backup',
    '    name: nightly backup',
    '    schedule: {cron: " 0  3 * * *", timezone: Europe/Berlin}',
    '    startGrace: 10m',
    '    maxRuntime: 2h',
    '    failureThreshold: 2',
    '    rules:',
    '      - rowsProcessed < 1',
    '      - durationMs gt 3600000',
    '      - rowsProcessed < 0.5 × median(20) for 2 runs',
    '  - slug: hourly-sync',
    '    schedule: {every: 1h}',
    '    renotifyAfter: none',
    'channels:',
    '  - name: ops slack',
    '    monitors: all',
    '  - name: db hook',
    '    type: webhook',
    '    monitors: [nightly-backup]',
    '    enabled: false',
  ].join('\n');
  const result = readMonitorsFile(yaml, 'pingmon.yaml');
  t.ok(result.ok, JSON.stringify(result));
  if (!result.ok) return;
  t.same(result.desired.monitors[0], {
    slug: 'nightly-backup',
    name: 'nightly backup',
    settings: {
      schedule: { cron: '0 3 * * *', timezone: 'Europe/Berlin' },
      startGrace: 600,
      maxRuntime: 7200,
      failureThreshold: 2,
      recoveryThreshold: 1,
      renotifyAfter: null,
      failAlerts: 'every',
      paused: false,
    },
    rules: [
      { metric: 'rowsProcessed', op: 'lt', value: 1, baseline: null, window: null },
      { metric: 'durationMs', op: 'gt', value: 3600000, baseline: null, window: null },
      {
        ...{ metric: 'rowsProcessed', op: 'lt', value: 0.5 },
        ...{ baseline: { runs: 20, minRuns: 20 }, window: { runs: 2, atLeast: 2 } },
      },
    ],
    line: 3,
  });
  t.match(result.desired.monitors[1], {
    slug: 'hourly-sync',
    name: 'hourly-sync',
    settings: { schedule: { every: 3600 }, startGrace: 300, renotifyAfter: null },
    line: 13,
  });
  t.same(result.desired.channels, [
    { name: 'ops slack', type: undefined, monitors: 'all', enabled: undefined, line: 17 },
    { name: 'db hook', type: 'webhook', monitors: ['nightly-backup'], enabled: false, line: 19 },
  ]);

  const json = readMonitorsFile(
    JSON.stringify({ monitors: [{ slug: 'a', schedule: { cron: '*/5 * * * *' }, startGrace: 90 }] }),
    'pingmon.json',
  );
  t.match(json, { ok: true, desired: { monitors: [{ slug: 'a', settings: { schedule: { timezone: 'UTC' } } }] } });
  t.match(json, { desired: { channels: null } }, 'no channels: routing is left alone');
});

t.test('mistakes are named by line and field, with what to write instead', async (t) => {
  const cases: Array<[string, string, RegExp]> = [
    [
      'a duration that is not one',
      'monitors:\n  - slug: a\n    startGrace: 10x\n',
      /^pingmon\.yaml:3: monitors\[0\]\.startGrace: "10x" is not a duration: write a duration such as 90s, 10m/,
    ],
    [
      "the CLI's flag name",
      'monitors:\n  - slug: a\n\n    grace: 10m\n',
      /^pingmon\.yaml:4: monitors\[0\]\.grace: grace is not a field here; write startGrace$/,
    ],
    [
      'a schedule written flat',
      'monitors:\n  - slug: a\n    cron: 0 3 * * *\n',
      /^pingmon\.yaml:3: monitors\[0\]\.cron: .*write schedule: \{cron: …\}/,
    ],
    [
      'tz inside the schedule',
      'monitors:\n  - slug: a\n    schedule:\n      cron: 0 3 * * *\n      tz: Europe/Berlin\n',
      /^pingmon\.yaml:5: monitors\[0\]\.schedule\.tz: tz is not a field here; write timezone$/,
    ],
    [
      'a cron with four fields',
      'monitors:\n  - slug: a\n    schedule: {cron: "0 3 * *"}\n',
      /^pingmon\.yaml:3: monitors\[0\]\.schedule\.cron: "0 3 \* \*" has 4 field\(s\); write 5/,
    ],
    [
      'no slug',
      'monitors:\n  - name: backup\n',
      /^pingmon\.yaml:2: monitors\[0\]: slug is missing: write 1 to 64 of a-z, 0-9, - and _/,
    ],
    [
      'an id for a slug',
      'monitors:\n  - slug: Nightly Backup\n',
      /^pingmon\.yaml:2: monitors\[0\]\.slug: slug "Nightly Backup" is not a slug/,
    ],
    [
      'a slug twice',
      'monitors:\n  - slug: a\n  - slug: b\n  - slug: a\n',
      /^pingmon\.yaml:4: monitors\[2\]\.slug: "a" is already the slug of monitors\[0\]/,
    ],
    [
      'a rule that is not one',
      'monitors:\n  - slug: a\n    rules:\n      - rows => 1\n',
      /^pingmon\.yaml:4: monitors\[0\]\.rules\[0\]: "rows => 1" is not a rule: expected METRIC OP NUMBER/,
    ],
    [
      'a threshold out of range',
      'monitors:\n  - slug: a\n    failureThreshold: 0\n',
      /^pingmon\.yaml:3: monitors\[0\]\.failureThreshold: 0 is not a whole number from 1 to 100$/,
    ],
    [
      "a channel's URL",
      'monitors: []\nchannels:\n  - name: ops\n    monitors: all\n    url: https://hooks.slack.com/x\n',
      /^pingmon\.yaml:5: channels\[0\]\.url: url is not part of the file \(it holds no secrets\)/,
    ],
    [
      'channel routing that is neither all nor slugs',
      'monitors: []\nchannels:\n  - name: ops\n    monitors: every\n',
      /^pingmon\.yaml:4: channels\[0\]\.monitors: write `monitors: all` or a list of slugs/,
    ],
    ['no monitors list', 'channels: []\n', /^pingmon\.yaml:1: write `monitors:` with a list of monitors/],
    [
      'a channel twice',
      'monitors: []\nchannels:\n  - {name: ops, monitors: all}\n  - {name: ops, monitors: [a]}\n',
      /^pingmon\.yaml:4: channels\[1\]\.name: channel "ops" is already in channels\[0\]: name each channel once$/,
    ],
    [
      'a channel routing nothing',
      'monitors: []\nchannels:\n  - name: ops\n    monitors: []\n',
      /^pingmon\.yaml:4: channels\[0\]\.monitors: list at least one slug, or write `all`; to silence the channel/,
    ],
    ['YAML that does not parse', 'monitors:\n  - slug: a\n   name: b\n', /^pingmon\.yaml:3: /],
    ['a key twice', 'monitors:\n  - slug: a\n    slug: b\n', /^pingmon\.yaml:3: Map keys must be unique/],
  ];
  for (const [what, text, message] of cases) {
    const errors = errorsOf(text);
    t.match(errors[0], message, what);
  }
  t.equal(
    errorsOf('monitors:\n  - slug: a\n    startGrace: x\n    maxRuntime: y\n').length,
    2,
    'every mistake at once',
  );
});
